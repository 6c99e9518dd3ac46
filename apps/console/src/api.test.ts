import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent, ElicitationRequest, PermissionRequest, StoredDecision } from '@airlock/core';
import { demoServers, startConsole } from '@airlock/console';
import type { ConsoleConfig, RunningConsole } from '@airlock/console';
import { FakeClock } from '@airlock/core/testing';
import { ConsoleClient, consoleRequest, rawConsoleRequest, screenText } from './testing/console-client.js';
import type { ApiAnswer, ConsoleEventStream } from './testing/console-client.js';
import { memoryConsoleConfig } from './testing/memory-console-config.js';

// The console under test is the built one (@airlock/console): it serves the page from apps/console/dist/web, so
// `npm run build` comes first. Each describe block starts its own console, with its own demo server whose every
// received tools/call is appended to a call log: the proof that a call did, or never did, reach the server.

/** One console for one describe block, and everything to close after it. */
interface TestConsole {
  readonly running: RunningConsole;
  readonly url: string;
  /** The demo server's call log (AIRLOCK_DEMO_CALL_LOG). */
  readonly log: string;
  /** Signs a user in (local mode) as a new session. */
  signIn(userId: string, workspaceId?: string): Promise<ConsoleClient>;
  /** Opens a tab's event stream for `client`; closed with the console. */
  open(client: ConsoleClient): Promise<ConsoleEventStream>;
  close(): Promise<void>;
}

async function startTestConsole(retention: ConsoleConfig['retention'] = {}, clock?: FakeClock): Promise<TestConsole> {
  const dir = await mkdtemp(join(tmpdir(), 'airlock-console-api-'));
  const log = join(dir, 'calls.ndjson');
  const config: ConsoleConfig = memoryConsoleConfig('api test', {
    servers: demoServers().map((s) =>
      s.transport === 'stdio' ? { ...s, env: { ...s.env, AIRLOCK_DEMO_CALL_LOG: log } } : s,
    ),
    retention,
  });
  const running = await startConsole(config, clock === undefined ? {} : { clock });
  await running.host.servers.settled();
  expect(running.host.servers.list().map((s) => [s.id, s.state])).toEqual([['demo', 'ready']]);
  const streams: ConsoleEventStream[] = [];
  return {
    running,
    url: running.url,
    log,
    signIn: (userId, workspaceId) =>
      ConsoleClient.signIn(running.url, { userId, ...(workspaceId === undefined ? {} : { workspaceId }) }),
    open: async (client) => {
      const stream = await client.openEvents();
      streams.push(stream);
      return stream;
    },
    close: async () => {
      await Promise.all(streams.map((s) => s.close()));
      await running.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The calls the demo server received, in order. */
function callLog(path: string): { event: string; tool: string; args?: Record<string, unknown> }[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { event: string; tool: string; args?: Record<string, unknown> });
}

/** How many times the demo server received `echo` with this text. */
function echoCalls(path: string, text: string): number {
  return callLog(path).filter((l) => l.event === 'call' && l.tool === 'echo' && l.args?.['text'] === text).length;
}

/** Asserts an error answer: the status and exactly `{ error: { code, message } }`. */
function expectApiError(answer: { status: number; body: unknown }, status: number, code: string): void {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status,
    body: { error: { code, message: expect.any(String) } },
  });
}

let unique = 0;
/** A user id no other test uses, so tests cannot see each other's calls or decisions. */
const userId = (name: string) => `${name}-${++unique}`;

const answerPermission = (client: ConsoleClient, invocationId: string, decision: unknown): Promise<ApiAnswer> =>
  client.post(`/api/permission-requests/${invocationId}`, { decision });

describe('the API refuses what it cannot or must not answer', () => {
  let tc: TestConsole;
  beforeAll(async () => {
    tc = await startTestConsole();
  });
  afterAll(async () => {
    await tc.close();
  });

  it('answers a malformed JSON body with 400 bad_json', async () => {
    const answer = await consoleRequest(tc.url, 'POST', '/api/session', {
      body: '{"userId": "x",',
      headers: { 'content-type': 'application/json' },
    });
    expectApiError(answer, 400, 'bad_json');
    expect((answer.body as { error: { message: string } }).error.message).toMatch(/not valid JSON/);
    expect(answer.headers.getSetCookie()).toEqual([]);
  });

  it('answers a JSON array (or any non-object) body with 400 bad_json', async () => {
    for (const body of ['["userId", "x"]', 'null', '"x"', '42']) {
      const answer = await consoleRequest(tc.url, 'POST', '/api/session', {
        body,
        headers: { 'content-type': 'application/json' },
      });
      expectApiError(answer, 400, 'bad_json');
      expect((answer.body as { error: { message: string } }).error.message).toBe('the body must be a JSON object');
    }
  });

  it('answers a body over 1 MB with 413 body_too_large, before and after sign-in', async () => {
    const padding = 'x'.repeat(1024 * 1024);
    const signIn = await rawConsoleRequest(tc.url, {
      method: 'POST',
      path: '/api/session',
      headers: {},
      body: { userId: userId('big'), padding },
    });
    expectApiError(signIn, 413, 'body_too_large');
    const client = await tc.signIn(userId('big'));
    const start = await rawConsoleRequest(tc.url, {
      method: 'POST',
      path: '/api/invocations',
      headers: { cookie: client.cookie },
      body: { tool: 'demo__echo', args: { text: padding } },
    });
    expectApiError(start, 413, 'body_too_large');
    expect((await client.get('/api/invocations')).body).toEqual([]);
    // Just under the limit is read (and refused for what it says, not for its size).
    const under = await client.post('/api/invocations', {
      tool: 'demo__no_such_tool',
      padding: 'x'.repeat(1000 * 1000),
    });
    expect(under.status).toBe(404);
  });

  it('answers a POST whose body is not JSON with 415 unsupported_media_type', async () => {
    const form = await consoleRequest(tc.url, 'POST', '/api/session', {
      body: 'userId=someone',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectApiError(form, 415, 'unsupported_media_type');
    const untyped = await consoleRequest(tc.url, 'POST', '/api/session', { body: '{"userId":"someone"}' });
    expect(untyped.status).toBe(415);
    const client = await tc.signIn(userId('media'));
    const text = await client.request('POST', '/api/invocations', '{"tool":"demo__echo","args":{"text":"t"}}', {
      'content-type': 'text/plain',
    });
    expectApiError(text, 415, 'unsupported_media_type');
  });

  it('answers an unknown route with 404 in JSON', async () => {
    const client = await tc.signIn(userId('lost'));
    const api = await client.get('/api/no-such-route');
    expectApiError(api, 404, 'not_found');
    expect(api.headers.get('content-type')).toMatch(/^application\/json/);
    expect((api.body as { error: { message: string } }).error.message).toBe('no route GET /api/no-such-route');
    expectApiError(await client.post('/api/invocations/some-id/no-such-action'), 404, 'not_found');
    expectApiError(await consoleRequest(tc.url, 'GET', '/no-such-page'), 404, 'not_found');
  });

  it('answers every scoped route with 401 without a session, or with an unknown one', async () => {
    for (const [method, path] of [
      ['GET', '/api/session'],
      ['GET', '/api/events'],
      ['GET', '/api/invocations'],
      ['GET', '/api/permissions'],
      ['GET', '/api/audit'],
      ['GET', '/api/no-such-route'],
    ] as const) {
      expectApiError(await consoleRequest(tc.url, method, path), 401, 'unauthorized');
    }
    const start = await consoleRequest(tc.url, 'POST', '/api/invocations', {
      body: { tool: 'demo__echo', args: { text: 'no session' } },
    });
    expectApiError(start, 401, 'unauthorized');
    const forged = await consoleRequest(tc.url, 'GET', '/api/invocations', {
      headers: { cookie: 'airlock_session=not-a-session' },
    });
    expectApiError(forged, 401, 'unauthorized');
    // Sign-in itself needs no session; it says whether the browser is signed in, so the page never asks with a 401.
    expect((await consoleRequest(tc.url, 'GET', '/api/auth')).body).toEqual({ mode: 'local', signedIn: false });
    const signedIn = await (await tc.signIn(userId('known'))).get('/api/auth');
    expect(signedIn.body).toEqual({ mode: 'local', signedIn: true });
  });

  it('refuses a Host header that is not a loopback name of this console with 403 (DNS rebinding)', async () => {
    const port = new URL(tc.url).port;
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1:${Number(port) + 1}`]) {
      for (const path of ['/api/auth', '/']) {
        const answer = await rawConsoleRequest(tc.url, { method: 'GET', path, headers: { host } });
        expectApiError(answer, 403, 'forbidden_host');
      }
    }
    const rebound = await rawConsoleRequest(tc.url, {
      method: 'POST',
      path: '/api/session',
      headers: { host: `evil.example:${port}` },
      body: { userId: userId('rebound') },
    });
    expectApiError(rebound, 403, 'forbidden_host');
    // The loopback names are answered.
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      expect(await rawConsoleRequest(tc.url, { method: 'GET', path: '/api/auth', headers: { host } })).toEqual({
        status: 200,
        body: { mode: 'local', signedIn: false },
      });
    }
  });

  it('refuses a state-changing request with an Origin of another site with 403', async () => {
    const client = await tc.signIn(userId('origin'));
    const port = new URL(tc.url).port;
    const signIn = await rawConsoleRequest(tc.url, {
      method: 'POST',
      path: '/api/session',
      headers: { origin: 'https://evil.example' },
      body: { userId: userId('csrf') },
    });
    expectApiError(signIn, 403, 'forbidden_origin');
    const text = `cross-site ${unique}`;
    const start = await rawConsoleRequest(tc.url, {
      method: 'POST',
      path: '/api/invocations',
      headers: { origin: `http://localhost:${port}`, cookie: client.cookie },
      body: { tool: 'demo__echo', args: { text } },
    });
    expectApiError(start, 403, 'forbidden_origin');
    const signOut = await rawConsoleRequest(tc.url, {
      method: 'DELETE',
      path: '/api/session',
      headers: { origin: 'null', cookie: client.cookie },
    });
    expectApiError(signOut, 403, 'forbidden_origin');
    // None of it happened: the session still works and no call was made.
    expect((await client.get('/api/invocations')).body).toEqual([]);
    // The console's own origin is accepted.
    const same = await rawConsoleRequest(tc.url, {
      method: 'POST',
      path: '/api/session',
      headers: { origin: new URL(tc.url).origin },
      body: { userId: userId('same-origin') },
    });
    expect(same.status).toBe(200);
  });

  it('signs in with an HttpOnly, SameSite=Strict session cookie, and signs out that session only', async () => {
    const name = userId('leaving');
    const signIn = await consoleRequest(tc.url, 'POST', '/api/session', { body: { userId: name } });
    expect(signIn.body).toEqual({ userId: name, workspaceId: 'default' });
    const [cookie] = signIn.headers.getSetCookie();
    expect(cookie).toMatch(/^airlock_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\//);

    const leaving = await tc.signIn(name);
    const staying = await tc.signIn(name);
    const tab = await tc.open(leaving);
    const out = await leaving.delete('/api/session');
    expect(out).toMatchObject({ status: 200, body: { ok: true } });
    expect(out.headers.getSetCookie()).toEqual([expect.stringMatching(/^airlock_session=;.*Max-Age=0/)]);
    await tab.waitFor((e) => e.event === 'session.ended', 'the session ending');
    expectApiError(await leaving.get('/api/session'), 401, 'unauthorized');
    expectApiError(
      await leaving.post('/api/invocations', { tool: 'demo__echo', args: { text: 'x' } }),
      401,
      'unauthorized',
    );
    expect((await staying.get('/api/session')).body).toEqual({
      userId: name,
      workspaceId: 'default',
      admin: true,
      model: false,
    });
  });

  it('answers bad names and bad requests with 400 invalid_request', async () => {
    expectApiError(
      await consoleRequest(tc.url, 'POST', '/api/session', { body: { userId: 'no spaces allowed' } }),
      400,
      'invalid_request',
    );
    expectApiError(await consoleRequest(tc.url, 'POST', '/api/session', { body: {} }), 400, 'invalid_request');
    const client = await tc.signIn(userId('bad'));
    expectApiError(await client.post('/api/invocations', { args: {} }), 400, 'invalid_request');
    expectApiError(await client.get('/api/tools?audience=robots'), 400, 'invalid_request');
    expectApiError(await client.get('/api/audit?type=nonsense'), 400, 'invalid_request');
    expectApiError(await client.post('/api/session/workspace', { workspaceId: '../x' }), 400, 'invalid_request');
    const unknownTool = await client.post('/api/invocations', { tool: 'demo__no_such_tool', args: {} });
    expect(unknownTool.status).toBe(404);
    expect((unknownTool.body as { error: { code: string } }).error.code).toBe('tool_not_found');
  });
});

describe("one user never sees or touches another user's calls, decisions or audit events", () => {
  let tc: TestConsole;
  beforeAll(async () => {
    tc = await startTestConsole();
  });
  afterAll(async () => {
    await tc.close();
  });

  it("answers 404 to another user for A's call (card, full text, cancel, its question) and 200 to A", async () => {
    const a = await tc.signIn(userId('tenant-a'));
    const b = await tc.signIn(userId('tenant-b'));
    const aTab = await tc.open(a);
    const bTab = await tc.open(b);
    const text = `only for ${a.userId}`;
    const id = await a.startCall('demo__echo', { text });
    await aTab.waitForPermission(id);

    expectApiError(await b.get(`/api/invocations/${id}`), 404, 'not_found');
    expectApiError(await b.get(`/api/invocations/${id}/full`), 404, 'not_found');
    expectApiError(await b.post(`/api/invocations/${id}/cancel`), 404, 'not_found');
    expectApiError(await answerPermission(b, id, 'allow_once'), 404, 'not_found');
    // The same answers as for an id that does not exist at all: nothing tells B that A's call exists.
    const unknown = await b.get('/api/invocations/no-such-invocation');
    expect((await b.get(`/api/invocations/${id}`)).body).toEqual({
      error: {
        code: 'not_found',
        message: (unknown.body as { error: { message: string } }).error.message.replace('no-such-invocation', id),
      },
    });

    const card = await a.get(`/api/invocations/${id}`);
    expect(card.status).toBe(200);
    expect(card.body).toMatchObject({
      invocation: { id, tool: 'demo__echo', state: 'pending', scope: { userId: a.userId, workspaceId: 'default' } },
    });
    expect(await answerPermission(a, id, 'allow_once')).toMatchObject({ status: 200, body: { ok: true } });
    const end = await aTab.waitForEnd(id);
    expect(end.invocation.state).toBe('success');
    expect(screenText(end.result)).toBe(text);
    const full = await a.get(`/api/invocations/${id}/full`);
    expect(full.status).toBe(200);
    expect((full.body as { text: string }).text).toContain(text);
    expectApiError(await b.get(`/api/invocations/${id}/full`), 404, 'not_found');
    expectApiError(await b.post(`/api/invocations/${id}/cancel`), 404, 'not_found');
    expect(echoCalls(tc.log, text)).toBe(1);

    // B's own list and a tab B opens now hold nothing of A's.
    expect((await b.get('/api/invocations')).body).toEqual([]);
    const bLater = await tc.open(b);
    expect(bLater.state).toMatchObject({ cards: [], permissionRequests: [], elicitations: [], decisions: [] });
    // Events for A went to A's tabs only. B's own question is a barrier: anything sent to B's tab before it is in.
    const bId = await b.startCall('demo__echo', { text: `only for ${b.userId}` });
    await bTab.waitForPermission(bId);
    expect(JSON.stringify(bTab.events)).not.toContain(id);
    expect(JSON.stringify(bTab.events)).not.toContain(a.userId);
    expect(JSON.stringify(aTab.events)).not.toContain(bId);
    await b.post(`/api/invocations/${bId}/cancel`);
    await bTab.waitForEnd(bId);
  });

  it("does not list A's stored decisions to B, and answers 404 when B revokes or changes one", async () => {
    const a = await tc.signIn(userId('owner'));
    const b = await tc.signIn(userId('intruder'));
    const aTab = await tc.open(a);
    const id = await a.startCall('demo__echo', { text: `remember ${a.userId}` });
    await aTab.waitForPermission(id);
    await answerPermission(a, id, 'allow_always');
    await aTab.waitForEnd(id);

    const mine = (await a.get('/api/permissions')).body as StoredDecision[];
    expect(mine).toEqual([
      expect.objectContaining({ userId: a.userId, workspaceId: 'default', tool: 'echo', effect: 'allow' }),
    ]);
    const decision = mine[0]!;
    expect((await b.get('/api/permissions')).body).toEqual([]);
    expectApiError(await b.delete(`/api/permissions/${decision.id}`), 404, 'not_found');
    expectApiError(await b.request('PATCH', `/api/permissions/${decision.id}`, { expiresAt: 1 }), 404, 'not_found');
    // A's decision is untouched, and A may revoke it.
    expect((await a.get('/api/permissions')).body).toEqual([decision]);
    expect(await a.delete(`/api/permissions/${decision.id}`)).toMatchObject({ status: 200, body: { ok: true } });
    expect((await a.get('/api/permissions')).body).toEqual([]);
    expectApiError(await a.delete(`/api/permissions/${decision.id}`), 404, 'not_found');
  });

  it("answers 404 to B for A's audit events and lists none of them to B", async () => {
    const a = await tc.signIn(userId('audited'));
    const b = await tc.signIn(userId('auditor'));
    const aTab = await tc.open(a);
    const id = await a.startCall('demo__echo', { text: `audit ${a.userId}` });
    await aTab.waitForPermission(id);
    await answerPermission(a, id, 'allow_once');
    await aTab.waitForEnd(id);

    const aEvents = (await a.get(`/api/audit?invocationId=${id}`)).body as AuditEvent[];
    expect(aEvents.map((e) => e.type)).toContain('permission.decision');
    expect(aEvents.every((e) => e.userId === a.userId)).toBe(true);
    const seq = aEvents[0]!.seq;
    expect(await a.get(`/api/audit/${seq}`)).toMatchObject({ status: 200, body: { seq, invocationId: id } });
    expectApiError(await b.get(`/api/audit/${seq}`), 404, 'not_found');
    expectApiError(await b.get('/api/audit/0'), 404, 'not_found');

    // B did something too, so B's log is not empty, and none of it is A's.
    const bTab = await tc.open(b);
    const bId = await b.startCall('demo__echo', { text: `audit ${b.userId}` });
    await bTab.waitForPermission(bId);
    await answerPermission(b, bId, 'deny_once');
    await bTab.waitForEnd(bId);
    const bEvents = (await b.get('/api/audit')).body as AuditEvent[];
    expect(bEvents.length).toBeGreaterThan(0);
    expect(bEvents.every((e) => e.userId === b.userId)).toBe(true);
    expect(bEvents.map((e) => e.seq)).not.toContain(seq);
    expect((await b.get(`/api/audit?invocationId=${id}`)).body).toEqual([]);
    const exported = await b.get('/api/audit/export');
    expect(exported.status).toBe(200);
    expect(String(exported.body)).not.toContain(a.userId);
  });
});

describe('permission questions are asked through the tabs and answered over the API', () => {
  let tc: TestConsole;
  beforeAll(async () => {
    tc = await startTestConsole();
  });
  afterAll(async () => {
    await tc.close();
  });

  it('takes the first answer from any tab of the user; a second answer is 409 already_answered', async () => {
    const name = userId('two-tabs');
    const first = await tc.signIn(name);
    const second = await tc.signIn(name);
    const tab1 = await tc.open(first);
    const tab2 = await tc.open(second);
    const text = `first answer ${name}`;
    const id = await first.startCall('demo__echo', { text });
    const asked = await tab1.waitForPermission(id);
    expect(asked).toMatchObject({
      invocationId: id,
      scope: { userId: name, workspaceId: 'default', conversationId: 'main' },
      tool: { name: 'demo__echo', originalName: 'echo' },
      args: { text },
    });
    expect(await tab2.waitForPermission(id)).toEqual(asked);

    expect(await answerPermission(second, id, 'allow_once')).toMatchObject({ status: 200, body: { ok: true } });
    expectApiError(await answerPermission(first, id, 'deny_once'), 409, 'already_answered');
    expectApiError(await answerPermission(second, id, 'allow_once'), 409, 'already_answered');
    for (const tab of [tab1, tab2]) {
      await tab.waitFor(
        (e) => e.event === 'permission.closed' && (e.data as { id: string }).id === id,
        'the question closing',
      );
      expect(tab.events.filter((e) => e.event === 'permission.closed')).toEqual([
        { event: 'permission.closed', data: { id, decision: 'allow_once' } },
      ]);
    }
    expect((await tab1.waitForEnd(id)).invocation.state).toBe('success');
    expect(echoCalls(tc.log, text)).toBe(1);
  });

  it("answers 404 when another user answers A's question, and the question stays A's to answer", async () => {
    const a = await tc.signIn(userId('asked'));
    const b = await tc.signIn(userId('other'));
    const aTab = await tc.open(a);
    const text = `not yours ${a.userId}`;
    const id = await a.startCall('demo__echo', { text });
    await aTab.waitForPermission(id);

    const foreign = await answerPermission(b, id, 'allow_always');
    expectApiError(foreign, 404, 'not_found');
    expect(foreign.body).toEqual({ error: { code: 'not_found', message: `no open permission question ${id}` } });
    expect((await tc.open(b)).state['permissionRequests']).toEqual([]);
    const aLater = await tc.open(a);
    expect((aLater.state['permissionRequests'] as PermissionRequest[]).map((r) => r.invocationId)).toEqual([id]);

    expect((await answerPermission(a, id, 'deny_once')).status).toBe(200);
    const end = await aTab.waitForEnd(id);
    expect(end.invocation).toMatchObject({ state: 'cancelled', outcome: 'permission_denied' });
    expect((await b.get('/api/permissions')).body).toEqual([]);
    expect((await a.get('/api/permissions')).body).toEqual([]);
  });

  it('answers an invalid decision with 400 and keeps the question open', async () => {
    const a = await tc.signIn(userId('undecided'));
    const tab = await tc.open(a);
    const text = `invalid decision ${a.userId}`;
    const id = await a.startCall('demo__echo', { text });
    await tab.waitForPermission(id);

    for (const decision of ['maybe', 'ALLOW_ONCE', 1, null, undefined]) {
      expectApiError(await answerPermission(a, id, decision), 400, 'invalid_request');
    }
    expectApiError(await a.post(`/api/permission-requests/${id}`, ['allow_once']), 400, 'bad_json');
    expect(tab.events.some((e) => e.event === 'permission.closed')).toBe(false);
    expect(((await tc.open(a)).state['permissionRequests'] as PermissionRequest[]).map((r) => r.invocationId)).toEqual([
      id,
    ]);

    expect((await answerPermission(a, id, 'allow_once')).status).toBe(200);
    expect((await tab.waitForEnd(id)).invocation.state).toBe('success');
    expect(echoCalls(tc.log, text)).toBe(1);
  });

  it('deny_once: the call ends denied and the server never receives it', async () => {
    const a = await tc.signIn(userId('denier'));
    const tab = await tc.open(a);
    const denied = `denied ${a.userId}`;
    const id = await a.startCall('demo__echo', { text: denied });
    await tab.waitForPermission(id);
    expect((await answerPermission(a, id, 'deny_once')).status).toBe(200);
    const end = await tab.waitForEnd(id);
    expect(end.invocation).toMatchObject({ state: 'cancelled', outcome: 'permission_denied' });

    // A call allowed afterwards does reach the server, so the log is being written; the denied one is not in it.
    const allowed = `allowed ${a.userId}`;
    const next = await a.startCall('demo__echo', { text: allowed });
    await tab.waitForPermission(next);
    await answerPermission(a, next, 'allow_once');
    expect((await tab.waitForEnd(next)).invocation.state).toBe('success');
    expect(echoCalls(tc.log, allowed)).toBe(1);
    expect(echoCalls(tc.log, denied)).toBe(0);
    // deny_once is not remembered.
    expect((await a.get('/api/permissions')).body).toEqual([]);
  });

  it('allow_always: the next call of the same tool runs without a question', async () => {
    const a = await tc.signIn(userId('trusting'));
    const tab = await tc.open(a);
    const id = await a.startCall('demo__echo', { text: `always 1 ${a.userId}` });
    await tab.waitForPermission(id);
    expect((await answerPermission(a, id, 'allow_always')).status).toBe(200);
    expect((await tab.waitForEnd(id)).invocation.state).toBe('success');
    expect((await a.get('/api/permissions')).body).toEqual([
      expect.objectContaining({ userId: a.userId, tool: 'echo', effect: 'allow' }),
    ]);

    const text = `always 2 ${a.userId}`;
    const second = await a.startCall('demo__echo', { text });
    const end = await tab.waitForEnd(second);
    expect(end.invocation.state).toBe('success');
    expect(screenText(end.result)).toBe(text);
    const questions = tab.events.filter((e) => e.event === 'permission.requested');
    expect(questions.map((e) => (e.data as PermissionRequest).invocationId)).toEqual([id]);
    expect(echoCalls(tc.log, text)).toBe(1);
  });

  it('keeps a question open when its tab closes; a tab opened later finds it and can answer it', async () => {
    const a = await tc.signIn(userId('tab-closer'));
    const tab1 = await tc.open(a);
    const text = `outlives its tab ${a.userId}`;
    const id = await a.startCall('demo__echo', { text });
    await tab1.waitForPermission(id);
    await tab1.close();

    const tab2 = await tc.open(a);
    const pending = tab2.state['permissionRequests'] as PermissionRequest[];
    expect(pending).toEqual([expect.objectContaining({ invocationId: id, args: { text } })]);
    expect(tab2.state['cards']).toEqual([
      expect.objectContaining({ invocation: expect.objectContaining({ id, state: 'pending' }) }),
    ]);
    expect(echoCalls(tc.log, text)).toBe(0);

    expect((await answerPermission(a, id, 'allow_once')).status).toBe(200);
    await tab2.waitFor(
      (e) => e.event === 'permission.closed' && (e.data as { id: string }).id === id,
      'the question closing',
    );
    const end = await tab2.waitForEnd(id);
    expect(end.invocation.state).toBe('success');
    expect(screenText(end.result)).toBe(text);
    expect(echoCalls(tc.log, text)).toBe(1);
  });
});

describe('cancelling a call', () => {
  let tc: TestConsole;
  beforeAll(async () => {
    tc = await startTestConsole();
  });
  afterAll(async () => {
    await tc.close();
  });

  it('cancels a running call (202, then state cancelled); a second cancel is 409 not_running', async () => {
    const a = await tc.signIn(userId('canceller'));
    const tab = await tc.open(a);
    const id = await a.startCall('demo__slow_task', { steps: 600, stepMs: 100 });
    await tab.waitForPermission(id);
    await answerPermission(a, id, 'allow_once');
    await tab.waitForInvocation(id, 'running');
    // The user's own demo process starts on their first call: the call is cancelled once the server has it.
    const slowCalls = () => callLog(tc.log).filter((l) => l.event === 'call' && l.tool === 'slow_task');
    await expect.poll(slowCalls, { timeout: 10_000 }).toHaveLength(1);

    expect(await a.post(`/api/invocations/${id}/cancel`)).toMatchObject({ status: 202, body: { ok: true } });
    const end = await tab.waitForEnd(id);
    expect(end.invocation).toMatchObject({ state: 'cancelled', outcome: 'cancelled' });
    const again = await a.post(`/api/invocations/${id}/cancel`);
    expectApiError(again, 409, 'not_running');
    expect((again.body as { error: { message: string } }).error.message).toContain('cancelled');
    expect((await a.get(`/api/invocations/${id}`)).body).toMatchObject({ invocation: { state: 'cancelled' } });
    expect(slowCalls()).toHaveLength(1);
  });

  it('cancels a call still waiting for permission: the question closes and the server is never called', async () => {
    const a = await tc.signIn(userId('early-canceller'));
    const tab = await tc.open(a);
    const text = `cancelled before it ran ${a.userId}`;
    const id = await a.startCall('demo__echo', { text });
    await tab.waitForPermission(id);

    expect((await a.post(`/api/invocations/${id}/cancel`)).status).toBe(202);
    const closed = await tab.waitFor(
      (e) => e.event === 'permission.closed' && (e.data as { id: string }).id === id,
      'the question closing',
    );
    expect(closed.data).toEqual({ id, decision: null });
    expect((await tab.waitForEnd(id)).invocation.state).toBe('cancelled');
    expectApiError(await answerPermission(a, id, 'allow_once'), 409, 'already_answered');
    expectApiError(await a.post(`/api/invocations/${id}/cancel`), 409, 'not_running');
    expect(echoCalls(tc.log, text)).toBe(0);
  });
});

describe("a server's questions (elicitation) are answered over the API", () => {
  let tc: TestConsole;
  beforeAll(async () => {
    tc = await startTestConsole();
  });
  afterAll(async () => {
    await tc.close();
  });

  // Over stdio (2025-11-25) a question is tied to its call only while that call is the server's only one in flight,
  // so a test that fails with its question open must not leave the call running into the next test.
  const started: { client: ConsoleClient; tab: ConsoleEventStream; id: string }[] = [];
  afterEach(async () => {
    for (const { client, tab, id } of started.splice(0)) {
      if ((await client.post(`/api/invocations/${id}/cancel`)).status === 202) await tab.waitForEnd(id);
    }
  });

  /** Starts demo__ask_user for `client`, allows it, and resolves with the form question it asks. */
  async function askUser(client: ConsoleClient, tab: ConsoleEventStream) {
    const id = await client.startCall('demo__ask_user', {});
    started.push({ client, tab, id });
    await tab.waitForPermission(id);
    expect((await answerPermission(client, id, 'allow_once')).status).toBe(200);
    return { id, question: await tab.waitForElicitation(id) };
  }

  it('checks a form answer against the form (400, still open), takes a valid one, then 409', async () => {
    const a = await tc.signIn(userId('answerer'));
    const b = await tc.signIn(userId('bystander'));
    const tab = await tc.open(a);
    const { id, question } = await askUser(a, tab);
    expect(question).toMatchObject({ mode: 'form', tool: 'demo__ask_user', scope: { userId: a.userId } });
    const fields = question.form?.model.fields ?? [];
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['name', 'text', true],
      ['age', 'number', false],
    ]);
    const [nameField, ageField] = fields.map((f) => f.name) as [string, string];

    // Another user cannot answer it, nor learn that it exists.
    const foreign = await b.post(`/api/elicitations/${question.id}`, {
      answer: { action: 'accept', content: { [nameField]: 'Mallory' } },
    });
    expect(foreign.body).toEqual({ error: { code: 'not_found', message: `no open question ${question.id}` } });
    expect(foreign.status).toBe(404);
    expect((await tc.open(b)).state['elicitations']).toEqual([]);

    // An answer that does not fit the form is refused with the problem by field, and nothing is sent.
    const bad = await a.post(`/api/elicitations/${question.id}`, {
      answer: { action: 'accept', content: { [nameField]: 'Ada', [ageField]: 'very old' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: { code: 'invalid_arguments', message: expect.any(String), errors: { [ageField]: expect.any(String) } },
    });
    const missing = await a.post(`/api/elicitations/${question.id}`, { answer: { action: 'accept', content: {} } });
    expect(missing.status).toBe(400);
    expect((missing.body as { error: { errors: Record<string, string> } }).error.errors).toHaveProperty(nameField);
    const unknownAction = await a.post(`/api/elicitations/${question.id}`, { answer: { action: 'shrug' } });
    expect(unknownAction).toMatchObject({ status: 400, body: { error: { code: 'invalid_arguments' } } });
    expect(tab.events.some((e) => e.event === 'elicitation.closed')).toBe(false);
    const later = await tc.open(a);
    expect((later.state['elicitations'] as ElicitationRequest[]).map((q) => q.id)).toEqual([question.id]);

    expect(
      await a.post(`/api/elicitations/${question.id}`, {
        answer: { action: 'accept', content: { [nameField]: 'Ada', [ageField]: 36 } },
      }),
    ).toMatchObject({ status: 200, body: { ok: true } });
    const closed = await tab.waitFor(
      (e) => e.event === 'elicitation.closed' && (e.data as { id: string }).id === question.id,
      'the question closing',
    );
    expect(closed.data).toEqual({ id: question.id, action: 'accept', end: 'answered' });
    const end = await tab.waitForEnd(id);
    expect(end.invocation.state).toBe('success');
    expect(screenText(end.result)).toBe(
      `The user answered the form with action "accept" and content ${JSON.stringify({ name: 'Ada', age: 36 })}.`,
    );

    expectApiError(
      await a.post(`/api/elicitations/${question.id}`, { answer: { action: 'decline' } }),
      409,
      'already_answered',
    );
    // Still a 404 for the other user, whose question it never was.
    expectApiError(
      await b.post(`/api/elicitations/${question.id}`, { answer: { action: 'decline' } }),
      404,
      'not_found',
    );
  });

  it('answers a URL question: only its user can accept it, and the server says when the flow is done', async () => {
    const a = await tc.signIn(userId('connector'));
    const b = await tc.signIn(userId('onlooker'));
    const tab = await tc.open(a);
    const id = await a.startCall('demo__connect_account', {});
    started.push({ client: a, tab, id });
    await tab.waitForPermission(id);
    await answerPermission(a, id, 'allow_once');
    const question = await tab.waitForElicitation(id);
    expect(question).toMatchObject({
      mode: 'url',
      url: { host: 'example.com', https: true, warnings: [] },
      serverElicitationId: expect.any(String),
    });

    expectApiError(
      await b.post(`/api/elicitations/${question.id}`, { answer: { action: 'accept' } }),
      404,
      'not_found',
    );
    expectApiError(await b.post(`/api/elicitations/${question.id}/done`), 404, 'not_found');
    expect(await a.post(`/api/elicitations/${question.id}`, { answer: { action: 'accept' } })).toMatchObject({
      status: 200,
    });
    await tab.waitFor(
      (e) => e.event === 'elicitation.completed' && (e.data as { id: string }).id === question.id,
      'the URL flow completing',
    );
    const end = await tab.waitForEnd(id);
    expect(end.invocation.state).toBe('success');
    expect(screenText(end.result)).toBe(`Account connected: the user accepted and opened ${question.url?.url}.`);
    // Completed already: "done, retry" has nothing left to complete.
    expectApiError(await a.post(`/api/elicitations/${question.id}/done`), 404, 'not_found');
    expectApiError(
      await a.post(`/api/elicitations/${question.id}`, { answer: { action: 'accept' } }),
      409,
      'already_answered',
    );
  });

  it('closes the open question with cancel when its user switches workspace', async () => {
    const name = userId('switcher');
    const switching = await tc.signIn(name);
    const staying = await tc.signIn(name);
    const switchingTab = await tc.open(switching);
    const stayingTab = await tc.open(staying);
    const { id, question } = await askUser(switching, switchingTab);

    expect(await switching.post('/api/session/workspace', { workspaceId: 'other' })).toMatchObject({
      status: 200,
      body: { workspaceId: 'other', closedQuestions: 1 },
    });
    const closed = await switchingTab.waitFor(
      (e) => e.event === 'elicitation.closed' && (e.data as { id: string }).id === question.id,
      'the question closing',
    );
    expect(closed.data).toEqual({ id: question.id, action: 'cancel', end: 'workspace_switch' });
    await switchingTab.waitFor((e) => e.event === 'session.workspace', 'the workspace switch');
    expect(switchingTab.events.find((e) => e.event === 'session.workspace')?.data).toEqual({ workspaceId: 'other' });

    // The call ends with the server told the user cancelled; the session still in "default" sees it.
    const end = await stayingTab.waitForEnd(id);
    expect(end.invocation.state).toBe('success');
    expect(screenText(end.result)).toBe('The user answered the form with action "cancel" and no content.');
    expect(await switching.get('/api/session')).toMatchObject({ body: { userId: name, workspaceId: 'other' } });
    expectApiError(await switching.get(`/api/invocations/${id}`), 404, 'not_found');
    expectApiError(
      await staying.post(`/api/elicitations/${question.id}`, { answer: { action: 'accept', content: { name: 'x' } } }),
      409,
      'already_answered',
    );
  });
});

describe('retention and the seed export over the API', () => {
  let tc: TestConsole;
  /** The console's clock: time moves only when the test says. */
  const clock = new FakeClock();
  beforeAll(async () => {
    // Whole results kept a tiny window (86 µs): a call's whole text ages out once the clock moves a millisecond.
    tc = await startTestConsole({ results: 1e-9 }, clock);
  });
  afterAll(async () => {
    await tc.close();
  });

  /** Runs demo__echo for `client`, allowed once, and waits for it to end. */
  async function echo(client: ConsoleClient, text: string): Promise<string> {
    const tab = await tc.open(client);
    const id = await client.startCall('demo__echo', { text });
    await tab.waitForPermission(id);
    await answerPermission(client, id, 'allow_once');
    await tab.waitForEnd(id);
    return id;
  }

  it('exports the decisions in the seed schema with format=seed; NDJSON of every event stays the default', async () => {
    const a = await tc.signIn(userId('seed'));
    await echo(a, `seed ${a.userId}`);
    const seed = await a.get('/api/audit/export?format=seed');
    expect(seed.status).toBe(200);
    expect(seed.headers.get('content-disposition')).toBe('attachment; filename="airlock-audit-default.seed.ndjson"');
    const lines = String(seed.body)
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([
      {
        event_type: 'mcp.permission.decision',
        decision: 'ALLOW_ONCE',
        koder_user_id: a.userId,
        workspace_id: 'default',
        server_id: 'demo',
        tool_name: 'demo__echo',
        args_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        risk_tier: expect.stringMatching(/^(low|medium|high)$/),
        timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        origin: 'user_prompt',
      },
    ]);
    const ndjson = await a.get('/api/audit/export');
    expect(ndjson.headers.get('content-disposition')).toBe('attachment; filename="airlock-audit-default.ndjson"');
    expect(String(ndjson.body)).toContain('"type":"invocation.transition"');
    expectApiError(await a.get('/api/audit/export?format=csv'), 400, 'invalid_request');
  });

  it('answers 410 result_expired, with the date, for a result whose whole text the retention sweep removed', async () => {
    const a = await tc.signIn(userId('expired'));
    const text = `expires ${a.userId}`;
    const id = await echo(a, text);
    const kept = await a.get(`/api/invocations/${id}/full`);
    expect((kept.body as { text: string }).text).toContain(text);
    clock.advance(1);
    expect((await tc.running.host.retention.sweep()).results).toBeGreaterThanOrEqual(1);
    const gone = await a.get(`/api/invocations/${id}/full`);
    expect(gone).toMatchObject({ status: 410, body: { error: { code: 'result_expired', invocationId: id } } });
    const error = (gone.body as { error: { message: string; expiredAt: unknown } }).error;
    expect(typeof error.expiredAt).toBe('number');
    expect(error.message).toBe(
      `the whole result of invocation ${id} was removed on ${new Date(error.expiredAt as number).toISOString()} ` +
        'by the retention policy; what the model was given is kept',
    );
    // What the model was given stays with the card.
    const card = await a.get(`/api/invocations/${id}`);
    expect(screenText((card.body as { result?: Parameters<typeof screenText>[0] }).result)).toBe(text);
  });
});

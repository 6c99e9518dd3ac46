import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import { createHost } from '@airlock/core';
import type { Host, Scope } from '@airlock/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KitEventMap, KitEventName, KitServer } from './index.js';
import { createWebKit } from './index.js';

// The server part over a real host on the demo server (stdio), served on loopback by Node's http server through
// @hono/node-server, read by a streaming fetch as a page's EventSource would.

const DEMO_BIN = fileURLToPath(new URL('bin.js', import.meta.resolve('@airlock/demo-server')));
/** Requests name their user in a header here; an app takes it from its own session. */
const SCOPES: Record<string, Scope> = {
  ana: { userId: 'ana', workspaceId: 'w1', conversationId: 'c1' },
  bo: { userId: 'bo', workspaceId: 'w1', conversationId: 'c1' },
};

let host: Host;
let kit: KitServer;
let http: ServerType;
let base: string;
let dir: string;

/** What reached the demo server's tools (its call log), line by line. */
const calls = (): unknown[] => {
  try {
    return readFileSync(join(dir, 'calls.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as unknown);
  } catch {
    return [];
  }
};

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'web-kit-'));
  const webKit = createWebKit({ scopeOf: (request) => SCOPES[request.headers.get('x-user') ?? ''] });
  host = createHost({
    servers: {
      mcpServers: {
        demo: {
          command: process.execPath,
          args: [DEMO_BIN],
          env: { AIRLOCK_DEMO_CALL_LOG: join(dir, 'calls.jsonl') },
        },
      },
    },
    surface: webKit.surface,
  });
  await host.servers.settled();
  kit = webKit.serve(host);
  http = serve({ fetch: kit.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((ready) => http.once('listening', ready));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterEach(async () => {
  kit.close();
  await new Promise<void>((done) => http.close(() => done()));
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One user's event stream: every event in order, and a way to wait for the next one of a name. */
async function events(user: string) {
  const controller = new AbortController();
  const response = await fetch(`${base}/events`, { headers: { 'x-user': user }, signal: controller.signal });
  expect(response.status).toBe(200);
  const seen: { event: KitEventName; data: unknown }[] = [];
  const waiting: (() => void)[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      const reader = response.body!.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event !== undefined && data !== undefined)
            seen.push({ event: event as KitEventName, data: JSON.parse(data) });
          for (const wake of waiting.splice(0)) wake();
        }
      }
    } catch {
      // aborted by the test
    }
  })();
  return {
    seen,
    /** The next unread event named `name` (each is returned once). */
    async next<E extends KitEventName>(name: E, where: (data: KitEventMap[E]) => boolean = () => true) {
      for (;;) {
        const index = seen.findIndex((e) => e.event === name && where(e.data as KitEventMap[E]));
        if (index >= 0) return seen.splice(index, 1)[0]!.data as KitEventMap[E];
        await new Promise<void>((wake) => waiting.push(wake));
      }
    },
    close: () => controller.abort(),
  };
}

const post = (path: string, user: string, body: unknown) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'x-user': user, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('the web kit, server part', () => {
  it('shows a call to its user, asks, and runs it on the answer from the page', async () => {
    const ana = await events('ana');
    expect(await ana.next('state')).toEqual({ calls: [], permissions: [], elicitations: [] });
    const result = kit.invoke({
      scope: SCOPES['ana']!,
      caller: { kind: 'user' },
      tool: 'demo__echo',
      args: { text: 'hi' },
    });
    const asked = await ana.next('permission.requested');
    expect(asked).toMatchObject({ tool: { name: 'demo__echo' }, args: { text: 'hi' } });
    const pending = await ana.next('call');
    expect(pending).toMatchObject({
      invocation: { state: 'pending', tool: 'demo__echo' },
      tool: { name: 'demo__echo' },
      server: { id: 'demo', trusted: false },
    });

    expect((await post(`/permissions/${asked.invocationId}`, 'ana', { decision: 'allow_once' })).status).toBe(200);
    expect(await ana.next('permission.closed')).toEqual({ id: asked.invocationId, decision: 'allow_once' });
    expect((await result).outcome).toBe('success');
    const ended = await ana.next('call', (call) => call.invocation.state === 'success');
    expect(ended.screen).toBeDefined();
    ana.close();
  });

  it("never shows one user another's calls or questions, nor lets them answer", async () => {
    const bo = await events('bo');
    await bo.next('state');
    const ana = await events('ana');
    await ana.next('state');
    const result = kit.invoke({
      scope: SCOPES['ana']!,
      caller: { kind: 'user' },
      tool: 'demo__echo',
      args: { text: 'mine' },
    });
    const asked = await ana.next('permission.requested');

    const foreign = await post(`/permissions/${asked.invocationId}`, 'bo', { decision: 'allow_always' });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({
      error: { code: 'not_found', message: `no open permission question ${asked.invocationId}` },
    });
    await post(`/permissions/${asked.invocationId}`, 'ana', { decision: 'deny_once' });
    expect((await result).outcome).toBe('permission_denied');
    await ana.next('call', (call) => call.invocation.outcome === 'permission_denied');
    expect(bo.seen).toEqual([]);
    ana.close();
    bo.close();
  });

  it('opens a new page on what is still open: the running call and its question', async () => {
    const first = await events('ana');
    await first.next('state');
    const result = kit.invoke({
      scope: SCOPES['ana']!,
      caller: { kind: 'user' },
      tool: 'demo__echo',
      args: { text: 'later' },
    });
    await first.next('permission.requested');
    await first.next('call');
    const reloaded = await events('ana');
    const state = await reloaded.next('state');
    expect(state.permissions.map((p) => p.args)).toEqual([{ text: 'later' }]);
    expect(state.calls.map((c) => c.invocation.state)).toEqual(['pending']);
    await post(`/permissions/${state.permissions[0]!.invocationId}`, 'ana', { decision: 'allow_once' });
    expect((await result).outcome).toBe('success');
    // A page that comes back after the call ended learns how it ended, to close its card.
    const back = await events('ana');
    expect((await back.next('state')).calls.map((c) => c.invocation.state)).toEqual(['success']);
    first.close();
    reloaded.close();
    back.close();
  });

  it("takes a form answer for a server's question through the host, which checks it", async () => {
    const ana = await events('ana');
    await ana.next('state');
    const result = kit.invoke({ scope: SCOPES['ana']!, caller: { kind: 'user' }, tool: 'demo__ask_user', args: {} });
    const asked = await ana.next('permission.requested');
    await post(`/permissions/${asked.invocationId}`, 'ana', { decision: 'allow_once' });
    const question = await ana.next('elicitation.requested');

    const wrong = await post(`/elicitations/${question.id}`, 'ana', {
      answer: { action: 'accept', content: { age: 'x' } },
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()) as unknown).toMatchObject({ error: { code: 'invalid_arguments' } });
    expect((await post(`/elicitations/${question.id}`, 'bo', { answer: { action: 'decline' } })).status).toBe(404);

    const right = await post(`/elicitations/${question.id}`, 'ana', {
      answer: { action: 'accept', content: { name: 'Ana', age: 30 } },
    });
    expect(right.status).toBe(200);
    expect(await ana.next('elicitation.closed')).toEqual({ id: question.id });
    expect((await result).outcome).toBe('success');
    expect(JSON.stringify((await result).content)).toContain('Ana');
    // Another tab's answer, sent after this one: told it came too late, not that there was no such question.
    const late = await post(`/elicitations/${question.id}`, 'ana', { answer: { action: 'decline' } });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ error: { code: 'already_answered' } });
    ana.close();
  });

  it('cancels a running call when the page asks (the server is told), not an ended one nor another user’s', async () => {
    const ana = await events('ana');
    await ana.next('state');
    const result = kit.invoke({ scope: SCOPES['ana']!, caller: { kind: 'user' }, tool: 'demo__hang', args: {} });
    const asked = await ana.next('permission.requested');
    await post(`/permissions/${asked.invocationId}`, 'ana', { decision: 'allow_once' });
    await ana.next('call', (call) => call.invocation.state === 'running');

    const foreign = await post(`/calls/${asked.invocationId}/cancel`, 'bo', {});
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ error: { code: 'not_found' } });
    expect((await post(`/calls/${asked.invocationId}/cancel`, 'ana', {})).status).toBe(202);
    expect((await result).outcome).toBe('cancelled');
    // The server heard the cancel: its handler's signal fired.
    await expect.poll(() => calls()).toContainEqual({ event: 'cancelled', tool: 'hang' });
    const again = await post(`/calls/${asked.invocationId}/cancel`, 'ana', {});
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({
      error: { code: 'not_running', message: `invocation ${asked.invocationId} has already ended (cancelled)` },
    });
    ana.close();
  });

  it('refuses to cancel a running call nobody here can stop (not started through the kit)', async () => {
    const ana = await events('ana');
    await ana.next('state');
    // Started by the app's own code, which holds its only abort signal.
    const starter = new AbortController();
    const result = host.invoke({
      scope: SCOPES['ana']!,
      caller: { kind: 'user' },
      tool: 'demo__hang',
      args: {},
      signal: starter.signal,
    });
    const asked = await ana.next('permission.requested');
    await post(`/permissions/${asked.invocationId}`, 'ana', { decision: 'allow_once' });
    await ana.next('call', (call) => call.invocation.state === 'running');

    const refused = await post(`/calls/${asked.invocationId}/cancel`, 'ana', {});
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: { code: 'not_cancellable' } });
    starter.abort();
    expect((await result).outcome).toBe('cancelled');
    ana.close();
  });

  it('refuses a request with no user, a body not a JSON object, a decision not of the four, a huge or non-JSON body', async () => {
    expect((await fetch(`${base}/events`)).status).toBe(401);
    const notJson = await post('/permissions/x', 'ana', 'not json');
    expect(await notJson.json()).toEqual({
      error: { code: 'bad_json', message: expect.stringMatching(/^the body is not valid JSON: /) as string },
    });
    const odd = await post('/permissions/x', 'ana', { decision: 'maybe' });
    expect(odd.status).toBe(400);
    expect(((await odd.json()) as { error: { message: string } }).error.message).toMatch(
      /^decision must be one of allow_once/,
    );
    const huge = await post('/elicitations/x', 'ana', { answer: 'x'.repeat(300_000) });
    expect(huge.status).toBe(413);
    // A form post from another site (text/plain needs no preflight) is not taken as a decision.
    const form = await fetch(`${base}/permissions/x`, {
      method: 'POST',
      headers: { 'x-user': 'ana', 'content-type': 'text/plain' },
      body: JSON.stringify({ decision: 'allow_always' }),
    });
    expect(form.status).toBe(415);
  });
});

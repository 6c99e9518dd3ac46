import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { Surface } from '../host/surface.js';
import type { ElicitationAnswer, ElicitationMode, ElicitationRequest } from './elicitation-request.js';
import { FakeClock } from '../testing/fake-clock.js';
import type { AuditEventInput } from '../store/audit-record.js';
import type { InvocationRecord } from '../store/invocation-record.js';
import { ElicitationBroker } from './elicitation-broker.js';
import { demoServer, nextEvent, readCallLog, SCOPE, startHttpDemo } from '../testing/demo-fixture.js';

let hosts: Host[] = [];
let stops: (() => void)[] = [];
afterEach(async () => {
  for (const h of hosts) await h.close();
  hosts = [];
  for (const stop of stops) stop();
  stops = [];
});

/** A surface that allows every call and hands each question to the test, which answers it when it likes. */
class Asked implements Surface {
  readonly elicitationModes: readonly ElicitationMode[];
  readonly questions: { request: ElicitationRequest; signal: AbortSignal; answer: (a: ElicitationAnswer) => void }[] =
    [];
  #waiters: ((q: Asked['questions'][number]) => void)[] = [];
  constructor(modes: readonly ElicitationMode[] = ['form', 'url']) {
    this.elicitationModes = modes;
  }
  askPermission() {
    return Promise.resolve('allow_once' as const);
  }
  elicit(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
    return new Promise((answer) => {
      const question = { request, signal, answer };
      this.questions.push(question);
      this.#waiters.shift()?.(question);
    });
  }
  /** The next question (already asked, or the one to come). */
  next(): Promise<Asked['questions'][number]> {
    const unanswered = this.questions[this.#taken];
    if (unanswered !== undefined) {
      this.#taken += 1;
      return Promise.resolve(unanswered);
    }
    return new Promise((resolve) =>
      this.#waiters.push((q) => {
        this.#taken += 1;
        resolve(q);
      }),
    );
  }
  #taken = 0;
}

const ERAS = [
  ['2025-11-25', 'legacy'],
  ['2026-07-28', 'auto'],
] as const;

async function start(
  negotiation: 'legacy' | 'auto',
  surface: Surface = new Asked(),
  options: { clock?: FakeClock } = {},
) {
  const demo = demoServer('demo', { negotiation });
  const host = createHost({ servers: [demo.config], surface, ...(options.clock ? { clock: options.clock } : {}) });
  hosts.push(host);
  await host.servers.settled();
  expect(host.servers.list()[0]?.protocolVersion).toBe(negotiation === 'legacy' ? '2025-11-25' : '2026-07-28');
  return { host, log: demo.log };
}

const ask = (host: Host, tool = 'demo__ask_user', scope = SCOPE, signal?: AbortSignal) =>
  host.invoke({ scope, caller: { kind: 'model' }, tool, args: {}, ...(signal ? { signal } : {}) });

describe.each(ERAS)('elicitation in the %s era', (_era, negotiation) => {
  it('T1 shows a form with its two fields, tied to the call that asked', async () => {
    const surface = new Asked();
    const { host } = await start(negotiation, surface);
    const call = ask(host);
    const { request, answer } = await surface.next();
    expect(request.mode).toBe('form');
    expect(request.scope).toEqual(SCOPE);
    expect(request.tool).toBe('demo__ask_user');
    expect(request.form?.model.fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['name', 'text', true],
      ['age', 'number', false],
    ]);
    expect(host.elicitations.pending({ scope: SCOPE }).map((r) => r.id)).toEqual([request.id]);
    expect(host.elicitations.pending({ scope: { ...SCOPE, userId: 'bob' } })).toEqual([]);
    answer({ action: 'cancel' });
    expect((await call).outcome).toBe('success');
  });

  it('T2 never sends an answer that misses a required field: the surface is asked again with the error', async () => {
    const surface = new Asked();
    const { host } = await start(negotiation, surface);
    const call = ask(host);
    (await surface.next()).answer({ action: 'accept', content: { age: 30 } });
    const again = await surface.next();
    expect(again.request.errors?.['name']).toMatch(/required/i);
    again.answer({ action: 'accept', content: { name: 'Ana', age: 30 } });
    const result = await call;
    expect(result.text).toContain('action "accept" and content {"name":"Ana","age":30}');
  });

  it('T3 sends accepted values, validated, through respond() from another channel as well', async () => {
    const surface = new Asked();
    const { host } = await start(negotiation, surface);
    const call = ask(host);
    const { request } = await surface.next();
    expect(() =>
      host.elicitations.respond({
        scope: SCOPE,
        id: request.id,
        answer: { action: 'accept', content: { name: 'Ana', age: 'old' } },
      }),
    ).toThrow(/age/);
    expect(() =>
      host.elicitations.respond({
        scope: { ...SCOPE, workspaceId: 'w2' },
        id: request.id,
        answer: { action: 'cancel' },
      }),
    ).toThrow(/no open question/);
    host.elicitations.respond({ scope: SCOPE, id: request.id, answer: { action: 'accept', content: { name: 'Ana' } } });
    expect((await call).text).toContain('action "accept" and content {"name":"Ana"}');
  });

  it('T4 declines: the server hears decline, and the audit records it without any values', async () => {
    const surface = new Asked();
    const { host } = await start(negotiation, surface);
    const call = ask(host);
    (await surface.next()).answer({ action: 'decline', reason: 'not today' });
    expect((await call).text).toContain('action "decline"');
    const [event] = await host.audit.query({ scope: SCOPE, type: 'elicitation' });
    expect(event?.data).toMatchObject({
      mode: 'form',
      action: 'decline',
      end: 'answered',
      fieldsFilled: [],
      reason: 'not today',
    });
  });

  it('T5 cancels (Esc): the server hears cancel', async () => {
    const surface = new Asked();
    const { host } = await start(negotiation, surface);
    const call = ask(host);
    (await surface.next()).answer({ action: 'cancel' });
    expect((await call).text).toContain('action "cancel"');
  });

  it('T6 shows a URL question with its full URL and host, and the server hears accept only on consent', async () => {
    const surface = new Asked();
    const { host } = await start(negotiation, surface);
    const completed = negotiation === 'legacy' ? nextEvent(host, 'elicitation.completed') : undefined;
    const call = ask(host, 'demo__connect_account');
    const { request, answer } = await surface.next();
    expect(request.mode).toBe('url');
    expect(request.url).toMatchObject({ host: 'example.com', https: true, punycode: false, warnings: [] });
    expect(request.url?.url).toMatch(/^https:\/\/example\.com\/connect\?session=/);
    answer({ action: 'accept' });
    expect((await call).text).toMatch(/Account connected: the user accepted and opened https:\/\/example\.com/);
    if (completed !== undefined) {
      const done = await completed;
      expect(done.scope).toEqual(SCOPE);
      // The question carried the server's flow id, so a surface can offer "done, retry" for exactly this flow.
      expect(done.elicitationId).toBe(request.serverElicitationId);
    }
  });

  it('T7 closes a question nobody answers after 5 minutes on the clock, and the server hears cancel', async () => {
    const clock = new FakeClock();
    const surface = new Asked();
    const { host } = await start(negotiation, surface, { clock });
    const call = ask(host);
    const { request, signal } = await surface.next();
    expect(request.deadline - request.createdAt).toBe(5 * 60_000);
    const closed = nextEvent(host, 'elicitation.closed');
    clock.advance(4 * 60_000);
    expect(signal.aborted).toBe(false);
    clock.advance(60_000);
    expect(signal.aborted).toBe(true);
    expect((await closed).end).toBe('timeout');
    expect((await call).text).toContain('action "cancel"');
  });

  it('T8 closes the question when the call ends, and nothing is submitted afterwards', async () => {
    const surface = new Asked();
    const { host } = await start(negotiation, surface);
    const controller = new AbortController();
    const call = ask(host, 'demo__ask_user', SCOPE, controller.signal);
    const { request, signal, answer } = await surface.next();
    controller.abort();
    expect((await call).outcome).toBe('cancelled');
    expect(signal.aborted).toBe(true);
    answer({ action: 'accept', content: { name: 'late' } });
    expect(() => host.elicitations.respond({ scope: SCOPE, id: request.id, answer: { action: 'cancel' } })).toThrow(
      /no open question/,
    );
  });

  it('T9 dismisses the previous workspace\u2019s question when the user switches workspace', async () => {
    const surface = new Asked();
    const { host } = await start(negotiation, surface);
    const call = ask(host);
    const { signal } = await surface.next();
    const closed = nextEvent(host, 'elicitation.closed');
    // Moving to the workspace one is in, or leaving a workspace the question is not in, closes nothing.
    const here = SCOPE.workspaceId;
    expect(host.elicitations.switchWorkspace({ userId: SCOPE.userId, workspaceId: here, from: here })).toBe(0);
    expect(host.elicitations.switchWorkspace({ userId: SCOPE.userId, workspaceId: 'w2', from: 'w3' })).toBe(0);
    expect(signal.aborted).toBe(false);
    expect(host.elicitations.switchWorkspace({ userId: SCOPE.userId, workspaceId: 'w2', from: here })).toBe(1);
    expect((await closed).end).toBe('workspace_switch');
    expect(signal.aborted).toBe(true);
    expect((await call).text).toContain('action "cancel"');
  });
});

describe('elicitation, 2025 specifics and capability', () => {
  it('closes the question when the server cancels it', async () => {
    const surface = new Asked();
    const { host } = await start('legacy', surface);
    const closed = nextEvent(host, 'elicitation.closed');
    const call = host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'demo__ask_briefly',
      args: { timeoutMs: 200 },
    });
    const { signal } = await surface.next();
    expect((await closed).end).toBe('server_cancelled');
    expect(signal.aborted).toBe(true);
    expect((await call).text).toMatch(/The server stopped waiting/);
  });

  it('completes a -32042 URL flow and retries the call', async () => {
    const surface = new Asked();
    const { host, log } = await start('legacy', surface);
    const call = host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'demo__connect_required', args: {} });
    const { request, answer } = await surface.next();
    expect(request.url?.host).toBe('example.com');
    answer({ action: 'accept' });
    const result = await call;
    expect(result.outcome).toBe('success');
    expect(result.text).toMatch(/Connected: the call went through after the URL flow/);
    expect(readCallLog(log).filter((l) => l.tool === 'connect_required')).toHaveLength(2);
  });

  it('declares no elicitation capability without a surface that can answer, so servers are told truthfully', async () => {
    const demo = demoServer();
    const host = createHost({
      servers: [demo.config],
      surface: { askPermission: () => Promise.resolve('allow_once') },
    });
    hosts.push(host);
    await host.servers.settled();
    const result = await ask(host);
    expect(result.isError).toBe(true);
    expect(result.text).not.toContain('action "decline"');
  });

  it('refuses URL questions when the surface answers forms only', async () => {
    const surface = new Asked(['form']);
    const { host } = await start('legacy', surface);
    const result = await ask(host, 'demo__connect_account');
    expect(surface.questions).toEqual([]);
    expect(result.text).not.toMatch(/Account connected/);
  });

  it('declines a form outside the MCP subset without asking, and keeps the reason in the audit log', async () => {
    const surface = new Asked();
    const audits: AuditEventInput[] = [];
    const broker = new ElicitationBroker({
      surface,
      clock: new FakeClock(),
      timeoutMs: () => 60_000,
      events: {
        requested: () => undefined,
        closed: () => undefined,
        completed: () => undefined,
        audit: (e) => audits.push(e),
      },
    });
    const invocation = { id: 'i1', scope: SCOPE, serverId: 's', tool: 's__t' } as InvocationRecord;
    const nested = {
      mode: 'form' as const,
      message: 'address?',
      requestedSchema: { type: 'object', properties: { address: { type: 'object', properties: {} } } },
    };
    const result = await broker.around(
      { serverId: 's', scope: SCOPE, invocation, signal: new AbortController().signal, hold: () => () => undefined },
      () =>
        broker.handler('s')({ method: 'elicitation/create', params: nested } as never, {
          mcpReq: { signal: new AbortController().signal },
        }),
    );
    expect(result).toEqual({ action: 'decline' });
    expect(surface.questions).toEqual([]);
    expect(audits[0]?.data).toMatchObject({
      action: 'decline',
      end: 'invalid_request',
      reason: expect.stringMatching(/outside what MCP forms allow.*address/),
    });
  });
});

describe('which call a 2025 question belongs to, with calls of two users in flight on one server', () => {
  const BO = { userId: 'bo', workspaceId: 'w2', conversationId: 'c2' } as const;

  /** Starts ana's call and waits for its question, then starts bo's call on the same server. */
  async function twoUsers(host: Host, tool: string, surface: Asked) {
    const ids: Record<string, string> = {};
    const call = (scope: typeof SCOPE | typeof BO) =>
      host.invoke({
        scope,
        caller: { kind: 'model' },
        tool,
        args: {},
        onRecorded: (record) => (ids[scope.userId] = record.id),
      });
    const ana = call(SCOPE);
    const first = await surface.next();
    const bo = call(BO);
    return { ana, bo, first, ids };
  }

  it("ties each question to its own call over HTTP, where it comes on that call's response stream", async () => {
    const demo = demoServer('web');
    const http = await startHttpDemo(demo.log);
    stops.push(http.stop);
    const surface = new Asked();
    const host = createHost({ servers: { mcpServers: { web: { url: http.url } } }, surface });
    hosts.push(host);
    await host.servers.settled();
    const { ana, bo, first, ids } = await twoUsers(host, 'web__ask_user', surface);
    const second = await surface.next();
    expect(first.request).toMatchObject({ scope: SCOPE, invocationId: ids['ana'] });
    expect(second.request).toMatchObject({ scope: BO, invocationId: ids['bo'] });
    first.answer({ action: 'decline' });
    second.answer({ action: 'decline' });
    for (const result of [await ana, await bo]) expect(result.text).toMatch(/action "decline"/);
  });

  it('refuses to guess over stdio, where the question carries no link to a call, and asks nobody', async () => {
    const surface = new Asked();
    const { host } = await start('legacy', surface);
    const { ana, bo, first, ids } = await twoUsers(host, 'demo__ask_user', surface);
    expect(first.request).toMatchObject({ scope: SCOPE, invocationId: ids['ana'] });
    const refused = await bo;
    expect(refused.isError).toBe(true);
    expect(surface.questions).toHaveLength(1);
    first.answer({ action: 'decline' });
    expect((await ana).text).toMatch(/action "decline"/);
  });
});

import { createHost, MemoryStore } from '@airlock/core';
import type { Host, PermissionRequest, Scope } from '@airlock/core';
import { afterEach, describe, expect, it } from 'vitest';
import { postJson, readEvents, serveOnLoopback } from './event-reader-fixture.js';
import type { KitQuestionBus, KitServer, KitSessions, WebKitOptions } from './index.js';
import { createWebKit, memoryQuestionBus } from './index.js';

// What an app with several instances, its own sessions and its own events needs of the kit: each instance here is a
// host with the kit's surface, served on loopback by Node's http server, and its pages read the stream over fetch.

const ANA: Scope = { userId: 'ana', workspaceId: 'w1', conversationId: 'c1' };
const BO: Scope = { userId: 'bo', workspaceId: 'w1', conversationId: 'c1' };
const USERS: Record<string, Scope> = { ana: ANA, bo: BO };

/** Native tools, asked each time: lookup answers at once; wait runs until it is cancelled. */

const lookup = {
  name: 'lookup',
  inputSchema: { type: 'object' as const },
  run: () => Promise.resolve({ content: [{ type: 'text' as const, text: 'found' }] }),
};
const wait = {
  name: 'wait',
  inputSchema: { type: 'object' as const },
  run: (_args: unknown, context: { signal: AbortSignal }) =>
    new Promise<never>((_resolve, reject) =>
      context.signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true }),
    ),
};

interface Instance {
  readonly host: Host;
  readonly kit: KitServer<{ 'chat.line': { text: string } }>;
  readonly base: string;
}

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** One instance of the app; instances that share a bus share one history (`store`), as an app's instances do. */
async function instance(options: WebKitOptions, store = new MemoryStore()): Promise<Instance> {
  const webKit = createWebKit<{ 'chat.line': { text: string } }>(options);
  const host = createHost({ store, surface: webKit.surface, tools: [lookup, wait] });
  const kit = webKit.serve(host);
  const served = await serveOnLoopback(kit.app as never);
  stops.push(async () => {
    kit.close();
    await served.stop();
    await host.close();
  });
  return { host, kit, base: served.base };
}

const byHeader = { scopeOf: (request: Request) => USERS[request.headers.get('x-user') ?? ''] };
const as = (user: string) => ({ 'x-user': user });

describe('the web kit across instances (a question bus)', () => {
  it("shows a question asked on one instance on another's pages, and the first answer from either runs the call", async () => {
    const questions: KitQuestionBus = memoryQuestionBus();
    const a = await instance({ ...byHeader, questions });
    const b = await instance({ ...byHeader, questions });
    const onB = await readEvents(`${b.base}/events`, as('ana'));
    await onB.next('state');

    const result = a.kit.invoke({ scope: ANA, caller: { kind: 'user' }, tool: 'lookup' });
    const asked = await onB.next<PermissionRequest>('permission.requested');
    expect(asked.tool.name).toBe('lookup');
    // Bo, in the same workspace, cannot answer Ana's question on either instance.
    expect(
      (await postJson(`${b.base}/permissions/${asked.invocationId}`, as('bo'), { decision: 'allow_once' })).status,
    ).toBe(404);

    const answer = await postJson(`${b.base}/permissions/${asked.invocationId}`, as('ana'), { decision: 'allow_once' });
    expect(answer.status).toBe(200);
    expect((await result).outcome).toBe('success');
    expect(await onB.next('permission.closed')).toEqual({ id: asked.invocationId, decision: 'allow_once' });

    const late = await postJson(`${a.base}/permissions/${asked.invocationId}`, as('ana'), { decision: 'deny_once' });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ error: { code: 'already_answered' } });
    onB.close();
  });

  it('opens a page on another instance on the questions open elsewhere', async () => {
    const questions = memoryQuestionBus();
    const a = await instance({ ...byHeader, questions });
    const b = await instance({ ...byHeader, questions });
    const onA = await readEvents(`${a.base}/events`, as('ana'));
    await onA.next('state');
    const result = a.kit.invoke({ scope: ANA, caller: { kind: 'user' }, tool: 'lookup' });
    const asked = await onA.next<PermissionRequest>('permission.requested');

    const onB = await readEvents(`${b.base}/events`, as('ana'));
    const state = await onB.next<{ permissions: PermissionRequest[] }>('state');
    expect(state.permissions.map((p) => p.invocationId)).toEqual([asked.invocationId]);
    await postJson(`${b.base}/permissions/${asked.invocationId}`, as('ana'), { decision: 'deny_once' });
    expect((await result).outcome).toBe('permission_denied');
    onA.close();
    onB.close();
  });

  it('cancels a call running on another instance from a page of this one', async () => {
    const questions = memoryQuestionBus();
    const history = new MemoryStore();
    const a = await instance({ ...byHeader, questions }, history);
    const b = await instance({ ...byHeader, questions }, history);
    const running = new Promise<string>((resolve) => {
      a.host.on('invocation.transition', ({ invocation }) => {
        if (invocation.state === 'running') resolve(invocation.id);
      });
    });
    const onB = await readEvents(`${b.base}/events`, as('ana'));
    await onB.next('state');
    const result = a.kit.invoke({ scope: ANA, caller: { kind: 'user' }, tool: 'wait' });
    const asked = await onB.next<PermissionRequest>('permission.requested');
    await postJson(`${b.base}/permissions/${asked.invocationId}`, as('ana'), { decision: 'allow_once' });
    const id = await running;

    expect((await postJson(`${b.base}/calls/${id}/cancel`, as('ana'), {})).status).toBe(202);
    expect((await result).outcome).toBe('cancelled');
    onB.close();
  });
});

describe('the web kit over the app’s sessions and events', () => {
  it('ends the streams of a session that ends, telling its pages, and refuses its requests after', async () => {
    const open = new Map<string, Scope>([['s-ana', ANA]]);
    const ended = new Set<(id: string) => void>();
    const sessions: KitSessions = {
      of: (request) => {
        const id = request.headers.get('x-session') ?? '';
        const scope = open.get(id);
        return scope === undefined ? undefined : { id, scope };
      },
      onEnded: (listener) => {
        ended.add(listener);
        return () => ended.delete(listener);
      },
    };
    const a = await instance({ sessions });
    const page = await readEvents(`${a.base}/events`, { 'x-session': 's-ana' });
    await page.next('state');

    open.delete('s-ana');
    for (const listener of ended) listener('s-ana');

    expect(await page.next('session.ended')).toEqual({});
    await page.ended;
    expect((await fetch(`${a.base}/events`, { headers: { 'x-session': 's-ana' } })).status).toBe(401);
  });

  it("carries the app's own events to its user's pages only, and refuses the kit's own names", async () => {
    const a = await instance(byHeader);
    const ana = await readEvents(`${a.base}/events`, as('ana'));
    const bo = await readEvents(`${a.base}/events`, as('bo'));
    await ana.next('state');
    await bo.next('state');

    a.kit.send(ANA, 'chat.line', { text: 'hello Ana' });

    expect(await ana.next('chat.line')).toEqual({ text: 'hello Ana' });
    expect(() => a.kit.send(ANA, 'state' as 'chat.line', { text: 'x' })).toThrow(
      /"state" is an event of the kit's own/,
    );
    // Bo's stream is still open and got nothing of Ana's: a later event of his own is the first he sees.
    a.kit.send(BO, 'chat.line', { text: 'hello Bo' });
    expect(await bo.next('chat.line')).toEqual({ text: 'hello Bo' });
    expect(bo.seen).toEqual([]);
    ana.close();
    bo.close();
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { HostConfig } from '../host/host-config.js';
import type { StoreWrite } from '../store/host-store.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import type { ToolProgress } from '../tools/tool.js';
import { demoServer, readCallLog, SCOPE, waitForLog } from '../testing/demo-fixture.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';

// Calls a rule or a stored decision settles at once are sent first and recorded right after: these tests hold that
// path to the same story as every other call (rows, events, audit order, progress, cancel, denial).

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

/** A memory store that counts its batches (its transactions). */
class CountingStore extends MemoryStore {
  batches = 0;
  override write(batch: readonly StoreWrite[]): Promise<void> {
    this.batches += 1;
    return super.write(batch);
  }
}

async function start(config: Partial<HostConfig> = {}) {
  const demo = demoServer();
  const surface = new ScriptedSurface('allow_once');
  host = createHost({ servers: [demo.config], surface, ...config });
  await host.servers.settled();
  await host.permissions.ready();
  return { host, surface, log: demo.log };
}

/**
 * Sends a call and finds it alone in the server's log: a barrier after which a call that was never sent cannot show
 * up late.
 */
async function expectNothingSentBefore(host: Host, log: string): Promise<void> {
  const after = await host.invoke({
    scope: SCOPE,
    caller: { kind: 'user' },
    tool: 'demo__slow_task',
    args: { steps: 1, stepMs: 1 },
  });
  expect(after.outcome).toBe('success');
  expect(readCallLog(log).map((line) => line.tool)).toEqual(['slow_task']);
}

const allowEcho = { rules: [{ effect: 'allow', tool: 'echo' }] };

describe('a call decided at once', () => {
  it('tells the same story as an asked call: events, rows and audit in order, the decision between pending and running', async () => {
    const { host, surface } = await start();
    await host.permissions.decide({ scope: SCOPE, tool: 'demo__echo', decision: 'allow_always' });
    const seen: string[] = [];
    host.on('invocation.transition', ({ invocation, from }) => seen.push(`${from ?? '∅'}>${invocation.state}`));
    host.on('permission.decided', ({ origin }) => seen.push(`decided:${origin}`));
    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'demo__echo',
      args: { text: 'hi' },
    });
    expect(result.outcome).toBe('success');
    expect(surface.requests).toHaveLength(0);
    // Everything is told by the time the caller has its result.
    expect(seen).toEqual(['∅>pending', 'decided:cache_hit', 'pending>running', 'running>success']);
    const entry = await host.history.get({ scope: SCOPE, invocationId: result.invocationId });
    expect(entry?.transitions.map((t) => t.to)).toEqual(['pending', 'running', 'success']);
    expect(entry?.invocation.argsHash).toMatch(/^[0-9a-f]{64}$/);
    const audit = await host.audit.query({ scope: SCOPE, invocationId: result.invocationId });
    expect(
      audit.map((e) => (e.type === 'permission.decision' ? `decision:${String(e.data['origin'])}` : e.data['to'])),
    ).toEqual(['pending', 'decision:cache_hit', 'running', 'success']);
    expect(audit.every((e) => e.argsHash === entry?.invocation.argsHash)).toBe(true);
    expect((await host.audit.verify()).ok).toBe(true);
  });

  it('still hands onRecorded the pending record within invoke, before it returns', async () => {
    const { host } = await start({ permissions: allowEcho });
    let recorded: string | undefined;
    const pending = host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'demo__echo',
      args: { text: 'hi' },
      onRecorded: (invocation) => (recorded = `${invocation.id} ${invocation.state}`),
    });
    // What a caller that wants the id at once (the console) relies on: no turn of the event loop in between.
    expect(recorded).toMatch(/ pending$/);
    const result = await pending;
    expect(recorded).toBe(`${result.invocationId} pending`);
    expect(result.outcome).toBe('success');
  });

  it('sends nothing when onRecorded cancels the call it was told of', async () => {
    const { host, log } = await start({ permissions: allowEcho });
    const controller = new AbortController();
    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'demo__echo',
      args: { text: 'hi' },
      signal: controller.signal,
      onRecorded: () => controller.abort(),
    });
    expect(result.outcome).toBe('cancelled');
    const entry = await host.history.get({ scope: SCOPE, invocationId: result.invocationId });
    expect(entry?.transitions.map((t) => t.to)).toEqual(['pending', 'cancelled']);
    await expectNothingSentBefore(host, log);
  });

  it('fails a call in flight with store_error when history stops taking writes, not with a bad transition', async () => {
    const store = new CountingStore();
    const { host } = await start({ store, permissions: allowEcho, limits: { commitIntervalMs: 0 } });
    const first = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'demo__echo',
      args: { text: '1' },
    });
    expect(first.outcome).toBe('success');
    // The first call's last row is still queued: its commit fails after the second call is sent and before that
    // call's own recording runs, so the second call ends with nothing recorded of it.
    store.write = () => Promise.reject(new Error('disk full'));
    const second = host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'demo__echo', args: { text: '2' } });
    await expect(second).rejects.toMatchObject({ code: 'store_error', message: expect.stringMatching(/disk full/) });
    await expect(
      host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'demo__echo', args: { text: '3' } }),
    ).rejects.toMatchObject({ code: 'store_error' });
  });

  it('never sends a call a rule denies, and records the denial', async () => {
    const { host, log, surface } = await start({ permissions: { rules: [{ effect: 'deny', tool: 'echo' }] } });
    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'demo__echo',
      args: { text: 'x' },
    });
    expect(result.outcome).toBe('permission_denied');
    expect(surface.requests).toHaveLength(0);
    const entry = await host.history.get({ scope: SCOPE, invocationId: result.invocationId });
    expect(entry?.transitions.map((t) => t.to)).toEqual(['pending', 'cancelled']);
    // The denied call never reached the server.
    await expectNothingSentBefore(host, log);
  });

  it('turns progress into events only after the running event', async () => {
    const { host } = await start({ permissions: { rules: [{ effect: 'allow', tool: 'slow_task' }] } });
    const seen: string[] = [];
    const progress: ToolProgress[] = [];
    host.on('invocation.transition', ({ invocation }) => seen.push(invocation.state));
    host.on('invocation.progress', (event) => {
      seen.push('progress');
      progress.push(event.progress);
    });
    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'demo__slow_task',
      args: { steps: 3, stepMs: 20 },
    });
    expect(result.outcome).toBe('success');
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
    expect(seen).toEqual(['pending', 'running', 'progress', 'progress', 'progress', 'success']);
  });

  it('cancels through the signal and tells the server', async () => {
    const { host, log } = await start({ permissions: { rules: [{ effect: 'allow', tool: 'hang' }] } });
    const controller = new AbortController();
    const pending = host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'demo__hang',
      signal: controller.signal,
    });
    await waitForLog(log, (line) => line.event === 'call' && line.tool === 'hang');
    controller.abort();
    const result = await pending;
    expect(result.outcome).toBe('cancelled');
    await waitForLog(log, (line) => line.event === 'cancelled' && line.tool === 'hang');
    const entry = await host.history.get({ scope: SCOPE, invocationId: result.invocationId });
    expect(entry?.transitions.map((t) => t.to)).toEqual(['pending', 'running', 'cancelled']);
  });
});

describe('grouped commits', () => {
  it('stores calls made within the commit interval in one transaction, and a reader never waits for it', async () => {
    const store = new CountingStore();
    const { host } = await start({ store, permissions: allowEcho, limits: { commitIntervalMs: 600_000 } });
    const first = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'demo__echo',
      args: { text: '1' },
    });
    const second = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'demo__echo',
      args: { text: '2' },
    });
    // Ten minutes between commits: without the reader, the second batch would still be waiting.
    const listed = await host.history.list({ scope: SCOPE });
    expect(listed.map((r) => [r.id, r.state])).toEqual([
      [second.invocationId, 'success'],
      [first.invocationId, 'success'],
    ]);
    // The first batch went at once; everything after it waited for the next commit, which the reader brought on.
    expect(store.batches).toBe(2);
  });

  it('refuses a commit interval that is not a number of milliseconds', () => {
    expect(() => createHost({ limits: { commitIntervalMs: -1 } })).toThrow(/commitIntervalMs/);
  });
});

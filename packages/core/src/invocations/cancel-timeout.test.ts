import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { ToolProgress, ToolRunContext } from '../tools/tool.js';
import type { NativeToolDefinition } from '../tools/tool-registry.js';
import { FakeClock } from '../testing/fake-clock.js';
import { demoServer, nextEvent, readCallLog, SCOPE, waitForLog } from '../testing/demo-fixture.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

/** A host on a fake clock: a call times out only when a test moves the clock, never while the test waits. */
async function start(limits = {}) {
  const demo = demoServer();
  const clock = new FakeClock();
  host = createHost({ servers: [demo.config], surface: new ScriptedSurface('allow_once'), limits, clock });
  await host.servers.settled();
  return { host, log: demo.log, clock };
}

/** Resolves once a call of `tool` is running on the host and has reached the demo server. */
async function callReached(host: Host, log: string, tool: string): Promise<void> {
  await nextEvent(host, 'invocation.transition', ({ invocation }) => invocation.state === 'running');
  await waitForLog(log, (line) => line.event === 'call' && line.tool === tool);
}

describe('cancel, timeout and progress', () => {
  it('cancels a running call through the signal and tells the server', async () => {
    const { host, log } = await start();
    const controller = new AbortController();
    const running = nextEvent(host, 'invocation.transition', ({ invocation }) => invocation.state === 'running');
    const pending = host.invoke({
      scope: SCOPE,
      caller: { kind: 'user' },
      tool: 'demo__hang',
      signal: controller.signal,
    });
    await running;
    await waitForLog(log, (line) => line.event === 'call' && line.tool === 'hang');
    controller.abort();
    const result = await pending;
    expect(result.outcome).toBe('cancelled');
    expect(result.state).toBe('cancelled');
    await waitForLog(log, (line) => line.event === 'cancelled' && line.tool === 'hang');
  });

  it('cancels before running without sending anything', async () => {
    const { host, log } = await start();
    const controller = new AbortController();
    controller.abort();
    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'user' },
      tool: 'demo__echo',
      args: { text: 'x' },
      signal: controller.signal,
    });
    expect(result.outcome).toBe('cancelled');
    const entry = await host.history.get({ scope: SCOPE, invocationId: result.invocationId });
    expect(entry?.transitions.map((t) => t.to)).toEqual(['pending', 'cancelled']);
    expect(readCallLog(log)).toEqual([]);
  });

  it('times a silent call out and tells the server', async () => {
    const { host, log, clock } = await start();
    const reached = callReached(host, log, 'hang');
    const pending = host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'demo__hang', timeoutMs: 300 });
    await reached;
    clock.advance(300);
    const result = await pending;
    expect(result.outcome).toBe('timeout');
    expect(result.state).toBe('error');
    expect(result.text).toMatch(/sent no result or progress for 300 ms/);
    await waitForLog(log, (line) => line.event === 'cancelled' && line.tool === 'hang');
  });

  it('applies a per-tool timeout from the host limits', async () => {
    const { host, log, clock } = await start({ tools: { demo__hang: { timeoutMs: 200 } } });
    const reached = callReached(host, log, 'hang');
    const pending = host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'demo__hang' });
    await reached;
    clock.advance(200);
    const result = await pending;
    expect(result.outcome).toBe('timeout');
    expect(result.error?.message).toMatch(/200 ms/);
  });

  it('turns progress notifications into events, and progress keeps a slow call alive past its idle timeout', async () => {
    const { host, clock } = await start();
    const progress: ToolProgress[] = [];
    // Each step takes 600 ms of the host's clock: 2.4 s in all, past the 700 ms idle timeout, but each step resets it.
    host.on('invocation.progress', (event) => {
      progress.push(event.progress);
      clock.advance(600);
    });
    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'demo__slow_task',
      args: { steps: 4, stepMs: 1 },
      timeoutMs: 700,
    });
    expect(result.outcome).toBe('success');
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3, 4]);
    expect(progress[0]).toMatchObject({ total: 4, message: 'step 1 of 4' });
  });

  it('stops at the ceiling however much progress arrives', async () => {
    const { host, log, clock } = await start({ maxTotalMs: 500 });
    // Every step resets the idle timeout and takes 100 ms of the host's clock: the fifth reaches the ceiling.
    host.on('invocation.progress', () => clock.advance(100));
    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'demo__slow_task',
      args: { steps: 50, stepMs: 20 },
    });
    expect(result.outcome).toBe('timeout');
    expect(result.error?.message).toMatch(/500 ms ceiling/);
    await waitForLog(log, (line) => line.event === 'cancelled' && line.tool === 'slow_task');
  });

  it('cancels only the call whose signal fired when calls reuse the signals of finished calls', async () => {
    const { host, log } = await start();
    // Finished calls hand their never-aborted signals back for reuse; the next calls take them. Calls made together
    // leave several behind.
    const done = await Promise.all(
      ['one', 'two', 'three'].map((text) =>
        host.invoke({ scope: SCOPE, caller: { kind: 'user' }, tool: 'demo__echo', args: { text } }),
      ),
    );
    expect(done.map((r) => r.outcome)).toEqual(['success', 'success', 'success']);
    const first = new AbortController();
    const second = new AbortController();
    const hang = (signal: AbortSignal) =>
      host.invoke({ scope: SCOPE, caller: { kind: 'user' }, tool: 'demo__hang', signal });
    const a = hang(first.signal);
    const b = hang(second.signal);
    let bSettled = false;
    void b.then(() => (bSettled = true));
    await waitForLog(log, () => readCallLog(log).filter((l) => l.event === 'call' && l.tool === 'hang').length === 2);
    first.abort();
    expect((await a).outcome).toBe('cancelled');
    // A call sent after the cancel is answered after the server has seen every earlier message: a barrier.
    const after = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'user' },
      tool: 'demo__echo',
      args: { text: 'x' },
    });
    expect(after.outcome).toBe('success');
    expect(readCallLog(log).filter((l) => l.event === 'cancelled')).toHaveLength(1);
    expect(bSettled).toBe(false);
    second.abort();
    expect((await b).outcome).toBe('cancelled');
    await waitForLog(log, () => readCallLog(log).filter((l) => l.event === 'cancelled').length === 2);
    // The aborted signals are not reused: a later call runs to its end.
    const last = await host.invoke({ scope: SCOPE, caller: { kind: 'user' }, tool: 'demo__echo', args: { text: 'y' } });
    expect(last.outcome).toBe('success');
  });
});

describe('two hosts in one process', () => {
  /** A native tool that answers only when its call is aborted. */
  const hang: NativeToolDefinition = {
    name: 'wait',
    inputSchema: { type: 'object' },
    run: (_args, { signal }) =>
      new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true }),
      ),
  };
  const echo: NativeToolDefinition = {
    name: 'echo',
    inputSchema: { type: 'object' },
    run: () => Promise.resolve({ content: [{ type: 'text', text: 'ok' }] }),
  };
  const hosts: Host[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
  });
  function nativeHost(clock: FakeClock): Host {
    const made = createHost({
      clock,
      tools: [hang, echo],
      permissions: { rules: [{ effect: 'allow', tool: '*' }] },
    });
    hosts.push(made);
    return made;
  }

  it("keeps each host's call timeouts on its own timer: time passing for one never times out the other's calls", async () => {
    const clockA = new FakeClock();
    const clockB = new FakeClock();
    const a = nativeHost(clockA);
    const b = nativeHost(clockB);
    const call = { scope: SCOPE, caller: { kind: 'model' }, tool: 'wait', timeoutMs: 1_000 } as const;
    const onA = a.invoke(call);
    const onB = b.invoke(call);
    let bSettled = false;
    void onB.then(() => (bSettled = true));
    clockA.advance(1_000);
    expect((await onA).outcome).toBe('timeout');
    // A call on B made after A's timeout and answered: anything A's timer did to B has happened by now.
    const barrier = await b.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'echo' });
    expect(barrier.outcome).toBe('success');
    expect(bSettled).toBe(false);
    clockB.advance(1_000);
    expect((await onB).outcome).toBe('timeout');
  });
});

describe("a native tool's signal", () => {
  it('is aborted, with the reason, when the tool first looks at it after its call timed out', async () => {
    const clock = new FakeClock();
    let context: ToolRunContext | undefined;
    const slow: NativeToolDefinition = {
      name: 'slow',
      inputSchema: { type: 'object' },
      run: (_args, ctx) => {
        context = ctx;
        return new Promise(() => undefined);
      },
    };
    const made = createHost({ clock, tools: [slow], permissions: { rules: [{ effect: 'allow', tool: '*' }] } });
    host = made;
    const pending = made.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'slow', timeoutMs: 500 });
    clock.advance(500);
    expect((await pending).outcome).toBe('timeout');
    expect(context?.signal.aborted).toBe(true);
    expect(context?.signal.reason).toBe('timeout');
  });

  it('tells a listener the tool added while running when its call is cancelled', async () => {
    const heard: unknown[] = [];
    const listening: NativeToolDefinition = {
      name: 'listening',
      inputSchema: { type: 'object' },
      run: (_args, ctx) =>
        new Promise((_resolve, reject) =>
          ctx.signal.addEventListener('abort', () => {
            heard.push(ctx.signal.reason);
            reject(new Error('stopped'));
          }),
        ),
    };
    const made = createHost({ tools: [listening], permissions: { rules: [{ effect: 'allow', tool: '*' }] } });
    host = made;
    const controller = new AbortController();
    const running = nextEvent(made, 'invocation.transition', ({ invocation }) => invocation.state === 'running');
    const pending = made.invoke({
      scope: SCOPE,
      caller: { kind: 'user' },
      tool: 'listening',
      signal: controller.signal,
    });
    await running;
    controller.abort();
    expect((await pending).outcome).toBe('cancelled');
    expect(heard).toEqual(['cancelled']);
  });
});

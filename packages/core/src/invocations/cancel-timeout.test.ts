import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host.js';
import type { Host } from '../host.js';
import type { ToolProgress } from '../tools/tool.js';
import { demoServer, nextEvent, readCallLog, ScriptedSurface, SCOPE, waitForLog } from '../testing/demo-fixture.js';

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

async function start(limits = {}) {
  const demo = demoServer();
  host = createHost({ servers: [demo.config], surface: new ScriptedSurface('allow_once'), limits });
  await host.servers.settled();
  return { host, log: demo.log };
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
    const { host, log } = await start();
    const result = await host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'demo__hang', timeoutMs: 300 });
    expect(result.outcome).toBe('timeout');
    expect(result.state).toBe('error');
    expect(result.text).toMatch(/sent no result or progress for 300 ms/);
    await waitForLog(log, (line) => line.event === 'cancelled' && line.tool === 'hang');
  });

  it('applies a per-tool timeout from the host limits', async () => {
    const { host } = await start({ tools: { demo__hang: { timeoutMs: 200 } } });
    const result = await host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'demo__hang' });
    expect(result.outcome).toBe('timeout');
    expect(result.error?.message).toMatch(/200 ms/);
  });

  it('turns progress notifications into events, and progress keeps a slow call alive past its idle timeout', async () => {
    const { host } = await start();
    const progress: ToolProgress[] = [];
    host.on('invocation.progress', (event) => progress.push(event.progress));
    // Four steps of 250 ms each: 1 s in all, past the 700 ms idle timeout, but each step resets it.
    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'demo__slow_task',
      args: { steps: 4, stepMs: 250 },
      timeoutMs: 700,
    });
    expect(result.outcome).toBe('success');
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3, 4]);
    expect(progress[0]).toMatchObject({ total: 4, message: 'step 1 of 4' });
  });

  it('stops at the ceiling however much progress arrives', async () => {
    const { host, log } = await start({ maxTotalMs: 500 });
    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'demo__slow_task',
      args: { steps: 50, stepMs: 50 },
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

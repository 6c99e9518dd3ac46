import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { InvocationTask } from '../store/invocation-task.js';
import type { Scope } from '../scope.js';
import type { ServerConfig } from '../servers/server-config.js';
import { SCOPE } from '../testing/demo-fixture.js';
import { FakeClock } from '../testing/fake-clock.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';
import { OPTIONAL_TOOL, REPORT_TOOL, startTaskServer } from '../../../../test/support/tasks/task-server.js';
import type { TaskServer } from '../../../../test/support/tasks/task-server.js';

// Tasks against a real 2025-11-25 task server over Streamable HTTP (test/support/tasks/task-server.ts), through the
// one path: each status a transition row and a stored handle, cancel reaching the server, and many tasks polled by
// one bounded poller per connection.

let host: Host | undefined;
let server: TaskServer | undefined;
afterEach(async () => {
  await host?.close();
  await server?.close();
  host = undefined;
  server = undefined;
});

function reports(url: string): ServerConfig {
  return { id: 'reports', transport: 'http', url, headers: {}, trusted: false, disabled: false };
}

function report(h: Host, topic: string, signal?: AbortSignal) {
  return h.invoke({
    scope: SCOPE,
    caller: { kind: 'model' },
    tool: `reports__${REPORT_TOOL}`,
    args: { topic },
    ...(signal === undefined ? {} : { signal }),
  });
}

describe('tasks on a Streamable HTTP server', () => {
  it('records the task status as a transition and stores the handle with the call until it completes', async () => {
    server = await startTaskServer({ completeAfterPolls: 2 });
    host = createHost({ servers: [reports(server.url)], surface: new ScriptedSurface('allow_once') });
    await host.servers.settled();
    const told: InvocationTask[] = [];
    host.on('task.updated', ({ task }) => told.push(task));
    const result = await report(host, 'tide pools');
    expect(result.outcome).toBe('success');
    expect(result.text).toContain('Report on tide pools');
    const entry = await host.history.get({ scope: SCOPE, invocationId: result.invocationId });
    expect(entry?.transitions.map((t) => t.to)).toEqual(['pending', 'running', 'working', 'success']);
    const stored = await host.tasks.get({ scope: SCOPE, invocationId: result.invocationId });
    expect(stored).toMatchObject({
      serverId: 'reports',
      taskId: server.created[0],
      era: '2025-11-25',
      pollIntervalMs: 250,
      status: 'completed',
    });
    expect(told.map((t) => t.statusMessage)).toContain('Writing the report');
    expect(await host.tasks.list({ scope: SCOPE })).toEqual([]);
    expect(
      await host.tasks.get({ scope: { ...SCOPE, userId: 'someone-else' }, invocationId: result.invocationId }),
    ).toBeUndefined();
  });

  it('sends tasks/cancel when the task is cancelled by its id, and the call ends cancelled', async () => {
    server = await startTaskServer();
    host = createHost({ servers: [reports(server.url)], surface: new ScriptedSurface('allow_once') });
    await host.servers.settled();
    const h = host;
    const open = new Promise<InvocationTask>((resolve) => h.on('task.updated', ({ task }) => resolve(task)));
    const running = report(h, 'kelp');
    const task = await open;
    expect(h.tasks.cancel({ scope: { ...SCOPE, userId: 'someone-else' }, invocationId: task.invocationId })).toBe(
      false,
    );
    expect(h.tasks.cancel({ scope: SCOPE, invocationId: task.invocationId })).toBe(true);
    expect((await running).outcome).toBe('cancelled');
    expect(await server.taskCancelled()).toBe(task.taskId);
  });

  it('runs 100 tasks at once with at most 4 tasks/get in flight, each task polled once per interval until it ends', async () => {
    server = await startTaskServer({ completeAfterPolls: 3, getLatencyMs: 20 });
    // The poller runs on the host's clock: on a fake one, each interval is a step the test takes, so how often a task
    // is polled is the poller's doing, not how fast the machine answers (on the real clock, a result slow to arrive
    // under load let a finished task be polled again).
    const clock = new FakeClock();
    host = createHost({ servers: [reports(server.url)], surface: new ScriptedSurface('allow_once'), clock });
    await host.servers.settled();
    const h = host;
    // Each call reports progress once when its task is created and once per status its poller reads.
    let told = 0;
    const waiting: { count: number; resolve: () => void }[] = [];
    h.on('invocation.progress', () => {
      told += 1;
      for (const wait of waiting.filter((w) => w.count <= told)) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve();
      }
    });
    const progressed = (count: number) =>
      new Promise<void>((resolve) => (count <= told ? resolve() : waiting.push({ count, resolve })));
    const calls = Promise.all(Array.from({ length: 100 }, (_, i) => report(h, `topic ${i}`)));
    await progressed(100);
    const polledTimes = (times: number) => Array.from({ length: 100 }, () => times);
    for (const interval of [1, 2]) {
      clock.advance(250);
      await progressed(100 + 100 * interval);
      expect([...server.polls.values()]).toEqual(polledTimes(interval));
    }
    // The third poll ends each task; its call may end before that poll's answer is read, so the calls are awaited.
    clock.advance(250);
    const results = await calls;
    expect([...server.polls.values()]).toEqual(polledTimes(3));
    expect(results.filter((r) => r.outcome === 'success')).toHaveLength(100);
    expect(server.maxGetsInFlight()).toBeGreaterThan(1);
    expect(server.maxGetsInFlight()).toBeLessThanOrEqual(4);
  }, 30_000);

  it('starts a task without waiting, and the model asks airlock__task_status how it stands, in its own tenant only', async () => {
    server = await startTaskServer();
    const plain = createHost({ servers: [reports(server.url)], surface: new ScriptedSurface('allow_once') });
    expect(plain.tools.list({ audience: 'model' }).map((t) => t.name)).not.toContain('airlock__task_status');
    await plain.close();
    host = createHost({
      servers: [reports(server.url)],
      surface: new ScriptedSurface('allow_once'),
      tasks: { statusTool: true },
    });
    await host.servers.settled();
    const h = host;
    expect(h.tools.list({ audience: 'model' }).map((t) => t.name)).toContain('airlock__task_status');
    const started = await h.tasks.start({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: `reports__${REPORT_TOOL}`,
      args: { topic: 'reefs' },
    });
    if (!('task' in started)) throw new Error(`expected a task, got ${started.result.text}`);
    const { invocationId } = started.task;
    const status = async (scope: Scope = SCOPE) =>
      (await h.invoke({ scope, caller: { kind: 'model' }, tool: 'airlock__task_status', args: { invocationId } })).text;
    expect(await status()).toContain('"status":"working"');
    expect(await status({ ...SCOPE, userId: 'someone-else' })).toContain(`no task with invocation id ${invocationId}`);
    const ended = new Promise<void>((done) =>
      h.on('invocation.transition', ({ invocation }) => {
        if (invocation.id === invocationId && invocation.state === 'success') done();
      }),
    );
    server.finish();
    await ended;
    await h.history.get({ scope: SCOPE, invocationId });
    const final = await status();
    expect(final).toContain('"outcome":"success"');
    expect(final).toContain('Report on reefs');
  });

  it('runs an optional task tool at once, or as a task when the caller or a per-tool setting asks', async () => {
    server = await startTaskServer({ completeAfterPolls: 1 });
    host = createHost({ servers: [reports(server.url)], surface: new ScriptedSurface('allow_once') });
    await host.servers.settled();
    const h = host;
    const optional = (asTask?: boolean) =>
      h.invoke({
        scope: SCOPE,
        caller: { kind: 'model' },
        tool: `reports__${OPTIONAL_TOOL}`,
        args: { topic: 'tides' },
        ...(asTask === undefined ? {} : { asTask }),
      });
    const states = async (invocationId: string) =>
      (await h.history.get({ scope: SCOPE, invocationId }))?.transitions.map((t) => t.to);
    const atOnce = await optional();
    expect(atOnce.text).toContain('Quick report on tides');
    expect(await states(atOnce.invocationId)).toEqual(['pending', 'running', 'success']);
    const asked = await optional(true);
    expect(asked.text).toContain('Report on tides');
    expect(await states(asked.invocationId)).toEqual(['pending', 'running', 'working', 'success']);
    expect(server.created).toHaveLength(1);
    await h.close();

    host = createHost({
      servers: [reports(server.url)],
      surface: new ScriptedSurface('allow_once'),
      tasks: { runAsTask: [`reports__${OPTIONAL_TOOL}`] },
    });
    await host.servers.settled();
    const byConfig = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: `reports__${OPTIONAL_TOOL}`,
      args: { topic: 'tides' },
    });
    expect(byConfig.text).toContain('Report on tides');
    expect(server.created).toHaveLength(2);
  });
});

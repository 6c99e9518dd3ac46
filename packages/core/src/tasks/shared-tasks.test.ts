// Open tasks on a PostgreSQL database several instances share (test/support/postgres): each open task is followed by
// one instance, the one that claimed it in the store, and when that instance dies, the instance whose sweep finds it
// dead takes its open tasks over (its heartbeat made old on the database). Two hosts on one database, each beating on
// its own fake clock, against the task server over Streamable HTTP.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { ServerConfig } from '../servers/server-config.js';
import { HEARTBEAT_MS, InstanceHeartbeat, STALE_MS, instanceOption } from '../storage/postgres/postgres-instances.js';
import { PostgresStore } from '../storage/postgres/postgres-store.js';
import { SCOPE } from '../testing/demo-fixture.js';
import { FakeClock } from '../testing/fake-clock.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';
import { startPostgres } from '../../../../test/support/postgres/postgres-server.js';
import type { PostgresServer } from '../../../../test/support/postgres/postgres-server.js';
import { ageHeartbeat } from '../../../../test/support/postgres/heartbeats.js';
import { REPORT_TOOL, startTaskServer } from '../../../../test/support/tasks/task-server.js';
import type { TaskServer } from '../../../../test/support/tasks/task-server.js';

const START = Date.UTC(2026, 10, 23, 12);

let database: PostgresServer;
let server: TaskServer | undefined;
const hosts: Host[] = [];
const pools: pg.Pool[] = [];
beforeAll(async () => {
  database = await startPostgres();
}, 60_000);
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
  await Promise.all(pools.splice(0).map((p) => p.end().catch(() => undefined)));
  await server?.close();
  server = undefined;
});
afterAll(async () => {
  await database?.stop();
});

function reports(url: string): ServerConfig {
  return { id: 'reports', transport: 'http', url, headers: {}, trusted: false, disabled: false };
}

/** A host on the database; with an instance id, its calls are stamped with it and it heartbeats on `clock`. */
async function instance(
  url: string,
  taskUrl: string,
  instanceId?: string,
  options: { resume?: boolean; disabled?: boolean } = {},
) {
  const pool = new pg.Pool({
    connectionString: url,
    max: 4,
    ...(instanceId === undefined ? {} : { options: instanceOption(instanceId) }),
  });
  pool.on('error', () => undefined);
  const store = await PostgresStore.open({ pool });
  const host = createHost({
    servers: [{ ...reports(taskUrl), disabled: options.disabled === true }],
    store,
    surface: new ScriptedSurface('allow_once'),
    ...(options.resume === false ? { tasks: { resume: false } } : {}),
  });
  hosts.push(host);
  const clock = new FakeClock(START);
  const heartbeat =
    instanceId === undefined
      ? undefined
      : new InstanceHeartbeat({
          pool,
          store,
          instanceId,
          clock,
          onDead: () => host.tasks.takeOver(),
        });
  return { host, pool, store, clock, heartbeat };
}

/** A task left open by a host that closed mid-task (a host without an instance id: no owner). */
async function openTask(url: string, taskUrl: string): Promise<{ invocationId: string; taskId: string }> {
  const origin = await instance(url, taskUrl, undefined, { resume: false });
  await origin.host.servers.settled();
  const handle = new Promise<{ invocationId: string; taskId: string }>((done) =>
    origin.host.on('task.updated', ({ task }) => done(task)),
  );
  const cut = origin.host.invoke({
    scope: SCOPE,
    caller: { kind: 'model' },
    tool: `reports__${REPORT_TOOL}`,
    args: { topic: 'estuaries' },
  });
  const { invocationId, taskId } = await handle;
  await origin.host.close();
  expect((await cut).error?.code).toBe('host_closed');
  return { invocationId, taskId };
}

describe('open tasks on a database several instances share', () => {
  it('is followed by one instance only, and taken over by another when that one dies', async () => {
    server = await startTaskServer();
    const url = await database.createDatabase();
    const { invocationId, taskId } = await openTask(url, server.url);

    // Two instances alive (their heartbeats beat), starting at once on the same store.
    const [a, b] = await Promise.all([instance(url, server.url, 'inst-a'), instance(url, server.url, 'inst-b')]);
    await Promise.all([a.heartbeat?.beat(), b.heartbeat?.beat()]);
    await Promise.all([a.host.tasks.resumed(), b.host.tasks.resumed()]);

    const owner = await a.pool.query<{ instance_id: string }>({
      text: 'SELECT instance_id FROM invocations WHERE id = $1',
      values: [invocationId],
    });
    const ownerId = owner.rows[0]?.instance_id;
    expect(['inst-a', 'inst-b']).toContain(ownerId);
    const [dying, survivor] = ownerId === 'inst-a' ? [a, b] : [b, a];
    // The other instance does not follow it: there is nothing of it to cancel there.
    expect(survivor.host.tasks.cancel({ scope: SCOPE, invocationId })).toBe(false);

    // The owner dies: its host stops without a clean leave, its heartbeat row stays and goes stale.
    await dying.host.close();
    const ended = new Promise<string>((done) =>
      survivor.host.on('invocation.transition', ({ invocation }) => {
        if (invocation.state === 'success' || invocation.state === 'error') done(invocation.state);
      }),
    );
    await ageHeartbeat(url, ownerId!, STALE_MS + HEARTBEAT_MS);
    await survivor.heartbeat?.beat();
    server.finish(taskId);
    expect(await ended).toBe('success');

    const entry = await survivor.host.history.get({ scope: SCOPE, invocationId });
    expect(entry?.transitions.map((t) => t.to)).toEqual(['pending', 'running', 'working', 'success']);
    expect(entry?.result?.model.text).toContain('Report on estuaries');
    expect(await survivor.host.tasks.list()).toEqual([]);
  }, 60_000);

  it('leaves a task of a server switched off on an instance to one that runs the server', async () => {
    server = await startTaskServer();
    const url = await database.createDatabase();
    const { invocationId, taskId } = await openTask(url, server.url);
    const ownerOf = async (pool: pg.Pool) =>
      (
        await pool.query<{ instance_id: string | null }>({
          text: 'SELECT instance_id FROM invocations WHERE id = $1',
          values: [invocationId],
        })
      ).rows[0]?.instance_id;

    const off = await instance(url, server.url, 'inst-off', { disabled: true });
    await off.heartbeat?.beat();
    await off.host.tasks.resumed();
    expect(await ownerOf(off.pool)).toBeNull();

    const on = await instance(url, server.url, 'inst-on');
    await on.heartbeat?.beat();
    const ended = new Promise<string>((done) =>
      on.host.on('invocation.transition', ({ invocation }) => {
        if (invocation.state === 'success' || invocation.state === 'error') done(invocation.state);
      }),
    );
    await on.host.tasks.resumed();
    expect(await ownerOf(on.pool)).toBe('inst-on');
    server.finish(taskId);
    expect(await ended).toBe('success');
  }, 60_000);
});

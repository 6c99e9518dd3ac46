// An instance that dies mid-call, on a real PostgreSQL database (test/support/postgres): its calls in flight are left
// as it wrote them (one asked and never sent, one running), and another instance, once the dead one's heartbeat is
// stale on the database's clock, ends them in history with the reason, in the one audit chain, which still verifies.
// Heartbeats are the database's clock: a test makes one older (ageHeartbeat) where time would pass.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyChain } from '../../audit/audit-chain.js';
import { FakeClock } from '../../testing/fake-clock.js';
import { SCOPE, createWrite, invocation, move, transitionWrite } from '../../testing/host-store-fixtures.js';
import { startPostgres } from '../../../../../test/support/postgres/postgres-server.js';
import type { PostgresServer } from '../../../../../test/support/postgres/postgres-server.js';
import { ageHeartbeat } from '../../../../../test/support/postgres/heartbeats.js';
import type { DeadInstance } from './postgres-instances.js';
import { HEARTBEAT_MS, InstanceHeartbeat, STALE_MS, instanceOption } from './postgres-instances.js';
import { PostgresStore } from './postgres-store.js';

let server: PostgresServer;
const stores: PostgresStore[] = [];
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await server?.stop();
});

async function instance(
  url: string,
  instanceId: string,
  clock: FakeClock,
  onDead?: (dead: DeadInstance) => void,
  onFenced?: () => void,
) {
  const pool = new pg.Pool({ connectionString: url, max: 3, options: instanceOption(instanceId) });
  pool.on('error', () => undefined);
  const store = await PostgresStore.open({ pool });
  stores.push(store);
  const errors: Error[] = [];
  const heartbeat = new InstanceHeartbeat({
    pool,
    store,
    instanceId,
    clock,
    onError: (error) => errors.push(error),
    ...(onDead === undefined ? {} : { onDead }),
    ...(onFenced === undefined ? {} : { onFenced }),
  });
  return { store, heartbeat, errors };
}

describe('InstanceHeartbeat on one PostgreSQL database', () => {
  it("ends a dead instance's calls in flight (pending: cancelled, running: transport_error), once, with the reason", async () => {
    const url = await server.createDatabase();
    const start = Date.UTC(2026, 10, 23, 12);
    const deadClock = new FakeClock(start);
    const dead = await instance(url, 'dead-1', deadClock);
    await dead.heartbeat.beat();
    const asked = invocation();
    const running = invocation();
    const done = invocation();
    await dead.store.write([createWrite(asked), createWrite(running), createWrite(done)]);
    await dead.store.write([
      transitionWrite(move(running, 2, 'pending', 'running')),
      transitionWrite(move(done, 2, 'pending', 'running')),
      transitionWrite(move(done, 3, 'running', 'success', 'success')),
    ]);

    const told: DeadInstance[] = [];
    // The host clocks disagree by far more than the limit: they are not what judges a heartbeat.
    const live = await instance(url, 'live-1', new FakeClock(start + 10 * STALE_MS), (d) => void told.push(d));
    const other = await instance(url, 'live-2', new FakeClock(start - 10 * STALE_MS), (d) => void told.push(d));
    // Not stale yet: nothing is taken.
    await live.heartbeat.beat();
    expect(told).toEqual([]);
    const lastBeat = await ageHeartbeat(url, 'dead-1', STALE_MS + 1);
    await live.heartbeat.beat();
    // The other live instance, later on: the dead one was taken already, and live-1 beats on.
    await other.heartbeat.beat();
    expect(told).toEqual([
      { instanceId: 'dead-1', lastHeartbeat: lastBeat, ended: expect.arrayContaining([asked.id, running.id]) },
    ]);
    expect(told[0]?.ended).toHaveLength(2);
    expect([...live.errors, ...other.errors]).toEqual([]);

    const read = (id: string) => live.store.getInvocation(SCOPE, id);
    expect(await read(asked.id)).toMatchObject({
      state: 'cancelled',
      outcome: 'cancelled',
      error: { code: 'instance_lost', message: expect.stringMatching(/dead-1.*stopped.*never sent/) },
    });
    expect(await read(running.id)).toMatchObject({
      state: 'error',
      outcome: 'transport_error',
      error: { code: 'instance_lost', message: expect.stringMatching(/whether the server finished it is unknown/) },
    });
    expect(await read(done.id)).toMatchObject({ state: 'success' });
    const transitions = await live.store.listTransitions(SCOPE, running.id);
    expect(transitions.map((t) => t.to)).toEqual(['pending', 'running', 'error']);
    const chain = await live.store.queryAudit({ limit: 10_000 });
    expect(chain.filter((e) => e.data['errorCode'] === 'instance_lost')).toHaveLength(2);
    expect(verifyChain(chain)).toMatchObject({ ok: true });
  }, 60_000);

  it('fences an instance that was only stalled: its late writes are refused, and its next beat tells it', async () => {
    const url = await server.createDatabase();
    const start = Date.UTC(2026, 10, 23, 12);
    let fenced = 0;
    const stalled = await instance(url, 'stalled-1', new FakeClock(start), undefined, () => void (fenced += 1));
    await stalled.heartbeat.beat();
    const running = invocation();
    await stalled.store.write([createWrite(running)]);
    await stalled.store.write([transitionWrite(move(running, 2, 'pending', 'running'))]);

    // Its heartbeat stalls past the limit: another instance takes it over.
    const told: DeadInstance[] = [];
    const live = await instance(url, 'live-1', new FakeClock(start), (d) => void told.push(d));
    const lastBeat = await ageHeartbeat(url, 'stalled-1', STALE_MS + 1);
    await live.heartbeat.beat();
    expect(told).toEqual([{ instanceId: 'stalled-1', lastHeartbeat: lastBeat, ended: [running.id] }]);

    // It wakes and writes as if nothing happened: the call's end, a new call. Both are refused, named.
    const late = stalled.store.write([transitionWrite(move(running, 3, 'running', 'success', 'success'))]);
    await expect(late).rejects.toMatchObject({ code: 'instance_fenced' });
    await expect(stalled.store.write([createWrite(invocation())])).rejects.toMatchObject({ code: 'instance_fenced' });
    expect(fenced).toBe(0);
    await stalled.heartbeat.beat();
    await stalled.heartbeat.beat();
    expect(fenced).toBe(1);

    // The call ended once, by the takeover; the stalled instance has no row to beat with; the chain verifies.
    const transitions = await live.store.listTransitions(SCOPE, running.id);
    expect(transitions.map((t) => t.to)).toEqual(['pending', 'running', 'error']);
    const direct = new pg.Client({ connectionString: url });
    await direct.connect();
    const { rows } = await direct.query<{ id: string }>('SELECT id FROM instances ORDER BY id');
    await direct.end();
    expect(rows.map((r) => r.id)).toEqual(['live-1']);
    expect(verifyChain(await live.store.queryAudit({ limit: 10_000 }))).toMatchObject({ ok: true });
    expect([...stalled.errors, ...live.errors]).toEqual([]);
  }, 60_000);

  it('learns it was fenced from a beat that met the takeover in flight, and leaves no row behind', async () => {
    const url = await server.createDatabase();
    let fenced = 0;
    const racing = await instance(url, 'racing-1', new FakeClock(0), undefined, () => void (fenced += 1));
    await racing.heartbeat.beat();
    // A takeover holds its transaction open: the row deleted, the fence written, nothing committed yet.
    const taker = new pg.Client({ connectionString: url });
    await taker.connect();
    await taker.query('BEGIN');
    await taker.query("DELETE FROM instances WHERE id = 'racing-1'");
    await taker.query("INSERT INTO fenced_instances (id, fenced_at, fenced_by) VALUES ('racing-1', 0, 'taker')");
    const beat = racing.heartbeat.beat();
    // Watched from a connection of its own: inside the takeover's transaction, pg_stat_activity would stay as it was
    // at its first read.
    const watcher = new pg.Client({ connectionString: url });
    await watcher.connect();
    let rows: { id: string }[];
    try {
      // The beat waits on the deleted row's lock; then the takeover commits under it.
      await vi.waitFor(
        async () => {
          const waiting = await watcher.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO instances%'",
          );
          expect(waiting.rows[0]?.n).toBe(1);
        },
        { timeout: 20_000 },
      );
      await taker.query('COMMIT');
      await beat;
      ({ rows } = await taker.query<{ id: string }>("SELECT id FROM instances WHERE id = 'racing-1'"));
    } finally {
      // A failure above must not leave the takeover open under the beat (the store could then never close).
      await taker.query('ROLLBACK').catch(() => undefined);
      await taker.end();
      await watcher.end();
    }
    expect(fenced).toBe(1);
    expect(rows).toEqual([]);
    expect(racing.errors).toEqual([]);
  }, 60_000);

  it('beats on its clock every interval once started, and a clean stop leaves no row to take', async () => {
    const url = await server.createDatabase();
    const clock = new FakeClock(Date.UTC(2026, 10, 23, 12));
    const a = await instance(url, 'a-1', clock);
    await a.heartbeat.start();
    const beats = async () => {
      const direct = new pg.Client({ connectionString: url });
      await direct.connect();
      const { rows } = await direct.query<{ id: string; heartbeat_at: string }>('SELECT * FROM instances');
      await direct.end();
      return rows.map((r) => [r.id, Number(r.heartbeat_at)]);
    };
    const [[id, first]] = (await beats()) as [[string, number]];
    expect(id).toBe('a-1');
    // The next beat comes when the host clock says, and writes the database's time over an older one.
    const aged = await ageHeartbeat(url, 'a-1', 60_000);
    expect(aged).toBe(first - 60_000);
    clock.advance(HEARTBEAT_MS);
    await expect.poll(async () => (await beats())[0]![1]).toBeGreaterThanOrEqual(first);
    await a.heartbeat.stop();
    expect(await beats()).toEqual([]);
    expect(HEARTBEAT_MS).toBeLessThan(STALE_MS);
  }, 60_000);
});

// The one LISTEN loop of the host and the console, on a real PostgreSQL (test/support/postgres): a connection killed
// from the database side (pg_terminate_backend) is made again on the host's clock, listeners are told it came back,
// and notifications flow again; nothing waits on the wall clock.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../testing/fake-clock.js';
import { startPostgres } from '../../../../../test/support/postgres/postgres-server.js';
import type { PostgresServer } from '../../../../../test/support/postgres/postgres-server.js';
import { PostgresListener, RELISTEN_BACKOFF } from './postgres-listener.js';

let server: PostgresServer;
let pool: pg.Pool;
beforeAll(async () => {
  server = await startPostgres();
  pool = new pg.Pool({ connectionString: await server.createDatabase(), max: 4 });
  pool.on('error', () => undefined);
}, 60_000);
afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

/** Resolves with the next value `push` is given. */
function nextOf<T>(): { push: (value: T) => void; next: () => Promise<T> } {
  const waiting: ((value: T) => void)[] = [];
  const ready: T[] = [];
  return {
    push: (value) => (waiting.length > 0 ? waiting.shift()!(value) : ready.push(value)),
    next: () => (ready.length > 0 ? Promise.resolve(ready.shift()!) : new Promise<T>((done) => waiting.push(done))),
  };
}

describe('PostgresListener', () => {
  it('listens again on the host clock after the database kills its connection, and says it came back', async () => {
    const clock = new FakeClock();
    const payloads = nextOf<string | undefined>();
    const starts = nextOf<boolean>();
    const errors = nextOf<Error>();
    const listener = new PostgresListener({
      pool,
      channels: ['airlock_listener_test'],
      clock,
      backoff: { ...RELISTEN_BACKOFF, jitter: 0 },
      onNotification: (message) => payloads.push(message.payload),
      onListening: (again) => starts.push(again),
      onError: (error) => errors.push(error),
    });
    try {
      await listener.start();
      expect(await starts.next()).toBe(false);
      await pool.query("SELECT pg_notify('airlock_listener_test', 'first')");
      expect(await payloads.next()).toBe('first');

      await pool.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN airlock_listener_test%'",
      );
      await errors.next();
      expect(listener.connected).toBe(false);
      // Nothing is retried until the host clock says so: the first delay of the backoff.
      clock.advance(RELISTEN_BACKOFF.baseMs - 1);
      expect(listener.connected).toBe(false);
      clock.advance(1);
      expect(await starts.next()).toBe(true);
      await listener.listening();
      expect(listener.connected).toBe(true);

      await pool.query("SELECT pg_notify('airlock_listener_test', 'second')");
      expect(await payloads.next()).toBe('second');
    } finally {
      await listener.stop();
    }
  });

  it('gives its connection back on stop and retries nothing after', async () => {
    const clock = new FakeClock();
    const listener = new PostgresListener({
      pool,
      channels: ['airlock_listener_stop'],
      clock,
      onNotification: () => undefined,
    });
    await listener.start();
    expect(listener.connected).toBe(true);
    await listener.stop();
    expect(listener.connected).toBe(false);
    const { rows } = await pool.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE query LIKE 'LISTEN airlock_listener_stop%' AND state <> 'idle'",
    );
    expect(Number(rows[0]!.n)).toBe(0);
    clock.advance(60_000);
    expect(listener.connected).toBe(false);
  });
});

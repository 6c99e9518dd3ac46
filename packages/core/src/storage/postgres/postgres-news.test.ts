// One LISTEN connection for a process's news, on a real PostgreSQL (test/support/postgres): a channel subscribed to
// once the connection is held is heard on that same connection, its subscriber told it listens; a subscriber that
// left hears nothing more.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../testing/fake-clock.js';
import { startPostgres } from '../../../../../test/support/postgres/postgres-server.js';
import type { PostgresServer } from '../../../../../test/support/postgres/postgres-server.js';
import { PostgresNews } from './postgres-news.js';

let server: PostgresServer;
let pool: pg.Pool;
beforeAll(async () => {
  server = await startPostgres();
  pool = new pg.Pool({ connectionString: await server.createDatabase(), max: 4, application_name: 'news-test' });
  pool.on('error', () => undefined);
}, 60_000);
afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

describe('PostgresNews', () => {
  it('hears a channel subscribed to later on the connection it already holds', async () => {
    const news = new PostgresNews({ pool, clock: new FakeClock() });
    try {
      const first: string[] = [];
      const later: string[] = [];
      const started: boolean[] = [];
      news.add('airlock_news_first', { heard: (m) => first.push(m.payload ?? '') });
      await news.listening();
      const leave = news.add('airlock_news_later', {
        heard: (m) => later.push(m.payload ?? ''),
        listening: (again) => started.push(again),
      });
      await news.listening();
      expect(started).toEqual([false]);

      await pool.query("SELECT pg_notify('airlock_news_later', 'one'), pg_notify('airlock_news_first', 'two')");
      await expect.poll(() => [first, later]).toEqual([['two'], ['one']]);
      const { rows } = await pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'news-test' AND query LIKE 'LISTEN %'",
      );
      expect(rows[0]?.n).toBe(1);

      leave();
      await pool.query("SELECT pg_notify('airlock_news_later', 'gone'), pg_notify('airlock_news_first', 'three')");
      await expect.poll(() => first).toEqual(['two', 'three']);
      expect(later).toEqual(['one']);
    } finally {
      await news.stop();
    }
  });

  it('refuses a channel that is not a plain SQL name, naming it', () => {
    const news = new PostgresNews({ pool });
    expect(() => news.add('drop table; x', { heard: () => undefined })).toThrow(/"drop table; x"/);
  });
});

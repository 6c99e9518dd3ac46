// Switches kept in PostgreSQL (migration 7), against a real server: a throwaway cluster (test/support/postgres); and
// two hosts on one database, where a switch changed on one applies on the other without a restart.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../../host/create-host.js';
import type { Scope } from '../../scope.js';
import { demoServer } from '../../testing/demo-fixture.js';
import { ScriptedSurface } from '../../testing/scripted-surface.js';
import { startPostgres } from '../../../../../test/support/postgres/postgres-server.js';
import type { PostgresServer } from '../../../../../test/support/postgres/postgres-server.js';
import { FakeClock } from '../../testing/fake-clock.js';
import { RELISTEN_BACKOFF } from './postgres-listener.js';
import { PostgresStore } from './postgres-store.js';

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const ANA = { userId: 'ana', workspaceId: 'w1', conversationId: 'c1' } as const;
const BEN = { userId: 'ben', workspaceId: 'w1', conversationId: 'c2' } as const;

describe('switches kept in PostgreSQL', () => {
  it('hides a tool and keeps a server off across a restart, in key order, each change audited', async () => {
    const url = await server.createSchema();
    const demo = demoServer('demo');
    const open = async () => {
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      pool.on('error', () => undefined);
      const host = createHost({
        servers: [demo.config],
        store: await PostgresStore.open({ pool }),
        surface: new ScriptedSurface('allow_once'),
      });
      await host.servers.settled();
      return host;
    };
    const first = await open();
    await first.tools.setHidden({ scope: BEN, tool: 'demo__echo', level: 'workspace', hidden: true });
    await first.tools.setHidden({ scope: ANA, tool: 'demo__fetch_url', level: 'user', hidden: true });
    await first.servers.setEnabled('demo', { enabled: false, by: 'root' });
    await first.close();

    const second = await open();
    try {
      expect(second.servers.list()[0]).toMatchObject({ state: 'closed', disabled: true });
      await second.servers.setEnabled('demo', { enabled: true, by: 'root' });
      const seen = (scope: Scope) => second.tools.list({ audience: 'model', scope }).map((t) => t.name);
      expect(seen(ANA)).not.toContain('demo__echo');
      expect(seen(ANA)).not.toContain('demo__fetch_url');
      expect(seen(BEN)).not.toContain('demo__echo');
      expect(seen(BEN)).toContain('demo__fetch_url');
      expect(second.tools.switches({ scope: ANA }).map((s) => [s.tool, s.level, s.updatedBy])).toEqual([
        ['echo', 'workspace', 'ben'],
        ['fetch_url', 'user', 'ana'],
      ]);
      const audit = await second.audit.query({ scope: ANA, type: 'tool.switched' });
      expect(audit.map((e) => e.data)).toEqual([{ hidden: true, level: 'user' }]);
    } finally {
      await second.close();
    }
  }, 60_000);

  it('applies a switch changed on one host to another host on the same database, and after a lost LISTEN', async () => {
    const url = await server.createSchema();
    const demo = demoServer('demo');
    // B's store makes its lost LISTEN connection again on a clock the test moves: a change lands while it is down.
    const storeClock = new FakeClock(Date.now());
    const open = async (name: string, clock?: FakeClock) => {
      const pool = new pg.Pool({ connectionString: url, max: 3, application_name: name });
      pool.on('error', () => undefined);
      const host = createHost({
        servers: [demo.config],
        store: await PostgresStore.open({ pool, ...(clock === undefined ? {} : { clock }) }),
        surface: new ScriptedSurface('allow_once'),
      });
      await host.servers.settled();
      return host;
    };
    const [a, b] = [await open('switches-a'), await open('switches-b', storeClock)];
    try {
      const seenOnB = () => b.tools.list({ audience: 'model', scope: ANA }).map((t) => t.name);
      const listening = async () => {
        const direct = new pg.Client({ connectionString: url });
        await direct.connect();
        try {
          const sql =
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name IN ('switches-a', 'switches-b') " +
            "AND query LIKE '%LISTEN airlock_switches%'";
          return (await direct.query<{ n: number }>(sql)).rows[0]!.n;
        } finally {
          await direct.end();
        }
      };
      await expect.poll(() => listening()).toBe(2);
      expect(seenOnB()).toContain('demo__echo');

      await a.tools.setHidden({ scope: ANA, tool: 'demo__echo', level: 'workspace', hidden: true });
      await expect.poll(() => seenOnB()).not.toContain('demo__echo');
      expect(b.tools.switches({ scope: ANA }).map((s) => [s.tool, s.level])).toEqual([['echo', 'workspace']]);

      await a.servers.setEnabled('demo', { enabled: false, by: 'root' });
      await expect.poll(() => b.servers.list()[0]).toMatchObject({ state: 'closed', disabled: true });
      const refused = await b.invoke({ scope: ANA, caller: { kind: 'user' }, tool: 'demo__fetch_url', args: {} });
      expect(refused.error?.message).toContain('switched off by an administrator');

      // B's LISTEN connection is cut from the database's side; a change made while it is down reaches B once it is
      // back (it reads the switches again on reconnecting).
      const direct = new pg.Client({ connectionString: url });
      await direct.connect();
      await direct.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'switches-b' " +
          "AND query LIKE '%LISTEN airlock_switches%'",
      );
      await direct.end();
      await expect.poll(() => listening()).toBe(1);
      await a.servers.setEnabled('demo', { enabled: true, by: 'root' });
      expect(b.servers.list()[0]).toMatchObject({ disabled: true });
      storeClock.advance(RELISTEN_BACKOFF.maxMs);
      await expect.poll(() => b.servers.list()[0]).toMatchObject({ disabled: false });
      await b.servers.settled();
    } finally {
      await a.close();
      await b.close();
    }
  }, 60_000);
});

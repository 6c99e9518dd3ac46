// Switches kept in PostgreSQL (migration 7), against a real server: a throwaway cluster (test/support/postgres).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../../host/create-host.js';
import type { Scope } from '../../scope.js';
import { demoServer } from '../../testing/demo-fixture.js';
import { ScriptedSurface } from '../../testing/scripted-surface.js';
import { startPostgres } from '../../../../../test/support/postgres/postgres-server.js';
import type { PostgresServer } from '../../../../../test/support/postgres/postgres-server.js';
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
});

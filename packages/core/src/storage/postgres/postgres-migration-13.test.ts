// Migration 13 adds conversation_id to permission_decisions and to its UNIQUE key (whose old name PostgreSQL made
// up): a database written before it keeps every decision it held, and takes conversation allows beside them.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres } from '../../../../../test/support/postgres/postgres-server.js';
import type { PostgresServer } from '../../../../../test/support/postgres/postgres-server.js';
import { TENANT, byId, decision, decisionAudit, putWrite } from '../../testing/host-store-fixtures.js';
import { POSTGRES_MIGRATIONS } from './postgres-migrations.js';
import { PostgresStore } from './postgres-store.js';

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe('PostgreSQL migration 13: decisions that hold in one conversation', () => {
  it("keeps a database's decisions from before it, and stores conversation allows beside them", async () => {
    const url = await server.createDatabase();
    const old = new pg.Client({ connectionString: url });
    await old.connect();
    await old.query(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
    );
    for (const m of POSTGRES_MIGRATIONS.filter((m) => m.version < 13)) {
      await old.query(m.sql);
      await old.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, 1)', [
        m.version,
        m.name,
      ]);
    }
    const perTool = decision({ expiresAt: 1_800_000_000_000 });
    const perArgs = decision({ argsHash: 'args-1', effect: 'deny' });
    for (const d of [perTool, perArgs]) {
      await old.query(
        'INSERT INTO permission_decisions (id, user_id, workspace_id, server_id, server_identity, tool, args_hash, ' +
          'definition_hash, effect, risk_tier, granted_at, expires_at, granted_by) ' +
          'VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)',
        [
          d.id,
          d.userId,
          d.workspaceId,
          d.serverId,
          d.serverIdentity,
          d.tool,
          d.argsHash ?? '',
          d.definitionHash,
          d.effect,
          d.riskTier,
          d.grantedAt,
          d.expiresAt,
          d.grantedBy,
        ],
      );
    }
    await old.end();

    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pool.on('error', () => undefined);
    const store = await PostgresStore.open({ pool });
    try {
      expect(byId(await store.listDecisions(TENANT))).toEqual(byId([perTool, perArgs]));
      const inConversation = decision({ conversationId: 'c1' });
      await store.write([putWrite(inConversation, decisionAudit(inConversation, 'conversation'))]);
      expect(byId(await store.listDecisions(TENANT))).toEqual(byId([perTool, perArgs, inConversation]));
      // One key, one row: the same conversation's allow again replaces it.
      const again = decision({ conversationId: 'c1', definitionHash: 'def-2' });
      await store.write([putWrite(again, decisionAudit(again, 'again'))]);
      expect(byId(await store.listDecisions(TENANT))).toEqual(byId([perTool, perArgs, again]));
    } finally {
      await store.close();
    }
  }, 60_000);
});

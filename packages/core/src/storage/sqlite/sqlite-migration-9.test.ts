// Migration 9 rebuilds permission_decisions with conversation_id in its key: a history file written before it keeps
// every decision it held (each for every conversation), and takes allows for single conversations beside them.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../../testing/scratch-dir.js';
import { TENANT, byId, decision, decisionAudit, putWrite } from '../../testing/host-store-fixtures.js';
import { SQLITE_MIGRATIONS } from './sqlite-migrations.js';
import { SqliteStore } from './sqlite-store.js';

const OLD_COLUMNS =
  'id, user_id, workspace_id, server_id, server_identity, tool, args_hash, definition_hash, effect, risk_tier, ' +
  'granted_at, expires_at, granted_by';

describe('SQLite migration 9: decisions that hold in one conversation', () => {
  it("keeps a file's decisions from before it, and stores conversation allows beside them", async () => {
    const file = join(scratchDir('airlock-migration-9-'), 'history.db');
    const old = new Database(file);
    old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)');
    for (const m of SQLITE_MIGRATIONS.filter((m) => m.version < 9)) {
      old.exec(m.sql);
      old.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(m.version, 1);
    }
    const perTool = decision({ expiresAt: 1_800_000_000_000 });
    const perArgs = decision({ argsHash: 'args-1', effect: 'deny' });
    const insert = old.prepare(`INSERT INTO permission_decisions (${OLD_COLUMNS}) VALUES (${'?, '.repeat(12)}?)`);
    for (const d of [perTool, perArgs]) {
      insert.run(
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
      );
    }
    old.close();

    const store = new SqliteStore({ database: new Database(file) });
    expect(byId(await store.listDecisions(TENANT))).toEqual(byId([perTool, perArgs]));
    const inConversation = decision({ conversationId: 'c1' });
    await store.write([putWrite(inConversation, decisionAudit(inConversation, 'conversation'))]);
    expect(byId(await store.listDecisions(TENANT))).toEqual(byId([perTool, perArgs, inConversation]));
    await store.close();
  });
});

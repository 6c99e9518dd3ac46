import { HostError } from '../../errors/host-error.js';
import type { SqliteDatabase } from './sqlite-store-config.js';

/** One step of the SQLite schema. Versions only grow; a shipped migration is never edited, only followed. */
export interface SqliteMigration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * Every schema step, oldest first. JSON columns hold `JSON.stringify` text; times are milliseconds since the epoch.
 * Transitions and results reference their invocation, so (with `foreign_keys = ON`) neither can exist without it.
 */
export const SQLITE_MIGRATIONS: readonly SqliteMigration[] = [
  {
    version: 1,
    name: 'invocation history',
    sql: `
      CREATE TABLE invocations (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        conversation_id TEXT NOT NULL,
        caller TEXT NOT NULL,
        tool TEXT NOT NULL,
        server_id TEXT,
        original_name TEXT NOT NULL,
        definition_hash TEXT NOT NULL,
        args TEXT NOT NULL,
        args_hash TEXT NOT NULL,
        state TEXT NOT NULL,
        outcome TEXT,
        error TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX invocations_by_scope_and_time
        ON invocations (user_id, workspace_id, conversation_id, created_at);
      CREATE TABLE invocation_transitions (
        invocation_id TEXT NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        from_state TEXT,
        to_state TEXT NOT NULL,
        at INTEGER NOT NULL,
        outcome TEXT,
        error TEXT,
        PRIMARY KEY (invocation_id, seq)
      ) WITHOUT ROWID;
      CREATE TABLE invocation_results (
        invocation_id TEXT PRIMARY KEY REFERENCES invocations (id) ON DELETE CASCADE,
        model TEXT NOT NULL,
        screen TEXT NOT NULL,
        full_text TEXT NOT NULL,
        raw_json TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'permission decisions and audit chain',
    // A per-tool decision keeps '' in args_hash (not NULL), so that the UNIQUE key holds for it too: SQLite treats
    // NULLs as distinct in a UNIQUE index. audit_events.seq is the rowid and the chain's own numbering, set by the
    // store from the last stored event; the chain's order is seq order. audit_events has no foreign keys: the log
    // outlives the decisions and calls it records.
    sql: `
      CREATE TABLE permission_decisions (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        server_id TEXT NOT NULL,
        server_identity TEXT NOT NULL,
        tool TEXT NOT NULL,
        args_hash TEXT NOT NULL,
        definition_hash TEXT NOT NULL,
        effect TEXT NOT NULL CHECK (effect IN ('allow', 'deny')),
        risk_tier TEXT NOT NULL CHECK (risk_tier IN ('low', 'medium', 'high')),
        granted_at INTEGER NOT NULL,
        expires_at INTEGER,
        granted_by TEXT NOT NULL,
        UNIQUE (user_id, workspace_id, server_identity, tool, args_hash)
      );
      CREATE TABLE audit_events (
        seq INTEGER PRIMARY KEY CHECK (seq >= 1),
        type TEXT NOT NULL,
        at INTEGER NOT NULL,
        user_id TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        conversation_id TEXT,
        server_id TEXT,
        tool TEXT,
        args_hash TEXT,
        risk_tier TEXT,
        invocation_id TEXT,
        data TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL
      );
      CREATE INDEX audit_events_by_tenant ON audit_events (user_id, workspace_id, seq);
      CREATE INDEX audit_events_by_invocation ON audit_events (invocation_id, seq);
    `,
  },
  {
    version: 3,
    name: 'retention: when a result lost its whole text',
    // NULL while the whole text is kept; the time retention emptied full_text and raw_json, so reading the handle can
    // answer "expired on ..." rather than "not found".
    sql: `ALTER TABLE invocation_results ADD COLUMN expired_at INTEGER;`,
  },
  {
    version: 4,
    name: 'credentials for remote servers',
    // sealed is the token vault's ciphertext (base64): no token is ever stored in the clear. A client registration
    // keeps '' in user_id and server_identity (it belongs to an authorization server, keyed by issuer).
    sql: `
      CREATE TABLE credentials (
        kind TEXT NOT NULL CHECK (kind IN ('tokens', 'client', 'pending')),
        user_id TEXT NOT NULL,
        server_identity TEXT NOT NULL,
        issuer TEXT NOT NULL,
        sealed TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (kind, user_id, server_identity, issuer)
      ) WITHOUT ROWID;
      CREATE INDEX credentials_by_user ON credentials (user_id, server_identity);
    `,
  },
  {
    version: 5,
    name: 'task handles of calls that run as tasks',
    // One row per call that runs as a task, deleted with its call; its tenant is the call's. The partial index keeps
    // the start-up read of open tasks (every tenant's) to the few rows still open.
    sql: `
      CREATE TABLE invocation_tasks (
        invocation_id TEXT PRIMARY KEY REFERENCES invocations (id) ON DELETE CASCADE,
        server_id TEXT NOT NULL,
        server_identity TEXT NOT NULL,
        tool TEXT NOT NULL,
        task_id TEXT NOT NULL,
        era TEXT NOT NULL,
        poll_interval_ms INTEGER,
        status TEXT NOT NULL,
        status_message TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX invocation_tasks_open ON invocation_tasks (created_at) WHERE status IN ('working', 'input_required');
    `,
  },
  {
    version: 6,
    name: 'switches: servers switched off, tools hidden from the model',
    // A row exists only while something is off (storage/switches.ts): '' in user_id, workspace_id or tool tells the
    // level (a server for everyone, a tool for a workspace, a tool for one user in a workspace).
    sql: `
      CREATE TABLE switches (
        user_id TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        server_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        updated_by TEXT NOT NULL,
        PRIMARY KEY (user_id, workspace_id, server_id, tool)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 7,
    name: "the model's own id for a call",
    // NULL when the caller gave none (InvokeOptions.modelCallId): what a model's transcript calls the call.
    sql: `ALTER TABLE invocations ADD COLUMN model_call_id TEXT;`,
  },
  {
    version: 8,
    name: 'conversations: a chat kept whole, listed and resumed',
    // messages, lines and context are the application's JSON text (store/conversation-record.ts); the list reads a tenant's
    // newest first.
    sql: `
      CREATE TABLE conversations (
        user_id TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        id TEXT NOT NULL,
        title TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        messages TEXT NOT NULL,
        lines TEXT NOT NULL,
        context TEXT NOT NULL,
        PRIMARY KEY (user_id, workspace_id, id)
      );
      CREATE INDEX conversations_recent ON conversations (user_id, workspace_id, updated_at DESC);
    `,
  },
  {
    version: 9,
    name: 'decisions that hold in one conversation',
    // conversation_id is '' for a decision that holds in every conversation (as args_hash is '' per tool), and is part
    // of the UNIQUE key, so one tool may hold an allow always and an allow for each conversation side by side. SQLite
    // cannot change a table's UNIQUE constraint, so the table is rebuilt with the rows copied; nothing references it.
    sql: `
      CREATE TABLE permission_decisions_next (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        server_id TEXT NOT NULL,
        server_identity TEXT NOT NULL,
        tool TEXT NOT NULL,
        args_hash TEXT NOT NULL,
        definition_hash TEXT NOT NULL,
        effect TEXT NOT NULL CHECK (effect IN ('allow', 'deny')),
        risk_tier TEXT NOT NULL CHECK (risk_tier IN ('low', 'medium', 'high')),
        granted_at INTEGER NOT NULL,
        expires_at INTEGER,
        granted_by TEXT NOT NULL,
        conversation_id TEXT NOT NULL DEFAULT '',
        UNIQUE (user_id, workspace_id, server_identity, tool, args_hash, conversation_id)
      );
      INSERT INTO permission_decisions_next (id, user_id, workspace_id, server_id, server_identity, tool, args_hash, definition_hash, effect, risk_tier,
        granted_at, expires_at, granted_by)
        SELECT id, user_id, workspace_id, server_id, server_identity, tool, args_hash, definition_hash, effect, risk_tier,
        granted_at, expires_at, granted_by FROM permission_decisions;
      DROP TABLE permission_decisions;
      ALTER TABLE permission_decisions_next RENAME TO permission_decisions;
    `,
  },
  {
    version: 10,
    name: "views' browser-permission consents",
    // A user's answer about a feature an MCP Apps view declared (camera, microphone, …), per user, workspace, server,
    // view and feature, so every tab (and a second process on the file) finds it; a list reads a tenant's prefix.
    sql: `
      CREATE TABLE view_consents (
        user_id TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        server_id TEXT NOT NULL,
        uri TEXT NOT NULL,
        permission TEXT NOT NULL,
        decision TEXT NOT NULL CHECK (decision IN ('allow', 'deny')),
        decided_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, workspace_id, server_id, uri, permission)
      );
    `,
  },
  {
    version: 11,
    name: 'the id of the message whose turn made a call',
    // NULL when the caller gave none (InvokeOptions.messageId). With the scope and model_call_id, the seed's key of a
    // call: user, workspace, conversation, message, tool call.
    sql: `ALTER TABLE invocations ADD COLUMN message_id TEXT;`,
  },
  {
    version: 12,
    name: "a task's time to live, as its server gave it",
    // NULL when the server named none (unlimited), and for handles stored before this migration.
    sql: `ALTER TABLE invocation_tasks ADD COLUMN ttl_ms INTEGER;`,
  },
];

/** The newest schema version this code knows. */
export const SQLITE_SCHEMA_VERSION = SQLITE_MIGRATIONS.reduce((newest, m) => Math.max(newest, m.version), 0);

interface VersionRow {
  readonly version: number;
}

/**
 * Brings the database up to `SQLITE_SCHEMA_VERSION`: each missing migration runs in its own `BEGIN IMMEDIATE`
 * transaction together with its `schema_migrations` row, so it applies exactly once even when two processes open the
 * same file at once (the second waits for the lock, then sees the row and skips). A database written by a newer
 * version of the code is refused rather than guessed at. Returns the versions it applied (empty when up to date).
 */
export function applySqliteMigrations(database: SqliteDatabase): number[] {
  database.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)',
  );
  const versions = database.prepare('SELECT version FROM schema_migrations ORDER BY version');
  const appliedVersions = () => new Set((versions.all() as VersionRow[]).map((row) => row.version));

  const already = appliedVersions();
  const found = Math.max(0, ...already);
  if (found > SQLITE_SCHEMA_VERSION) {
    throw new HostError(
      'store_error',
      `the database is at schema version ${found}, newer than version ${SQLITE_SCHEMA_VERSION} that this Airlock knows; ` +
        'open it with a newer Airlock (refusing rather than risk damaging it)',
      { data: { databaseVersion: found, knownVersion: SQLITE_SCHEMA_VERSION } },
    );
  }

  const record = database.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)');
  const applied: number[] = [];
  for (const migration of [...SQLITE_MIGRATIONS].sort((a, b) => a.version - b.version)) {
    if (already.has(migration.version)) continue;
    database.exec('BEGIN IMMEDIATE');
    try {
      if (!appliedVersions().has(migration.version)) {
        database.exec(migration.sql);
        record.run(migration.version, Date.now());
        applied.push(migration.version);
      }
      database.exec('COMMIT');
    } catch (error) {
      rollbackQuietly(database);
      throw new HostError(
        'store_error',
        `schema migration ${migration.version} (${migration.name}) failed: ${error instanceof Error ? error.message : String(error)}`,
        { data: { version: migration.version }, cause: error },
      );
    }
  }
  return applied;
}

function rollbackQuietly(database: SqliteDatabase): void {
  try {
    database.exec('ROLLBACK');
  } catch {
    // No transaction left to roll back (SQLite already ended it); the original error is the one to report.
  }
}

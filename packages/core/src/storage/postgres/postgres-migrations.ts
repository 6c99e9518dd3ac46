import { HostError } from '../../errors/host-error.js';
import { withConnection } from './postgres-checkout.js';
import type { PgPool } from './postgres-store-config.js';

/** One step of the PostgreSQL schema. Versions only grow; a shipped migration is never edited, only followed. */
export interface PostgresMigration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * Every schema step, oldest first. The tables and columns are SQLite's (sqlite-migrations.ts), so the row mapping is
 * shared; what differs: times and sequence numbers are BIGINT, a result's whole text and raw JSON are BYTEA (UTF-8:
 * any text a tool returns, NUL included, and no TOAST text limits), and `ord` keeps the order calls were created in
 * (SQLite's rowid).
 */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'invocation history, permission decisions and the audit chain',
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
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        ord BIGINT GENERATED ALWAYS AS IDENTITY
      );
      CREATE INDEX invocations_by_scope_and_time
        ON invocations (user_id, workspace_id, conversation_id, created_at DESC, ord DESC);
      CREATE INDEX invocations_by_end ON invocations (updated_at, ord);
      CREATE TABLE invocation_transitions (
        invocation_id TEXT NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        from_state TEXT,
        to_state TEXT NOT NULL,
        at BIGINT NOT NULL,
        outcome TEXT,
        error TEXT,
        PRIMARY KEY (invocation_id, seq)
      );
      CREATE TABLE invocation_results (
        invocation_id TEXT PRIMARY KEY REFERENCES invocations (id) ON DELETE CASCADE,
        model TEXT NOT NULL,
        screen TEXT NOT NULL,
        full_text BYTEA NOT NULL,
        raw_json BYTEA NOT NULL,
        expired_at BIGINT
      );
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
        granted_at BIGINT NOT NULL,
        expires_at BIGINT,
        granted_by TEXT NOT NULL,
        UNIQUE (user_id, workspace_id, server_identity, tool, args_hash)
      );
      CREATE INDEX permission_decisions_by_workspace ON permission_decisions (workspace_id);
      CREATE TABLE audit_events (
        seq BIGINT PRIMARY KEY CHECK (seq >= 1),
        type TEXT NOT NULL,
        at BIGINT NOT NULL,
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
    version: 2,
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
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (kind, user_id, server_identity, issuer)
      );
      CREATE INDEX credentials_by_user ON credentials (user_id, server_identity);
    `,
  },
  {
    version: 3,
    name: 'questions open across instances',
    // A question a call asks people (a permission request), seen by every instance of a console: request is the
    // question as its tabs show it (JSON); closed_at is set once, by the first answer (answer) or by its call ending
    // unanswered (answer NULL), so the first answer wins whichever instance it reaches.
    sql: `
      CREATE TABLE open_questions (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        instance_id TEXT NOT NULL,
        request TEXT NOT NULL,
        opened_at BIGINT NOT NULL,
        answer TEXT,
        closed_at BIGINT
      );
      CREATE INDEX open_questions_open ON open_questions (opened_at) WHERE closed_at IS NULL;
    `,
  },
  {
    version: 4,
    name: 'instances and the calls each runs',
    // instance_id names the instance that created a call: a connection's airlock.instance setting (set by an instance
    // that heartbeats, see postgres-instances.ts), NULL for calls made before and by hosts that do not. A row per
    // live instance in instances; one whose heartbeat stops has its calls in flight ended by another.
    sql: `
      ALTER TABLE invocations ADD COLUMN instance_id TEXT;
      ALTER TABLE invocations ALTER COLUMN instance_id SET DEFAULT current_setting('airlock.instance', true);
      CREATE INDEX invocations_in_flight ON invocations (instance_id) WHERE state IN ('pending', 'running');
      CREATE TABLE instances (
        id TEXT PRIMARY KEY,
        heartbeat_at BIGINT NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: 'console sessions shared by instances',
    // A console's signed-in sessions, so any instance serves any user. Keyed by the sha256 of the session id: the id
    // itself (the cookie's value) is never stored, so reading the table does not let anyone sign in as someone else.
    sql: `
      CREATE TABLE console_sessions (
        id_sha256 TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );
    `,
  },
  {
    version: 6,
    name: 'task handles of calls that run as tasks',
    // As SQLite's migration 5: one row per call that runs as a task, deleted with its call, its tenant the call's.
    sql: `
      CREATE TABLE invocation_tasks (
        invocation_id TEXT PRIMARY KEY REFERENCES invocations (id) ON DELETE CASCADE,
        server_id TEXT NOT NULL,
        server_identity TEXT NOT NULL,
        tool TEXT NOT NULL,
        task_id TEXT NOT NULL,
        era TEXT NOT NULL,
        poll_interval_ms BIGINT,
        status TEXT NOT NULL,
        status_message TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX invocation_tasks_open ON invocation_tasks (created_at) WHERE status IN ('working', 'input_required');
    `,
  },
  {
    version: 7,
    name: 'switches: servers switched off, tools hidden from the model',
    // As SQLite's migration 6.
    sql: `
      CREATE TABLE switches (
        user_id TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        server_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        updated_at BIGINT NOT NULL,
        updated_by TEXT NOT NULL,
        PRIMARY KEY (user_id, workspace_id, server_id, tool)
      );
    `,
  },
  {
    version: 8,
    name: "the model's own id for a call",
    // As SQLite's migration 7.
    sql: `ALTER TABLE invocations ADD COLUMN model_call_id TEXT;`,
  },
  {
    version: 9,
    name: "what a console's instances tell each other, kept as rows",
    // Each thing one instance tells the others of questions (opened, answered, closed, a cancel, an answer sent to
    // the instance holding a server's question, its reply) is a row; NOTIFY carries only its seq. A listener that
    // lost its connection reads the rows told since (told_at is the database's clock, the same for every instance),
    // and an answer of any size travels in news, never in a notification's 8000 bytes.
    sql: `
      CREATE TABLE question_news (
        seq BIGSERIAL PRIMARY KEY,
        told_at BIGINT NOT NULL,
        news TEXT NOT NULL
      );
      CREATE INDEX question_news_told_at ON question_news (told_at);
    `,
  },
  {
    version: 10,
    name: 'instances fenced when taken over',
    // An instance another took over (its heartbeat went stale) is fenced: a row here, written in the transaction that
    // ends its calls in flight. Every later write batch of that instance is refused, so one that was only stalled
    // cannot write for calls another instance has ended; its next heartbeat finds the row and tells it.
    sql: `
      CREATE TABLE fenced_instances (
        id TEXT PRIMARY KEY,
        fenced_at BIGINT NOT NULL,
        fenced_by TEXT NOT NULL
      );
    `,
  },
  {
    version: 11,
    name: 'resource reads kept whole for every instance',
    // The whole of a resource read behind its handle (airlock:read/<id>), so a handle one instance gave opens on any;
    // contents is the server's contents as JSON (UTF-8), dropped with the results' retention.
    sql: `
      CREATE TABLE kept_reads (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        server_id TEXT NOT NULL,
        uri TEXT NOT NULL,
        contents BYTEA NOT NULL,
        kept_at BIGINT NOT NULL
      );
      CREATE INDEX kept_reads_kept_at ON kept_reads (kept_at);
    `,
  },
  {
    version: 12,
    name: 'conversations: a chat kept whole, listed and resumed on any instance',
    // messages, lines and context are the application's JSON text (store/conversation-record.ts).
    sql: `
      CREATE TABLE conversations (
        user_id TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        id TEXT NOT NULL,
        title TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        messages TEXT NOT NULL,
        lines TEXT NOT NULL,
        context TEXT NOT NULL,
        PRIMARY KEY (user_id, workspace_id, id)
      );
      CREATE INDEX conversations_recent ON conversations (user_id, workspace_id, updated_at DESC);
    `,
  },
  {
    version: 13,
    name: 'decisions that hold in one conversation',
    // As SQLite's migration 9: conversation_id '' holds in every conversation, and joins the UNIQUE key. The old key's
    // constraint has a name PostgreSQL made up (and cut to 63 characters), so it is found in the catalog and dropped.
    sql: `
      ALTER TABLE permission_decisions ADD COLUMN conversation_id TEXT NOT NULL DEFAULT '';
      DO $$
      DECLARE old_key TEXT;
      BEGIN
        SELECT conname INTO old_key FROM pg_constraint
          WHERE conrelid = 'permission_decisions'::regclass AND contype = 'u';
        EXECUTE format('ALTER TABLE permission_decisions DROP CONSTRAINT %I', old_key);
      END $$;
      ALTER TABLE permission_decisions ADD CONSTRAINT permission_decisions_key
        UNIQUE (user_id, workspace_id, server_identity, tool, args_hash, conversation_id);
    `,
  },
  {
    version: 14,
    name: "views' browser-permission consents, for every instance; the sign-ins each instance holds",
    // As SQLite's migration 10: a consent given on one instance holds on all, until revoked on any. held_flows names
    // the sign-ins (by state) an instance holds in memory, so another that gets an unknown one answers
    // at once instead of asking every instance and waiting out the reply timeout.
    sql: `
      CREATE TABLE view_consents (
        user_id TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        server_id TEXT NOT NULL,
        uri TEXT NOT NULL,
        permission TEXT NOT NULL,
        decision TEXT NOT NULL CHECK (decision IN ('allow', 'deny')),
        decided_at BIGINT NOT NULL,
        PRIMARY KEY (user_id, workspace_id, server_id, uri, permission)
      );
      CREATE TABLE held_flows (
        id TEXT PRIMARY KEY,
        instance_id TEXT NOT NULL,
        held_at BIGINT NOT NULL
      );
    `,
  },
  {
    version: 15,
    name: 'the id of the message whose turn made a call',
    // As SQLite's migration 11.
    sql: `ALTER TABLE invocations ADD COLUMN message_id TEXT;`,
  },
  {
    version: 16,
    name: "a task's time to live, as its server gave it",
    // As SQLite's migration 12.
    sql: `ALTER TABLE invocation_tasks ADD COLUMN ttl_ms BIGINT;`,
  },
];

/** The newest schema version this code knows. */
export const POSTGRES_SCHEMA_VERSION = POSTGRES_MIGRATIONS.reduce((newest, m) => Math.max(newest, m.version), 0);

/**
 * The session advisory lock every instance takes while it migrates (a constant key, 'airloc' in ASCII), so instances
 * starting together migrate one after the other and the second finds the work done.
 */
export const MIGRATION_LOCK = 0x6169726c6f63;

/**
 * Brings the database up to `POSTGRES_SCHEMA_VERSION`, holding `MIGRATION_LOCK` throughout: each missing migration
 * runs in a transaction of its own with its `schema_migrations` row, so a crash mid-way leaves whole steps only. A
 * database written by a newer version of the code is refused rather than guessed at. Returns the versions it applied
 * (empty when another instance had already done them).
 */
export async function applyPostgresMigrations(pool: PgPool): Promise<number[]> {
  return withConnection(pool, async (client, broke) => {
    await client.query({ text: `SELECT pg_advisory_lock(${MIGRATION_LOCK})` });
    try {
      await client.query({
        text:
          'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, ' +
          'applied_at BIGINT NOT NULL)',
      });
      const { rows } = await client.query({ text: 'SELECT version FROM schema_migrations' });
      const already = new Set((rows as { version: number }[]).map((row) => Number(row.version)));
      const found = Math.max(0, ...already);
      if (found > POSTGRES_SCHEMA_VERSION) {
        throw new HostError(
          'store_error',
          `the database is at schema version ${found}, newer than version ${POSTGRES_SCHEMA_VERSION} that this ` +
            'Airlock knows; open it with a newer Airlock (refusing rather than risk damaging it)',
          { data: { databaseVersion: found, knownVersion: POSTGRES_SCHEMA_VERSION } },
        );
      }
      const applied: number[] = [];
      for (const migration of [...POSTGRES_MIGRATIONS].sort((a, b) => a.version - b.version)) {
        if (already.has(migration.version)) continue;
        await client.query({ text: 'BEGIN' });
        try {
          await client.query({ text: migration.sql });
          await client.query({
            text: 'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
            values: [migration.version, migration.name, Date.now()],
          });
          await client.query({ text: 'COMMIT' });
        } catch (error) {
          await client.query({ text: 'ROLLBACK' }).catch(() => undefined);
          throw new HostError(
            'store_error',
            `schema migration ${migration.version} (${migration.name}) failed: ${error instanceof Error ? error.message : String(error)}`,
            { data: { version: migration.version }, cause: error },
          );
        }
        applied.push(migration.version);
      }
      return applied;
    } finally {
      await client.query({ text: `SELECT pg_advisory_unlock(${MIGRATION_LOCK})` }).catch((error: unknown) => {
        // A connection that cannot unlock is dropped rather than returned to the pool holding the lock.
        broke(error instanceof Error ? error : new Error(String(error)));
      });
    }
  });
}

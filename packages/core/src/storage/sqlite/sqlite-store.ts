import type { AuditEvent } from '../../store/audit-record.js';
import { HostError } from '../../errors/host-error.js';
import type { StoredDecision } from '../../store/decision-record.js';
import type { Scope } from '../../scope.js';
import type { AuditQuery, HostStore, RetentionCandidate, RetentionQuery, StoreWrite } from '../../store/host-store.js';
import type {
  InvocationRecord,
  ListInvocationsOptions,
  ResultRecord,
  TransitionRecord,
} from '../../store/invocation-record.js';
import { SqliteAuditQueries } from './sqlite-audit-queries.js';
import { SqliteBatch } from './sqlite-batch.js';
import { SqliteCredentials } from './sqlite-credentials.js';
import { SqliteSwitches } from './sqlite-switches.js';
import { SqliteConversations } from './sqlite-conversations.js';
import { SqliteViewConsents } from './sqlite-view-consents.js';
import { SqliteTasks } from './sqlite-tasks.js';
import { applySqliteMigrations } from './sqlite-migrations.js';
import { sqliteRetentionCandidates } from './sqlite-retention.js';
import { openSqliteDatabase } from './open-sqlite-database.js';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';
import { enterWalMode } from './sqlite-wal-mode.js';
import { prepareStatements, scopeParams } from './sqlite-statements.js';
import type { SqliteStatements } from './sqlite-statements.js';
import type { SqliteDatabase, SqliteStoreConfig, SqliteTransaction } from './sqlite-store-config.js';
import { auditPage, closedError, pageSize } from '../store-checks.js';
import { auditFromRow } from '../sql/audit-rows.js';
import { invocationFromRow, resultFromRow, transitionFromRow } from '../sql/call-rows.js';
import type { InvocationRow, ResultRow, TransitionRow } from '../sql/call-rows.js';
import { decisionFromRow } from '../sql/decision-rows.js';
import type { DecisionRow } from '../sql/decision-rows.js';

const DEFAULT_BUSY_TIMEOUT_MS = 5000;
/** What a WAL file is cut back to when it is reset (bytes): 64 MiB. */
const WAL_SIZE_LIMIT = 64 * 1024 * 1024;

/**
 * The embedded `HostStore`: history, permission decisions and the audit chain in one SQLite file (WAL), through a
 * driver the caller opens and hands over, so core itself never loads a native module.
 *
 * Opening sets `journal_mode = WAL` (readers never block the writer), `synchronous = NORMAL` (a committed write
 * survives a crash of the process; only a power loss can take back the last commits), `foreign_keys = ON` and a busy
 * timeout, then applies the schema migrations and prepares every statement once: the call path runs one prepared
 * transaction per write and no schema work. Each write is a single `BEGIN IMMEDIATE` transaction, so after a crash a
 * call's rows are either whole or absent, and a write that reads first (the audit chain's last event) holds the write
 * lock while it reads: several processes sharing the file still build one chain.
 *
 * Given a `path`, the store opens the file with `node:sqlite` (Node >= 22.13) or else `better-sqlite3`. The
 * constructor throws `HostError('store_error')` when neither driver loads, or when the file's schema is newer than
 * this code knows; a `database` the caller handed over then stays open and the caller's to close.
 *
 * @example
 * ```ts
 * const store = new SqliteStore({ path: join(dataDir, 'airlock.db') });
 * // or with a driver of your choice:
 * const store = new SqliteStore({ database: new Database(join(dataDir, 'airlock.db')) });
 * ```
 */
export class SqliteStore implements HostStore {
  readonly #database: SqliteDatabase;
  readonly #sql: SqliteStatements;
  readonly #auditQueries: SqliteAuditQueries;
  readonly #credentials: SqliteCredentials;
  readonly #tasks: SqliteTasks;
  readonly #switches: SqliteSwitches;
  readonly #conversations: SqliteConversations;
  readonly #viewConsents: SqliteViewConsents;
  readonly #write: SqliteTransaction<[readonly StoreWrite[]], void>;
  #closed = false;
  readonly #idleCheckpointMs: number;
  readonly #checkpointEveryWrites: number;
  #writesSinceCheckpoint = 0;
  #checkpointTimer: ReturnType<typeof setTimeout> | undefined;
  /** Checkpoints during a burst on a thread of its own (a file on disk only). */
  readonly #checkpointer: SqliteCheckpointer | undefined;

  constructor(config: SqliteStoreConfig) {
    this.#idleCheckpointMs = config.idleCheckpointMs ?? 500;
    this.#checkpointEveryWrites = config.checkpointEveryWrites ?? 1000;
    const busyTimeoutMs = config.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
      throw new HostError('config_invalid', `busyTimeoutMs must be an integer >= 0, not ${String(busyTimeoutMs)}`);
    }
    const db = databaseOf(config);
    this.#database = db;
    const file = config.path ?? fileOf(config.database);
    this.#checkpointer =
      file === undefined || config.checkpointOnThread === false ? undefined : new SqliteCheckpointer(file);
    try {
      db.pragma(`busy_timeout = ${busyTimeoutMs}`);
      enterWalMode(db, busyTimeoutMs);
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      db.pragma('wal_autocheckpoint = 0');
      // A WAL file grown during a long burst is cut back to this when it is reset, not left at its largest.
      db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
      applySqliteMigrations(db);
      this.#sql = prepareStatements(db);
      this.#auditQueries = new SqliteAuditQueries(db);
      this.#credentials = new SqliteCredentials(db);
      this.#tasks = new SqliteTasks(db);
      this.#switches = new SqliteSwitches(db);
      this.#conversations = new SqliteConversations(db);
      this.#viewConsents = new SqliteViewConsents(db);
    } catch (error) {
      if (config.database === undefined) db.close();
      throw asStoreError('open the SQLite store', error);
    }
    const batch = new SqliteBatch({
      database: db,
      sql: this.#sql,
      credentials: this.#credentials,
      tasks: this.#tasks,
      switches: this.#switches,
      conversations: this.#conversations,
      viewConsents: this.#viewConsents,
    });
    this.#write = db.transaction((writes: readonly StoreWrite[]) => batch.apply(writes));
  }

  /** Applies the batch in one `BEGIN IMMEDIATE` transaction: all of it is committed, or none. */
  write(batch: readonly StoreWrite[]): Promise<void> {
    return this.#call('store the batch', () => {
      if (batch.length === 0) return;
      this.#write.immediate(batch);
      this.#wrote();
    });
  }

  /** One prepared SELECT for the whole set, mapped row by row: the engine's start-up load of every decision. */
  listDecisions(filter: { readonly userId?: string; readonly workspaceId?: string }): Promise<StoredDecision[]> {
    return this.#call('list decisions', () => {
      const { userId, workspaceId } = filter;
      const sql = this.#sql;
      const rows =
        userId !== undefined && workspaceId !== undefined
          ? sql.listDecisionsOfTenant.all(userId, workspaceId)
          : userId !== undefined
            ? sql.listDecisionsOfUser.all(userId)
            : workspaceId !== undefined
              ? sql.listDecisionsOfWorkspace.all(workspaceId)
              : sql.listDecisions.all();
      return (rows as DecisionRow[]).map(decisionFromRow);
    });
  }

  queryAudit(query: AuditQuery): Promise<AuditEvent[]> {
    return this.#call('query the audit log', () => {
      const page = auditPage(query);
      return this.#auditQueries.rows(query, page).map(auditFromRow);
    });
  }

  listRetention(query: RetentionQuery): Promise<RetentionCandidate[]> {
    return this.#call('list what retention may remove', () => sqliteRetentionCandidates(this.#database, query));
  }

  getCredential: HostStore['getCredential'] = (key) =>
    this.#call('read the credential', () => this.#credentials.get(key));

  listCredentials: HostStore['listCredentials'] = (filter) =>
    this.#call('list credentials', () => this.#credentials.list(filter));

  getTask: HostStore['getTask'] = (scope, id) => this.#call('read the task', () => this.#tasks.get(scope, id));

  listSwitches: HostStore['listSwitches'] = () => this.#call('list switches', () => this.#switches.list());

  getConversation: HostStore['getConversation'] = (tenant, id) =>
    this.#call('read the conversation', () => this.#conversations.get(tenant, id));

  listConversations: HostStore['listConversations'] = (tenant, options) =>
    this.#call('list conversations', () => this.#conversations.list(tenant, options));

  listViewConsents: HostStore['listViewConsents'] = (tenant, filter) =>
    this.#call("list views' consents", () => this.#viewConsents.list(tenant, filter));
  listStaleConversations: HostStore['listStaleConversations'] = (query) =>
    this.#call('list stale conversations', () => this.#conversations.stale(query));

  listOpenTasks: HostStore['listOpenTasks'] = (filter) =>
    this.#call('list open tasks', () => this.#tasks.listOpen(filter));

  /** Counts a committed write and schedules the WAL checkpoint for when writes pause (or runs it after many). */
  #wrote(): void {
    this.#writesSinceCheckpoint += 1;
    const thread = this.#checkpointer;
    // Mid-burst, the checkpointer's thread copies the pages; once it is done, the tail written meanwhile is
    // checkpointed here, which lets the WAL start over. Without the thread, or past ten intervals without it catching
    // up (the WAL's bound), here.
    if (thread?.takeFinished() === true) {
      this.#checkpoint();
      return;
    }
    if (this.#writesSinceCheckpoint >= this.#checkpointEveryWrites) {
      if (thread?.usable === true && this.#writesSinceCheckpoint < 10 * this.#checkpointEveryWrites) {
        thread.request();
      } else {
        this.#checkpoint();
        return;
      }
    }
    clearTimeout(this.#checkpointTimer);
    this.#checkpointTimer = setTimeout(() => this.#checkpoint(), this.#idleCheckpointMs);
    this.#checkpointTimer.unref?.();
  }

  #checkpoint(): void {
    clearTimeout(this.#checkpointTimer);
    this.#checkpointTimer = undefined;
    this.#writesSinceCheckpoint = 0;
    if (this.#closed) return;
    try {
      this.#database.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // A busy reader can hold a checkpoint back; the next one catches up.
    }
  }

  getInvocation(scope: Scope, id: string): Promise<InvocationRecord | undefined> {
    return this.#call('read the invocation', () => {
      const row = this.#sql.getInvocation.get(id, ...scopeParams(scope)) as InvocationRow | undefined;
      return row === undefined ? undefined : invocationFromRow(row);
    });
  }

  listInvocations(scope: Scope, options?: ListInvocationsOptions): Promise<InvocationRecord[]> {
    return this.#call('list invocations', () => {
      const limit = pageSize(options);
      const before = options?.before;
      const sql = this.#sql;
      const modelCallId = options?.modelCallId;
      if (modelCallId !== undefined) {
        const until = before ?? Number.MAX_SAFE_INTEGER;
        const calls = options?.allConversations
          ? sql.listTenantModelCallInvocations.all(scope.userId, scope.workspaceId, modelCallId, until, limit)
          : sql.listModelCallInvocations.all(...scopeParams(scope), modelCallId, until, limit);
        return (calls as InvocationRow[]).map(invocationFromRow);
      }
      const rows = options?.allConversations
        ? before === undefined
          ? sql.listTenantInvocations.all(scope.userId, scope.workspaceId, limit)
          : sql.listTenantInvocationsBefore.all(scope.userId, scope.workspaceId, before, limit)
        : before === undefined
          ? sql.listInvocations.all(...scopeParams(scope), limit)
          : sql.listInvocationsBefore.all(...scopeParams(scope), before, limit);
      return (rows as InvocationRow[]).map(invocationFromRow);
    });
  }

  listTransitions(scope: Scope, invocationId: string): Promise<TransitionRecord[]> {
    return this.#call('list transitions', () => {
      const rows = this.#sql.listTransitions.all(invocationId, ...scopeParams(scope)) as TransitionRow[];
      return rows.map(transitionFromRow);
    });
  }

  getResult(scope: Scope, invocationId: string): Promise<ResultRecord | undefined> {
    return this.#call('read the result', () => {
      const row = this.#sql.getResult.get(invocationId, ...scopeParams(scope)) as ResultRow | undefined;
      return row === undefined ? undefined : resultFromRow(row);
    });
  }

  /** Closes the database (checkpointing the WAL). Idempotent; every other call then rejects with `closed`. */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    clearTimeout(this.#checkpointTimer);
    this.#closed = true;
    // The checkpointer's connection goes first, so this one, the last, checkpoints and removes the WAL file.
    return (this.#checkpointer?.close() ?? Promise.resolve()).then(() => {
      try {
        this.#database.close();
      } catch (error) {
        throw asStoreError('close the SQLite store', error);
      }
    });
  }

  /** Runs one store call on the open database, turning every failure into a rejected promise of a `HostError`. */
  #call<T>(doing: string, run: () => T): Promise<T> {
    try {
      if (this.#closed) throw closedError('SQLite store');
      return Promise.resolve(run());
    } catch (error) {
      return Promise.reject(asStoreError(doing, error));
    }
  }
}

/** The file a caller's connection is on (better-sqlite3 tells `name` and `memory`), or undefined for one in memory. */
function fileOf(database: SqliteDatabase | undefined): string | undefined {
  const { name, memory } = (database ?? {}) as { readonly name?: unknown; readonly memory?: unknown };
  return typeof name === 'string' && name !== '' && name !== ':memory:' && memory !== true ? name : undefined;
}

/** The connection the config names: the caller's `database`, or the file at `path` opened with a driver found here. */
function databaseOf(config: SqliteStoreConfig): SqliteDatabase {
  if (config.database !== undefined) return config.database;
  if (typeof config.path === 'string' && config.path !== '') return openSqliteDatabase(config.path).database;
  throw new HostError(
    'config_invalid',
    'SqliteStore needs a path (the database file to open) or a database (a connection opened by the caller)',
  );
}

/** A driver failure as `HostError('store_error')`, with the driver's error as its cause; a `HostError` as is. */
function asStoreError(doing: string, error: unknown): HostError {
  if (error instanceof HostError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new HostError('store_error', `could not ${doing}: ${message}`, { cause: error });
}

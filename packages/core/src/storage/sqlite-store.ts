import { HostError } from '../errors/host-error.js';
import type { Scope } from '../scope.js';
import type {
  HistoryWrite,
  HostStore,
  InvocationRecord,
  ListInvocationsOptions,
  ResultRecord,
  TransitionRecord,
} from './host-store.js';
import { applySqliteMigrations } from './sqlite-migrations.js';
import {
  INVOCATION_COLUMNS,
  RESULT_COLUMNS,
  TRANSITION_COLUMNS,
  errorParam,
  invocationFromRow,
  invocationParams,
  resultFromRow,
  resultParams,
  transitionFromRow,
  transitionParams,
} from './sqlite-rows.js';
import type { InvocationRow, ResultRow, TransitionRow } from './sqlite-rows.js';
import type { SqliteDatabase, SqliteStatement, SqliteStoreConfig } from './sqlite-store-config.js';
import {
  checkFirstTransition,
  checkTransition,
  closedError,
  duplicateInvocation,
  duplicateSeq,
  notFound,
  pageSize,
  staleTransition,
} from './store-checks.js';

const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** Every statement names all three scope keys, so a row of another tenant is simply not found. */
function inScope(alias = ''): string {
  const a = alias === '' ? '' : `${alias}.`;
  return `${a}user_id = ? AND ${a}workspace_id = ? AND ${a}conversation_id = ?`;
}

interface Statements {
  readonly insertInvocation: SqliteStatement;
  readonly insertTransition: SqliteStatement;
  readonly insertResult: SqliteStatement;
  readonly applyTransition: SqliteStatement;
  readonly stateOf: SqliteStatement;
  readonly getInvocation: SqliteStatement;
  readonly listInvocations: SqliteStatement;
  readonly listInvocationsBefore: SqliteStatement;
  readonly listTransitions: SqliteStatement;
  readonly getResult: SqliteStatement;
}

function prepareStatements(db: SqliteDatabase): Statements {
  const newestFirst = 'ORDER BY created_at DESC, rowid DESC LIMIT ?';
  return {
    insertInvocation: db.prepare(`INSERT INTO invocations (${INVOCATION_COLUMNS}) VALUES (${marks(16)})`),
    insertTransition: db.prepare(`INSERT INTO invocation_transitions (${TRANSITION_COLUMNS}) VALUES (${marks(7)})`),
    insertResult: db.prepare(`INSERT INTO invocation_results (${RESULT_COLUMNS}) VALUES (${marks(5)})`),
    // Compare-and-set on the state: a stale or repeated transition changes no row instead of rewriting history.
    applyTransition: db.prepare(
      `UPDATE invocations SET state = ?, outcome = ?, error = ?, updated_at = ? WHERE id = ? AND ${inScope()} AND state = ?`,
    ),
    stateOf: db.prepare(`SELECT state FROM invocations WHERE id = ? AND ${inScope()}`),
    getInvocation: db.prepare(`SELECT ${INVOCATION_COLUMNS} FROM invocations WHERE id = ? AND ${inScope()}`),
    listInvocations: db.prepare(`SELECT ${INVOCATION_COLUMNS} FROM invocations WHERE ${inScope()} ${newestFirst}`),
    listInvocationsBefore: db.prepare(
      `SELECT ${INVOCATION_COLUMNS} FROM invocations WHERE ${inScope()} AND created_at < ? ${newestFirst}`,
    ),
    listTransitions: db.prepare(
      `SELECT ${prefixed('t', TRANSITION_COLUMNS)} FROM invocation_transitions t JOIN invocations i ` +
        `ON i.id = t.invocation_id WHERE t.invocation_id = ? AND ${inScope('i')} ORDER BY t.seq`,
    ),
    getResult: db.prepare(
      `SELECT ${prefixed('r', RESULT_COLUMNS)} FROM invocation_results r JOIN invocations i ` +
        `ON i.id = r.invocation_id WHERE r.invocation_id = ? AND ${inScope('i')}`,
    ),
  };
}

function marks(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

function prefixed(alias: string, columns: string): string {
  return columns
    .split(', ')
    .map((column) => `${alias}.${column}`)
    .join(', ');
}

function scopeParams(scope: Scope): [string, string, string] {
  return [scope.userId, scope.workspaceId, scope.conversationId];
}

/** True when a driver error is a primary key (or unique) clash: the row is already there. */
function isDuplicateKey(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * The embedded `HostStore`: history in one SQLite file (WAL), through a driver the caller opens and hands over, so
 * core itself never loads a native module.
 *
 * Opening sets `journal_mode = WAL` (readers never block the writer), `synchronous = NORMAL` (a committed write
 * survives a crash of the process; only a power loss can take back the last commits), `foreign_keys = ON` and a busy
 * timeout, then applies the schema migrations and prepares every statement once: the call path runs one prepared
 * transaction per write and no schema work. Each write is a single transaction, so after a crash a call's rows are
 * either whole or absent.
 *
 * The constructor throws `HostError('store_error')` when the file's schema is newer than this code knows; the
 * database then stays open and the caller's to close.
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * const store = new SqliteStore({ database: new Database(join(dataDir, 'airlock.db')) });
 * ```
 */
export class SqliteStore implements HostStore {
  readonly #database: SqliteDatabase;
  readonly #sql: Statements;
  readonly #create: (record: InvocationRecord, first: TransitionRecord) => void;
  readonly #transition: (scope: Scope, transition: TransitionRecord, result: ResultRecord | undefined) => void;
  readonly #batch: (writes: readonly HistoryWrite[]) => void;
  #closed = false;
  readonly #idleCheckpointMs: number;
  readonly #checkpointEveryWrites: number;
  #writesSinceCheckpoint = 0;
  #checkpointTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(config: SqliteStoreConfig) {
    this.#idleCheckpointMs = config.idleCheckpointMs ?? 500;
    this.#checkpointEveryWrites = config.checkpointEveryWrites ?? 1000;
    const busyTimeoutMs = config.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
      throw new HostError('config_invalid', `busyTimeoutMs must be an integer >= 0, not ${String(busyTimeoutMs)}`);
    }
    const db = config.database;
    this.#database = db;
    try {
      db.pragma(`busy_timeout = ${busyTimeoutMs}`);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      db.pragma('wal_autocheckpoint = 0');
      applySqliteMigrations(db);
      this.#sql = prepareStatements(db);
    } catch (error) {
      throw asStoreError('open the SQLite store', error);
    }
    const sql = this.#sql;

    const create = (record: InvocationRecord, first: TransitionRecord) => {
      checkFirstTransition(record, first);
      try {
        sql.insertInvocation.run(...invocationParams(record));
      } catch (error) {
        throw isDuplicateKey(error) ? duplicateInvocation(record.id, error) : error;
      }
      sql.insertTransition.run(...transitionParams(first));
    };
    const transition = (scope: Scope, t: TransitionRecord, result: ResultRecord | undefined) => {
      checkTransition(t, result);
      const tenant = scopeParams(scope);
      const { changes } = sql.applyTransition.run(
        t.to,
        t.outcome,
        errorParam(t.error),
        t.at,
        t.invocationId,
        ...tenant,
        t.from,
      );
      if (changes === 0) {
        const row = sql.stateOf.get(t.invocationId, ...tenant) as { state: string } | undefined;
        throw row === undefined ? notFound(t.invocationId) : staleTransition(t, row.state);
      }
      try {
        sql.insertTransition.run(...transitionParams(t));
      } catch (error) {
        throw isDuplicateKey(error) ? duplicateSeq(t, error) : error;
      }
      if (result !== undefined) sql.insertResult.run(...resultParams(result));
    };
    this.#create = db.transaction(create);
    this.#transition = db.transaction(transition);
    this.#batch = db.transaction((writes: readonly HistoryWrite[]) => {
      for (const w of writes) {
        if (w.kind === 'create') create(w.record, w.first);
        else transition(w.scope, w.transition, w.result);
      }
    });
  }

  writeBatch(writes: readonly HistoryWrite[]): Promise<void> {
    return this.#call('store the history batch', () => {
      this.#batch(writes);
      this.#wrote();
    });
  }

  /** Counts a committed write and schedules the WAL checkpoint for when writes pause (or runs it after many). */
  #wrote(): void {
    this.#writesSinceCheckpoint += 1;
    if (this.#writesSinceCheckpoint >= this.#checkpointEveryWrites) {
      this.#checkpoint();
      return;
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

  createInvocation(record: InvocationRecord, first: TransitionRecord): Promise<void> {
    return this.#call('store the invocation', () => {
      this.#create(record, first);
      this.#wrote();
    });
  }

  recordTransition(scope: Scope, transition: TransitionRecord, result?: ResultRecord): Promise<void> {
    return this.#call('store the transition', () => {
      this.#transition(scope, transition, result);
      this.#wrote();
    });
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
      const rows =
        before === undefined
          ? this.#sql.listInvocations.all(...scopeParams(scope), limit)
          : this.#sql.listInvocationsBefore.all(...scopeParams(scope), before, limit);
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
    try {
      this.#database.close();
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(asStoreError('close the SQLite store', error));
    }
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

/** A driver failure as `HostError('store_error')`, with the driver's error as its cause; a `HostError` as is. */
function asStoreError(doing: string, error: unknown): HostError {
  if (error instanceof HostError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new HostError('store_error', `could not ${doing}: ${message}`, { cause: error });
}

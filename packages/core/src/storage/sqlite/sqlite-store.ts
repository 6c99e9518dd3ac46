import { checkPrune, checkpointData } from '../../audit/audit-checkpoint.js';
import type { AuditEvent, AuditEventInput, SealedAuditInput } from '../../audit/audit-event.js';
import { HostError } from '../../errors/host-error.js';
import type { StoredDecision } from '../../permissions/stored-decision.js';
import type { Scope } from '../../scope.js';
import type {
  AuditQuery,
  DecisionTenant,
  HostStore,
  RetentionCandidate,
  RetentionQuery,
  StoreWrite,
} from '../host-store.js';
import type {
  InvocationRecord,
  ListInvocationsOptions,
  ResultRecord,
  TransitionRecord,
} from '../../invocations/invocation-record.js';
import { SqliteAuditQueries } from './sqlite-audit-queries.js';
import { SqliteCredentials } from './sqlite-credentials.js';
import { SqliteSwitches } from './sqlite-switches.js';
import { SqliteTasks } from './sqlite-tasks.js';
import { applySqliteMigrations } from './sqlite-migrations.js';
import { sqliteRetentionCandidates } from './sqlite-retention.js';
import {
  auditFromRow,
  auditParams,
  decisionFromRow,
  decisionParams,
  errorParam,
  invocationFromRow,
  invocationParams,
  resultFromRow,
  resultParams,
  transitionFromRow,
  transitionParams,
} from './sqlite-rows.js';
import type { DecisionRow, InvocationRow, ResultRow, TransitionRow } from './sqlite-rows.js';
import { prepareStatements, scopeParams } from './sqlite-statements.js';
import type { SqliteStatements } from './sqlite-statements.js';
import type { SqliteDatabase, SqliteStoreConfig, SqliteTransaction } from './sqlite-store-config.js';
import {
  auditPage,
  checkFirstTransition,
  checkTransition,
  closedError,
  duplicateDecision,
  duplicateInvocation,
  duplicateSeq,
  notFound,
  pageSize,
  staleTransition,
  sealStoredAuditInput,
  storedDecision,
  unknownWrite,
} from '../store-checks.js';

const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** True when a driver error is a primary key (or unique) clash: the row is already there. */
function isDuplicateKey(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** What the next audit event links to. */
type ChainLink = Pick<AuditEvent, 'seq' | 'hash'>;

/**
 * Appends audit events inside the caller's transaction. The last stored event is read on the first append, inside
 * the transaction (so another connection's events are seen and, the write lock held, cannot slip in between), then
 * followed in memory for the rest of the transaction.
 */
function auditAppender(sql: SqliteStatements): (input: AuditEventInput) => SealedAuditInput {
  let last: ChainLink | undefined | null = null;
  return (input) => {
    if (last === null) last = sql.lastAudit.get() as ChainLink | undefined;
    const sealed = sealStoredAuditInput(input, last);
    sql.insertAudit.run(...auditParams(sealed));
    last = sealed;
    return sealed;
  };
}

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
  readonly #sql: SqliteStatements;
  readonly #auditQueries: SqliteAuditQueries;
  readonly #credentials: SqliteCredentials;
  readonly #tasks: SqliteTasks;
  readonly #switches: SqliteSwitches;
  readonly #write: SqliteTransaction<[readonly StoreWrite[]], void>;
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
      this.#auditQueries = new SqliteAuditQueries(db);
      this.#credentials = new SqliteCredentials(db);
      this.#tasks = new SqliteTasks(db);
      this.#switches = new SqliteSwitches(db);
    } catch (error) {
      throw asStoreError('open the SQLite store', error);
    }
    const sql = this.#sql;
    const credentials = this.#credentials;

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
    const putDecision = (decision: StoredDecision) => {
      const d = storedDecision(decision);
      try {
        sql.upsertDecision.run(...decisionParams(d));
      } catch (error) {
        throw isDuplicateKey(error) ? duplicateDecision(d.id, error) : error;
      }
    };
    const deleteDecisions = (scope: DecisionTenant, ids: readonly string[]) => {
      for (const id of ids) sql.deleteDecision.run(id, scope.userId, scope.workspaceId);
    };
    this.#write = db.transaction((batch: readonly StoreWrite[]) => {
      const append = auditAppender(sql);
      for (const w of batch) {
        switch (w.kind) {
          case 'create':
            create(w.record, w.first);
            break;
          case 'transition':
            transition(w.scope, w.transition, w.result);
            break;
          case 'audit':
            break;
          case 'decision.put':
            putDecision(w.decision);
            break;
          case 'decision.delete':
            deleteDecisions(w.scope, w.ids);
            for (const audit of w.audit) append(audit);
            continue;
          case 'audit.prune': {
            const data = checkpointData(w.checkpoint);
            const { n } = sql.countAuditThrough.get(w.throughSeq) as { n: number };
            checkPrune(w.throughSeq, data, sql.auditAt.get(w.throughSeq) as ChainLink | undefined, n);
            append(w.checkpoint);
            sql.deleteAuditThrough.run(w.throughSeq);
            continue;
          }
          case 'retention.delete':
            for (const id of w.expireResults) sql.expireResult.run(w.at, id);
            for (const id of w.deleteInvocations) sql.deleteEnded.run(id);
            break;
          case 'credential.put':
          case 'credential.delete':
            credentials.apply(w);
            break;
          case 'task.put':
            this.#tasks.put(w.task);
            break;
          case 'switch.put':
          case 'switch.delete':
            this.#switches.apply(w);
            break;
          default:
            throw unknownWrite(w);
        }
        if (w.audit !== undefined) append(w.audit);
      }
    });
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

  listOpenTasks: HostStore['listOpenTasks'] = (filter) =>
    this.#call('list open tasks', () => this.#tasks.listOpen(filter));

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

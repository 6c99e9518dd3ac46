import { checkPrune, checkpointData } from '../../audit/audit-checkpoint.js';
import type { AuditEvent } from '../../store/audit-record.js';
import type { ResultRecord, TransitionRecord } from '../../store/invocation-record.js';
import type { StoredDecision } from '../../store/decision-record.js';
import type { Scope } from '../../scope.js';
import type { StoreWrite } from '../../store/host-store.js';
import {
  checkFirstTransition,
  checkTransition,
  duplicateDecision,
  duplicateSeq,
  notFound,
  staleTransition,
  storedDecision,
  unknownWrite,
} from '../store-checks.js';
import { SqliteAuditAppender } from './sqlite-audit-appender.js';
import type { SqliteCredentials } from './sqlite-credentials.js';
import { SqliteNewCalls } from './sqlite-new-calls.js';
import { SqliteRowInsert } from './sqlite-row-insert.js';
import { scopeParams } from './sqlite-statements.js';
import type { SqliteStatements } from './sqlite-statements.js';
import type { SqliteDatabase } from './sqlite-store-config.js';
import type { SqliteSwitches } from './sqlite-switches.js';
import type { SqliteConversations } from './sqlite-conversations.js';
import type { SqliteViewConsents } from './sqlite-view-consents.js';
import type { SqliteTasks } from './sqlite-tasks.js';
import { AUDIT_COLUMNS } from '../sql/audit-rows.js';
import {
  INVOCATION_COLUMNS,
  RESULT_COLUMNS,
  TRANSITION_COLUMNS,
  errorParam,
  resultParams,
  transitionParams,
} from '../sql/call-rows.js';
import { decisionParams } from '../sql/decision-rows.js';

/** True when a driver error is a primary key (or unique) clash: the row is already there. */
export function isDuplicateKey(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** What a `SqliteBatch` writes through: the store's statements and its parts that apply their own writes. */
export interface SqliteBatchParts {
  readonly database: SqliteDatabase;
  readonly sql: SqliteStatements;
  readonly credentials: SqliteCredentials;
  readonly tasks: SqliteTasks;
  readonly switches: SqliteSwitches;
  readonly conversations: SqliteConversations;
  readonly viewConsents: SqliteViewConsents;
}

/**
 * Applies a batch inside the store's write transaction (the caller opens it and rolls back when this throws), in the
 * batch's order. Calls the batch creates are kept (`SqliteNewCalls`) and inserted whole, with their final state,
 * transitions and results, at the batch's end or before a write that needs their rows; transitions of calls stored
 * earlier run against the database at once. Audit events are sealed in order as they come and inserted together.
 * One per store, reused by every batch. Internal to storage/sqlite/.
 */
export class SqliteBatch {
  readonly #parts: SqliteBatchParts;
  readonly #newCalls: SqliteNewCalls;
  readonly #audit: SqliteAuditAppender;

  constructor(parts: SqliteBatchParts) {
    this.#parts = parts;
    const { database, sql } = parts;
    this.#newCalls = new SqliteNewCalls({
      existingIds: sql.existingIds,
      invocations: new SqliteRowInsert(database, 'invocations', INVOCATION_COLUMNS),
      transitions: new SqliteRowInsert(database, 'invocation_transitions', TRANSITION_COLUMNS),
      results: new SqliteRowInsert(database, 'invocation_results', RESULT_COLUMNS),
    });
    this.#audit = new SqliteAuditAppender(sql.lastAudit, new SqliteRowInsert(database, 'audit_events', AUDIT_COLUMNS));
  }

  /** Applies every write in order; throws at the first refused one. */
  apply(batch: readonly StoreWrite[]): void {
    const newCalls = this.#newCalls;
    const audit = this.#audit;
    const creates: string[] = [];
    for (const w of batch) if (w.kind === 'create' && typeof w.record?.id === 'string') creates.push(w.record.id);
    newCalls.begin(creates);
    audit.begin();
    const { sql, credentials, tasks, switches, conversations, viewConsents } = this.#parts;
    for (const w of batch) {
      switch (w.kind) {
        case 'create':
          checkFirstTransition(w.record, w.first);
          newCalls.create(w.record, w.first);
          break;
        case 'transition':
          this.#transition(w.scope, w.transition, w.result);
          break;
        case 'audit':
          break;
        case 'decision.put':
          this.#putDecision(w.decision);
          break;
        case 'decision.delete':
          for (const id of w.ids) sql.deleteDecision.run(id, w.scope.userId, w.scope.workspaceId);
          for (const event of w.audit) audit.append(event);
          continue;
        case 'audit.prune': {
          const data = checkpointData(w.checkpoint);
          audit.flush();
          const { n } = sql.countAuditThrough.get(w.throughSeq) as { n: number };
          checkPrune(w.throughSeq, data, sql.auditAt.get(w.throughSeq) as ChainLink | undefined, n);
          audit.append(w.checkpoint);
          audit.flush();
          sql.deleteAuditThrough.run(w.throughSeq);
          continue;
        }
        case 'retention.delete':
          newCalls.flush();
          for (const id of w.expireResults) sql.expireResult.run(w.at, id);
          for (const id of w.deleteInvocations) sql.deleteEnded.run(id);
          break;
        case 'credential.put':
        case 'credential.delete':
          credentials.apply(w);
          break;
        case 'task.put':
          // The call may be one this batch creates: those are inserted first, so the handle can reference it.
          newCalls.flush();
          tasks.put(w.task);
          break;
        case 'switch.put':
        case 'switch.delete':
          switches.apply(w);
          break;
        case 'conversation.put':
        case 'conversation.delete':
          conversations.apply(w);
          continue;
        case 'viewConsent.put':
        case 'viewConsent.delete':
          viewConsents.apply(w);
          continue;
        default:
          throw unknownWrite(w);
      }
      if (w.audit !== undefined) audit.append(w.audit);
    }
    newCalls.flush();
    audit.flush();
  }

  #transition(scope: Scope, t: TransitionRecord, result: ResultRecord | undefined): void {
    checkTransition(t, result);
    if (this.#newCalls.has(t.invocationId)) {
      this.#newCalls.transition(scope, t, result);
      return;
    }
    const { sql } = this.#parts;
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
  }

  #putDecision(decision: StoredDecision): void {
    const d = storedDecision(decision);
    try {
      this.#parts.sql.upsertDecision.run(...decisionParams(d));
    } catch (error) {
      throw isDuplicateKey(error) ? duplicateDecision(d.id, error) : error;
    }
  }
}

/** What the next audit event links to. */
type ChainLink = Pick<AuditEvent, 'seq' | 'hash'>;

import { checkPrune, checkpointData } from '../../audit/audit-checkpoint.js';
import type { AuditEvent, AuditEventInput, SealedAuditInput } from '../../audit/audit-event.js';
import type { InvocationRecord, ResultRecord, TransitionRecord } from '../../invocations/invocation-record.js';
import type { StoredDecision } from '../../permissions/stored-decision.js';
import type { Scope } from '../../scope.js';
import type { DecisionTenant, StoreWrite } from '../host-store.js';
import { auditParams, decisionParams, errorParam, invocationParams, transitionParams } from '../sqlite/sqlite-rows.js';
import {
  checkFirstTransition,
  checkTransition,
  duplicateDecision,
  duplicateInvocation,
  duplicateSeq,
  notFound,
  sealStoredAuditInput,
  staleTransition,
  storedDecision,
  unknownWrite,
} from '../store-checks.js';
import { applyCredentialWrite } from './postgres-credentials.js';
import { SQL, insertAuditRows, resultValues, scopeValues, statement } from './postgres-statements.js';
import type { PgClient, PgQueryResult } from './postgres-store-config.js';

/** What the next audit event links to. */
type ChainLink = Pick<AuditEvent, 'seq' | 'hash'>;

/** The most audit rows one INSERT carries (14 values each, well under the protocol's 65535 parameters). */
const AUDIT_ROWS_PER_INSERT = 500;

/** True when a driver error is a unique violation (SQLSTATE 23505): the row is already there. */
function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}

/**
 * One batch, applied on one connection inside the transaction the caller opened (which took the chain lock first).
 * The chain head is read on the first append, under the lock, so no other writer can append between that read and
 * this commit; sealed events are kept and inserted together before the commit (or before a prune reads the chain).
 */
export class PostgresBatch {
  readonly #client: PgClient;
  #last: ChainLink | undefined | null = null;
  readonly #pending: SealedAuditInput[] = [];

  constructor(client: PgClient) {
    this.#client = client;
  }

  #run(name: keyof typeof SQL, values: unknown[]): Promise<PgQueryResult> {
    return this.#client.query(statement(name, SQL[name], values));
  }

  /** Applies every write in order; throws (and the caller rolls back) at the first refused one. */
  async apply(batch: readonly StoreWrite[]): Promise<void> {
    for (const w of batch) {
      switch (w.kind) {
        case 'create':
          await this.#create(w.record, w.first);
          break;
        case 'transition':
          await this.#transition(w.scope, w.transition, w.result);
          break;
        case 'audit':
          break;
        case 'decision.put':
          await this.#putDecision(w.decision);
          break;
        case 'decision.delete':
          await this.#deleteDecisions(w.scope, w.ids);
          for (const audit of w.audit) await this.#append(audit);
          continue;
        case 'audit.prune':
          await this.#prune(w.throughSeq, w.checkpoint);
          continue;
        case 'retention.delete':
          if (w.expireResults.length > 0) await this.#run('expireResults', [w.at, [...w.expireResults]]);
          if (w.deleteInvocations.length > 0) await this.#run('deleteEnded', [[...w.deleteInvocations]]);
          break;
        case 'credential.put':
        case 'credential.delete':
          await applyCredentialWrite(this.#client, w);
          break;
        default:
          throw unknownWrite(w);
      }
      if (w.audit !== undefined) await this.#append(w.audit);
    }
    await this.#flushAudit();
  }

  async #create(record: InvocationRecord, first: TransitionRecord): Promise<void> {
    checkFirstTransition(record, first);
    try {
      await this.#run('insertInvocation', invocationParams(record));
    } catch (error) {
      throw isDuplicateKey(error) ? duplicateInvocation(record.id, error) : error;
    }
    await this.#run('insertTransition', transitionParams(first));
  }

  async #transition(scope: Scope, t: TransitionRecord, result: ResultRecord | undefined): Promise<void> {
    checkTransition(t, result);
    const tenant = scopeValues(scope);
    const { rowCount } = await this.#run('applyTransition', [
      t.to,
      t.outcome,
      errorParam(t.error),
      t.at,
      t.invocationId,
      ...tenant,
      t.from,
    ]);
    if (rowCount === 0) {
      const { rows } = await this.#run('stateOf', [t.invocationId, ...tenant]);
      const row = rows[0] as { state: string } | undefined;
      throw row === undefined ? notFound(t.invocationId) : staleTransition(t, row.state);
    }
    try {
      await this.#run('insertTransition', transitionParams(t));
    } catch (error) {
      throw isDuplicateKey(error) ? duplicateSeq(t, error) : error;
    }
    if (result !== undefined) await this.#run('insertResult', resultValues(result));
  }

  async #putDecision(decision: StoredDecision): Promise<void> {
    const d = storedDecision(decision);
    try {
      await this.#run('upsertDecision', decisionParams(d));
    } catch (error) {
      throw isDuplicateKey(error) ? duplicateDecision(d.id, error) : error;
    }
  }

  async #deleteDecisions(scope: DecisionTenant, ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.#run('deleteDecisions', [[...ids], scope.userId, scope.workspaceId]);
  }

  /** Appends the checkpoint, then deletes the events through `throughSeq`, after checking what it names. */
  async #prune(throughSeq: number, checkpoint: AuditEventInput): Promise<void> {
    const data = checkpointData(checkpoint);
    await this.#flushAudit();
    const counted = await this.#run('countAuditThrough', [throughSeq]);
    const at = await this.#run('auditAt', [throughSeq]);
    const n = (counted.rows[0] as { n: number }).n;
    checkPrune(throughSeq, data, at.rows[0] as ChainLink | undefined, n);
    await this.#append(checkpoint);
    await this.#flushAudit();
    await this.#run('deleteAuditThrough', [throughSeq]);
  }

  /** Seals the next event of the chain (reading the head on the first append) and keeps it for the insert. */
  async #append(input: AuditEventInput): Promise<void> {
    if (this.#last === null) {
      const { rows } = await this.#run('lastAudit', []);
      this.#last = rows[0] as ChainLink | undefined;
    }
    const sealed = sealStoredAuditInput(input, this.#last);
    this.#pending.push(sealed);
    this.#last = sealed;
  }

  async #flushAudit(): Promise<void> {
    while (this.#pending.length > 0) {
      const rows = this.#pending.splice(0, AUDIT_ROWS_PER_INSERT);
      // One prepared statement per row count of a full chunk; odd counts run unnamed.
      const text = insertAuditRows(rows.length);
      const values = rows.flatMap(auditParams);
      await this.#client.query(
        rows.length === 1 || rows.length === AUDIT_ROWS_PER_INSERT
          ? { name: `airlock_insert_audit_${rows.length}`, text, values }
          : { text, values },
      );
    }
  }
}

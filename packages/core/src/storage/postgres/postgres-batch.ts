import { checkPrune, checkpointData } from '../../audit/audit-checkpoint.js';
import type { SealedAuditInput } from '../../audit/audit-chain.js';
import type { AuditEvent, AuditEventInput } from '../../store/audit-record.js';
import type { InvocationRecord, ResultRecord, TransitionRecord } from '../../store/invocation-record.js';
import type { StoredDecision } from '../../store/decision-record.js';
import type { Scope } from '../../scope.js';
import type { DecisionTenant, StoreWrite } from '../../store/host-store.js';
import {
  checkFirstTransition,
  checkTransition,
  duplicateDecision,
  duplicateSeq,
  notFound,
  sealStoredAuditInput,
  staleTransition,
  storedDecision,
  unknownWrite,
} from '../store-checks.js';
import { applyCredentialWrite } from './postgres-credentials.js';
import { applySwitchWrite } from './postgres-switches.js';
import { applyConversationWrite } from './postgres-conversations.js';
import { applyViewConsentWrite } from './postgres-view-consents.js';
import { putTask } from './postgres-tasks.js';
import { NOTIFY_DECISIONS, tenantPayload } from './postgres-decision-news.js';
import { NewCalls, insertRows } from './postgres-new-calls.js';
import { SQL, resultValues, scopeValues, statement } from './postgres-statements.js';
import type { PgClient, PgQueryResult } from './postgres-store-config.js';
import { AUDIT_COLUMNS, auditParams } from '../sql/audit-rows.js';
import { errorParam, transitionParams } from '../sql/call-rows.js';
import { decisionParams } from '../sql/decision-rows.js';

/** What the next audit event links to. */
type ChainLink = Pick<AuditEvent, 'seq' | 'hash'>;

/** True when a driver error is a unique violation (SQLSTATE 23505): the row is already there. */
function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}

/**
 * One batch, applied on one connection inside the transaction the caller opened (which took the chain lock first).
 * The chain head was read under the lock, so no other writer can append between that read and this commit; sealed events are kept and inserted together before the commit (or before a prune reads the chain).
 * Calls the batch creates are kept too (`NewCalls`) and inserted whole, with their transitions and results, at its
 * end; transitions of calls stored earlier run against the database at once.
 */
export class PostgresBatch {
  readonly #client: PgClient;
  /** The last event of the chain: read under the chain lock as the transaction began, then the last one sealed. */
  #last: ChainLink | undefined;
  readonly #pending: SealedAuditInput[] = [];
  readonly #newCalls = new NewCalls();
  /** The tenants whose decisions the batch changed, as notification payloads. */
  readonly #tenants = new Set<string>();

  constructor(client: PgClient, head: ChainLink | undefined) {
    this.#client = client;
    this.#last = head;
  }

  #run(name: keyof typeof SQL, values: unknown[]): Promise<PgQueryResult> {
    return this.#client.query(statement(name, SQL[name], values));
  }

  /** Applies every write in order; throws (and the caller rolls back) at the first refused one. */
  async apply(batch: readonly StoreWrite[]): Promise<void> {
    const creates = batch.flatMap((w) =>
      w.kind === 'create' && typeof w.record?.id === 'string' ? [w.record.id] : [],
    );
    await this.#newCalls.lookUp(this.#client, creates);
    for (const w of batch) {
      switch (w.kind) {
        case 'create':
          this.#create(w.record, w.first);
          break;
        case 'transition':
          await this.#transition(w.scope, w.transition, w.result);
          break;
        case 'audit':
          break;
        case 'decision.put':
          await this.#putDecision(w.decision);
          this.#tenants.add(tenantPayload(w.decision));
          break;
        case 'decision.delete':
          await this.#deleteDecisions(w.scope, w.ids);
          this.#tenants.add(tenantPayload(w.scope));
          for (const audit of w.audit) this.#append(audit);
          continue;
        case 'audit.prune':
          await this.#prune(w.throughSeq, w.checkpoint);
          continue;
        case 'retention.delete':
          await this.#newCalls.flush(this.#client);
          if (w.expireResults.length > 0) await this.#run('expireResults', [w.at, [...w.expireResults]]);
          if (w.deleteInvocations.length > 0) await this.#run('deleteEnded', [[...w.deleteInvocations]]);
          break;
        case 'credential.put':
        case 'credential.delete':
          await applyCredentialWrite(this.#client, w);
          break;
        case 'task.put':
          // The call may be one this batch creates: those are inserted first, so the handle can reference it.
          await this.#newCalls.flush(this.#client);
          await putTask(this.#client, w.task);
          break;
        case 'switch.put':
        case 'switch.delete':
          await applySwitchWrite(this.#client, w);
          break;
        case 'conversation.put':
        case 'conversation.delete':
          await applyConversationWrite(this.#client, w);
          continue;
        case 'viewConsent.put':
        case 'viewConsent.delete':
          await applyViewConsentWrite(this.#client, w);
          continue;
        default:
          throw unknownWrite(w);
      }
      if (w.audit !== undefined) this.#append(w.audit);
    }
    await this.#newCalls.flush(this.#client);
    await this.#flushAudit();
    // Sent when the transaction commits, and only then: the other instances reload these tenants' decisions.
    if (this.#tenants.size > 0) {
      await this.#client.query({
        name: 'airlock_notify_decisions',
        text: NOTIFY_DECISIONS,
        values: [[...this.#tenants]],
      });
    }
  }

  #create(record: InvocationRecord, first: TransitionRecord): void {
    checkFirstTransition(record, first);
    this.#newCalls.create(record, first);
  }

  async #transition(scope: Scope, t: TransitionRecord, result: ResultRecord | undefined): Promise<void> {
    checkTransition(t, result);
    if (this.#newCalls.has(t.invocationId)) {
      this.#newCalls.transition(scope, t, result);
      return;
    }
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
    this.#append(checkpoint);
    await this.#flushAudit();
    await this.#run('deleteAuditThrough', [throughSeq]);
  }

  /** Seals the next event of the chain and keeps it for the insert. */
  #append(input: AuditEventInput): void {
    const sealed = sealStoredAuditInput(input, this.#last);
    this.#pending.push(sealed);
    this.#last = sealed;
  }

  async #flushAudit(): Promise<void> {
    const rows = this.#pending.splice(0).map(auditParams);
    await insertRows(this.#client, 'audit_events', AUDIT_COLUMNS, rows);
  }
}

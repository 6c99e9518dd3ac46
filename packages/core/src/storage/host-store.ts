import type { Scope } from '../scope.js';
import type {
  InvocationRecord,
  ListInvocationsOptions,
  ResultRecord,
  TransitionRecord,
} from '../invocations/invocation-record.js';
import type { AuditEvent, AuditEventInput, AuditEventType } from '../audit/audit-event.js';
import type { StoredDecision } from '../permissions/stored-decision.js';

/** One history write, as the call path queues it: a new invocation, or one transition (with the result at the end). */
export type HistoryWrite =
  | {
      readonly kind: 'create';
      readonly record: InvocationRecord;
      readonly first: TransitionRecord;
      /** The audit event of the pending transition, chained in the same transaction. */
      readonly audit?: AuditEventInput;
    }
  | {
      readonly kind: 'transition';
      readonly scope: Scope;
      readonly transition: TransitionRecord;
      readonly result?: ResultRecord;
      readonly audit?: AuditEventInput;
    }
  /** An audit event alone (a decision a rule or a stored decision made), in order with the history around it. */
  | { readonly kind: 'audit'; readonly audit: AuditEventInput };

/** Which audit events to read. `userId` and `workspaceId` scope a tenant's own view; absent, every tenant's. */
export interface AuditQuery {
  readonly userId?: string;
  readonly workspaceId?: string;
  readonly type?: AuditEventType;
  readonly serverId?: string;
  readonly tool?: string;
  readonly invocationId?: string;
  /** Inclusive time bounds, in milliseconds. */
  readonly since?: number;
  readonly until?: number;
  /** Only events after this sequence number (for paging); oldest first. */
  readonly afterSeq?: number;
  /** Default 1000, at most 10000. */
  readonly limit?: number;
}

/**
 * Everything the host keeps, in domain terms. Every read takes the caller's scope and finds nothing (undefined or an
 * empty list) for another tenant's rows. Every write is atomic: after a crash a row is either whole or absent.
 *
 * Implementations: `MemoryStore` (tests, ephemeral hosts) and `SqliteStore` (the embedded default). One contract
 * suite runs over both.
 */
export interface HostStore {
  /** Stores a new invocation in state pending together with its first transition. */
  createInvocation(record: InvocationRecord, first: TransitionRecord): Promise<void>;
  /**
   * Applies one transition: appends the transition row and updates the invocation's state, outcome, error and
   * updatedAt, and stores the result when given, all in one atomic write.
   */
  recordTransition(scope: Scope, transition: TransitionRecord, result?: ResultRecord): Promise<void>;
  /**
   * Applies several writes in order as one atomic write: all are stored or none. The call path queues its writes
   * and hands them over in batches, so a burst of transitions costs one commit.
   */
  writeBatch(writes: readonly HistoryWrite[]): Promise<void>;
  getInvocation(scope: Scope, id: string): Promise<InvocationRecord | undefined>;

  /**
   * Stores a decision, replacing the one with the same key (user, workspace, server identity, tool, args hash), and
   * appends its audit event, in one atomic write.
   */
  putDecision(decision: StoredDecision, audit: AuditEventInput): Promise<void>;
  /** Deletes the tenant's decisions with these ids and appends the audit events, atomically; returns how many. */
  deleteDecisions(
    scope: { readonly userId: string; readonly workspaceId: string },
    ids: readonly string[],
    audit: readonly AuditEventInput[],
  ): Promise<number>;
  /** Decisions, of one tenant or (no filter) of all: the permission engine loads them into memory at start. */
  listDecisions(filter: { readonly userId?: string; readonly workspaceId?: string }): Promise<StoredDecision[]>;

  /**
   * Appends events to the one hash chain (each linked to the last stored event with `chainEvent`) and returns them
   * sealed. Atomic: all or none.
   */
  appendAudit(events: readonly AuditEventInput[]): Promise<AuditEvent[]>;
  /** Events matching a query, oldest first. */
  queryAudit(query: AuditQuery): Promise<AuditEvent[]>;
  listInvocations(scope: Scope, options?: ListInvocationsOptions): Promise<InvocationRecord[]>;
  listTransitions(scope: Scope, invocationId: string): Promise<TransitionRecord[]>;
  getResult(scope: Scope, invocationId: string): Promise<ResultRecord | undefined>;
  /** Releases the store's resources. Further calls fail. */
  close(): Promise<void>;
}

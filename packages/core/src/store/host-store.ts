import type { AuditEvent, AuditEventInput, AuditEventType } from './audit-record.js';
import type { InvocationRecord, ListInvocationsOptions, ResultRecord, TransitionRecord } from './invocation-record.js';
import type { InvocationTask, OpenTaskFilter } from './invocation-task.js';
import type { StoredDecision } from './decision-record.js';
import type { Scope } from '../scope.js';
import type { CredentialFilter, CredentialKey, CredentialMatch, CredentialRecord } from './credentials.js';
import type { SwitchKey, SwitchRecord } from './switches.js';
import type { KeptReadRecord } from './kept-read.js';
import type { ConversationRecord, ConversationSummary } from './conversation-record.js';
import type { ViewConsentFilter, ViewConsentKey, ViewConsentRecord } from './view-consent-record.js';

/**
 * The tenant a permission decision belongs to: decisions are per user and workspace (one that holds in a single
 * conversation names it in the decision itself, and is listed and revoked with the tenant's others).
 */
export interface DecisionTenant {
  readonly userId: string;
  readonly workspaceId: string;
}

/** What identifies a stored decision in the store: one per tenant, server identity, tool, arguments and conversation. */
export type DecisionKeyFields = Pick<
  StoredDecision,
  'userId' | 'workspaceId' | 'serverIdentity' | 'tool' | 'argsHash' | 'conversationId'
>;

/**
 * One write of a batch. Each kind carries the audit events that record it, so a row and its event are stored in the
 * same transaction: the audit chain never tells of a write that was not kept, nor misses one that was.
 */
export type StoreWrite =
  /** A new invocation in state pending, with its first transition. */
  | {
      readonly kind: 'create';
      readonly record: InvocationRecord;
      readonly first: TransitionRecord;
      /** The audit event of the pending transition. */
      readonly audit?: AuditEventInput;
    }
  /**
   * One move of the state machine: appends the transition and updates the invocation's state, outcome, error and
   * updatedAt; the result comes with the transition that ends the call.
   */
  | {
      readonly kind: 'transition';
      readonly scope: Scope;
      readonly transition: TransitionRecord;
      readonly result?: ResultRecord;
      readonly audit?: AuditEventInput;
    }
  /**
   * Stores the task handle of a call that runs as a task, replacing the call's previous one (a task's status moves).
   * Refused (`not_found`) when the call is not stored in the task's scope.
   */
  | { readonly kind: 'task.put'; readonly task: InvocationTask; readonly audit?: AuditEventInput }
  /** An audit event alone (a decision a rule or a stored decision made), in order with the history around it. */
  | { readonly kind: 'audit'; readonly audit: AuditEventInput }
  /**
   * Stores a decision, replacing the one with the same key (user, workspace, server identity, tool, args hash,
   * conversation), id included. An id that another key's decision holds is refused.
   */
  | { readonly kind: 'decision.put'; readonly decision: StoredDecision; readonly audit: AuditEventInput }
  /** Deletes the tenant's decisions with these ids (another tenant's ids and unknown ids delete nothing). */
  | {
      readonly kind: 'decision.delete';
      readonly scope: DecisionTenant;
      readonly ids: readonly string[];
      readonly audit: readonly AuditEventInput[];
    }
  /**
   * Prunes the audit chain: appends `checkpoint` (an `audit.checkpoint` event carrying event `throughSeq`'s hash and
   * the count deleted), then deletes every event up to and including `throughSeq`, in one atomic write, so the chain
   * is never without the hash its first kept event links to. Refused when event `throughSeq` is absent or its hash
   * or the count differ from the checkpoint's.
   */
  | { readonly kind: 'audit.prune'; readonly throughSeq: number; readonly checkpoint: AuditEventInput }
  /**
   * One batch of a retention sweep, with its `retention.sweep` audit event: empties the whole text of these calls'
   * results (`fullText`, `rawJson`; the model and screen payloads stay, `expiredAt` is set to `at`), and deletes these
   * calls with their transitions and results. A call that has not ended (pending or running) is left alone, as are
   * unknown ids and results already expired: a sweep never takes what a running call needs.
   */
  | {
      readonly kind: 'retention.delete';
      readonly expireResults: readonly string[];
      readonly deleteInvocations: readonly string[];
      readonly at: number;
      readonly audit: AuditEventInput;
    }
  /**
   * Stores a credential (sealed by the token vault: the store never sees a token in the clear), replacing the one
   * with the same key.
   */
  | {
      readonly kind: 'credential.put';
      readonly key: CredentialKey;
      readonly sealed: string;
      readonly updatedAt: number;
      readonly audit?: AuditEventInput;
    }
  /**
   * Keeps a conversation whole, replacing the tenant's one with the same id (its `createdAt` is kept). With
   * `ifUpdatedAt`, only over the revision it names (`null`: none kept yet); any other is refused with `conflict`, so
   * two writers cannot overwrite each other's newer revision.
   */
  | { readonly kind: 'conversation.put'; readonly record: ConversationRecord; readonly ifUpdatedAt?: number | null }
  /** Forgets a tenant's conversation (an unknown id, or another tenant's, deletes nothing). */
  | { readonly kind: 'conversation.delete'; readonly tenant: DecisionTenant; readonly id: string }
  /** Keeps a user's answer about a view's browser feature, replacing the one with the same key. */
  | { readonly kind: 'viewConsent.put'; readonly record: ViewConsentRecord }
  /** Forgets a user's answer about a view's browser feature (none under the key: nothing). */
  | { readonly kind: 'viewConsent.delete'; readonly key: ViewConsentKey }
  /** Turns a switch off (a server for everyone, a tool hidden from the model), replacing the row with its key. */
  | { readonly kind: 'switch.put'; readonly record: SwitchRecord; readonly audit: AuditEventInput }
  /** Turns a switch on again: deletes the row with this key (none: nothing; the audit event is stored all the same). */
  | { readonly kind: 'switch.delete'; readonly key: SwitchKey; readonly audit: AuditEventInput }
  /**
   * Deletes the credential with `key`, or every credential `match` takes (a user's for one server; an issuer's client
   * entries). Deleting what is absent deletes nothing; the audit event is stored all the same.
   */
  | {
      readonly kind: 'credential.delete';
      readonly key?: CredentialKey;
      readonly match?: CredentialMatch;
      readonly audit?: AuditEventInput;
    };

/** Which ended calls a retention sweep may touch: every tenant's, in one workspace or outside some. */
export interface RetentionQuery {
  /** `results`: calls whose result still has its whole text; `invocations`: the calls themselves. */
  readonly kind: 'results' | 'invocations';
  /** Calls that ended (last updated) before this time, in milliseconds. */
  readonly before: number;
  readonly workspaceId?: string;
  /** Workspaces to leave out (those with their own retention windows). */
  readonly exceptWorkspaces?: readonly string[];
  /** At most this many, oldest first. */
  readonly limit: number;
}

/** A call a retention sweep may touch. */
export interface RetentionCandidate {
  readonly invocationId: string;
  readonly userId: string;
  readonly workspaceId: string;
  readonly endedAt: number;
}

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
 * Everything the host keeps, in domain terms: one `write` and the reads. Every read takes the caller's scope and
 * finds nothing (undefined or an empty list) for another tenant's rows.
 *
 * There is one way in, the way production writes: the history writer (history/history-writer.ts) hands over batches,
 * and a store needs no second path for single writes that could drift from it. The rules every store enforces are
 * written once, in storage/store-checks.ts; the contract suite (`@airlock/core/testing`) runs over every store.
 *
 * Implementations: `MemoryStore` (tests, ephemeral hosts), `SqliteStore` (the embedded default,
 * `@airlock/core/sqlite`), `PostgresStore` (several instances on one database, `@airlock/core/postgres`) and
 * `WorkerStore` (any store on a worker thread, `@airlock/core/worker`).
 */
export interface HostStore {
  /**
   * Applies the writes in order as one atomic write: all are stored or none (a refused write, and every write of its
   * batch, leaves no row and no audit event). Audit events are chained in the order of the writes. A burst of the
   * call path's writes costs one commit.
   *
   * The history writer may call `write` again before the last call's promise has settled (a caller that never yields
   * to the event loop, a store on another thread): batches are applied in the order of the calls, and the promise
   * resolves once its batch is committed (a crash after that cannot take it back). A store that commits inside the
   * call (SqliteStore, MemoryStore) has both for free; `serveStore` serializes the writes of the store it serves.
   */
  write(batch: readonly StoreWrite[]): Promise<void>;
  getInvocation(scope: Scope, id: string): Promise<InvocationRecord | undefined>;
  listInvocations(scope: Scope, options?: ListInvocationsOptions): Promise<InvocationRecord[]>;
  listTransitions(scope: Scope, invocationId: string): Promise<TransitionRecord[]>;
  getResult(scope: Scope, invocationId: string): Promise<ResultRecord | undefined>;
  /** The task handle of a call that ran or runs as a task; undefined for any other call or another tenant's. */
  getTask(scope: Scope, invocationId: string): Promise<InvocationTask | undefined>;
  /**
   * Tasks still open (their status and their call's state not ended), oldest first: of every tenant for a host that
   * resumes them at start, or of one user or workspace (`airlock tasks`). An operator's read, like `listRetention`.
   */
  listOpenTasks(filter: OpenTaskFilter): Promise<InvocationTask[]>;
  /**
   * On a store several instances share (PostgresStore): the open tasks this instance may follow, claimed for it in
   * the store, so each open task is followed by one instance. Claimed are those with no live owner: made by a host
   * without an instance id, by this instance, or by one that no longer has a heartbeat row (stopped, or found dead
   * and taken by a sweep). The claimer's own row is made first if its heartbeat has not beaten yet, so two instances
   * starting at once cannot both claim. Tasks of `skipServers` (switched off on this instance)
   * are left for an instance that runs them. Without this method every open task is the host's own (one host on the
   * store: SQLite, memory).
   */
  claimOpenTasks?(options: { readonly skipServers: readonly string[] }): Promise<InvocationTask[]>;
  /** Decisions, of one tenant or (no filter) of all: the permission engine loads them into memory at start. */
  listDecisions(filter: { readonly userId?: string; readonly workspaceId?: string }): Promise<StoredDecision[]>;
  /** Events matching a query, oldest first. */
  queryAudit(query: AuditQuery): Promise<AuditEvent[]>;
  /** Ended calls (never pending or running) a retention sweep may touch, oldest first: an operator's read. */
  listRetention(query: RetentionQuery): Promise<RetentionCandidate[]>;
  /** The credential with exactly this key, or undefined. The auth layer reads only its own user's keys. */
  getCredential(key: CredentialKey): Promise<CredentialRecord | undefined>;
  /** Credentials whose key matches every field the filter gives (for `auth status`: a user's tokens). */
  listCredentials(filter: CredentialFilter): Promise<CredentialRecord[]>;
  /** The tenant's conversation with this id, contents included, or undefined. */
  getConversation(tenant: DecisionTenant, id: string): Promise<ConversationRecord | undefined>;
  /** The tenant's conversations, most recently updated first, at most `limit` (default 100, at most 1000). */
  listConversations(tenant: DecisionTenant, options?: { readonly limit?: number }): Promise<ConversationSummary[]>;
  /** The tenant's answers about views' browser features that `filter` takes, by server, view and feature. */
  listViewConsents(tenant: DecisionTenant, filter?: ViewConsentFilter): Promise<ViewConsentRecord[]>;
  /**
   * Conversations of every tenant last updated before `before`, oldest first, at most `limit` (1 to 1000): what a
   * retention sweep deletes. An operator's read, like `listRetention`.
   */
  listStaleConversations(query: { readonly before: number; readonly limit: number }): Promise<ConversationSummary[]>;
  /** Every switch that is off (servers switched off, tools hidden from the model): a host loads them at start. */
  listSwitches(): Promise<SwitchRecord[]>;
  /**
   * Given by stores that several hosts share (`PostgresStore`): calls `listener` when a tenant's decisions may have
   * changed in the store, whichever host changed them (`undefined`: any tenant's, e.g. after missed notifications),
   * so each host's in-memory decisions follow. Returns what stops it; `close` stops every listener.
   */
  watchDecisions?(listener: (tenant: DecisionTenant | undefined) => void): () => void;
  /**
   * Given with `watchDecisions`: the decision the store holds now under this key (tenant, server identity, tool,
   * arguments' hash or null), one indexed read. A host checks a stored allow with it before running a call, since a
   * revoke on another host may not have been heard yet.
   */
  findDecision?(key: DecisionKeyFields): Promise<StoredDecision | undefined>;
  /**
   * Given by a store several hosts share: tells `listener` when a switch changed on any host, or when changes may
   * have gone unheard; the host then reads `listSwitches` again. Returns what stops it; `close` stops every listener.
   */
  watchSwitches?(listener: () => void): () => void;
  /**
   * Given by a store several hosts share: keeps a resource read whole behind its handle, and drops reads kept before
   * `dropBefore` (the results' retention), so a handle made on one host opens on any. A host alone keeps its reads in
   * memory instead.
   */
  keepRead?(read: KeptReadRecord, dropBefore: number | null): Promise<void>;
  /**
   * Given with `keepRead`: the read kept under `id` for this tenant since `keptAfter` (null: whenever), or undefined
   * (another tenant's, past the retention, or dropped).
   */
  findKeptRead?(tenant: DecisionTenant, id: string, keptAfter: number | null): Promise<KeptReadRecord | undefined>;
  /** Releases the store's resources. Idempotent; every other call then rejects with `closed`. */
  close(): Promise<void>;
}

import type { Scope } from '../scope.js';
import type { Caller } from '../tools/tool.js';
import type { InvocationOutcome, InvocationState } from '../invocations/invocation-state.js';
import type { ModelPayload, ScreenPayload } from '../invocations/bounded-result-types.js';

/** Why a call failed, as stored and shown: a string code for local failures, the JSON-RPC code for protocol errors. */
export interface InvocationError {
  readonly code: string | number;
  readonly message: string;
}

/** One tool call as history keeps it. */
export interface InvocationRecord {
  readonly id: string;
  readonly scope: Scope;
  readonly caller: Caller;
  /** The host-unique tool name (namespaced for MCP tools). */
  readonly tool: string;
  /** The server's id for MCP tools; null for native tools. */
  readonly serverId: string | null;
  /** The name the tool has on its own server (the native name for native tools). */
  readonly originalName: string;
  readonly definitionHash: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** sha256 of the RFC 8785 canonical JSON of `args`. */
  readonly argsHash: string;
  readonly state: InvocationState;
  readonly outcome: InvocationOutcome | null;
  readonly error: InvocationError | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** One move of the state machine. `seq` starts at 1 with the pending row. */
export interface TransitionRecord {
  readonly invocationId: string;
  readonly seq: number;
  readonly from: InvocationState | null;
  readonly to: InvocationState;
  readonly at: number;
  readonly outcome: InvocationOutcome | null;
  readonly error: InvocationError | null;
}

/** The stored result of a finished call: exactly what the model was given, the screen view, and the whole. */
export interface ResultRecord {
  readonly invocationId: string;
  readonly model: ModelPayload;
  readonly screen: ScreenPayload;
  readonly fullText: string;
  readonly rawJson: string;
}

/** A page of history, newest first. */
export interface ListInvocationsOptions {
  readonly limit?: number;
  /** Only calls created strictly before this time (for paging). */
  readonly before?: number;
}

/** One history write, as the call path queues it: a new invocation, or one transition (with the result at the end). */
export type HistoryWrite =
  | { readonly kind: 'create'; readonly record: InvocationRecord; readonly first: TransitionRecord }
  | {
      readonly kind: 'transition';
      readonly scope: Scope;
      readonly transition: TransitionRecord;
      readonly result?: ResultRecord;
    };

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
  listInvocations(scope: Scope, options?: ListInvocationsOptions): Promise<InvocationRecord[]>;
  listTransitions(scope: Scope, invocationId: string): Promise<TransitionRecord[]>;
  getResult(scope: Scope, invocationId: string): Promise<ResultRecord | undefined>;
  /** Releases the store's resources. Further calls fail. */
  close(): Promise<void>;
}

import type { Scope } from '../scope.js';
import type { Caller } from '../caller.js';
import type { ModelPayload, ScreenPayload } from './bounded-result-types.js';
import type { InvocationOutcome, InvocationState } from './invocation-state.js';

// The invocation's own records, in domain terms. They live with the invocation, not with storage: the pipeline builds
// them, surfaces read them, and every store (the port in store/host-store.ts) keeps them as they are.

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
  /** The model's own id for the call (`InvokeOptions.modelCallId`); absent when the caller gave none. */
  readonly modelCallId?: string;
  /** The id of the conversation's message whose turn made the call (`InvokeOptions.messageId`); absent when none. */
  readonly messageId?: string;
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
  /**
   * Set when retention removed the whole text (`fullText` and `rawJson` are then empty; the model and screen payloads
   * stay): when it did, so reading the handle can answer "expired on ..." rather than "not found".
   */
  readonly expiredAt?: number;
}

/** A page of history, newest first. */
export interface ListInvocationsOptions {
  readonly limit?: number;
  /** Only calls created strictly before this time (for paging). */
  readonly before?: number;
  /** Every conversation of the scope's user in its workspace, not only `scope.conversationId`. */
  readonly allConversations?: boolean;
  /** Only the calls made under this model call id, so an adapter can tell a call it already recorded. */
  readonly modelCallId?: string;
}

import type { ContentBlock } from '@modelcontextprotocol/client';
import type { Scope } from '../scope.js';
import type { Caller } from '../caller.js';
import type { CallApproval } from './call-approval.js';
import type { ScreenPayload, Truncation } from '../store/bounded-result-types.js';
import type { InvocationError, InvocationRecord } from '../store/invocation-record.js';
import type { InvocationOutcome, InvocationState } from '../store/invocation-state.js';

/** One call through the one path. */
export interface InvokeOptions {
  readonly scope: Scope;
  readonly caller: Caller;
  /** The host-unique tool name (`server__tool` for MCP tools). */
  readonly tool: string;
  readonly args?: unknown;
  /** Aborting cancels the call: before it runs, nothing is sent; while it runs, the server is told. */
  readonly signal?: AbortSignal;
  /** Idle timeout for this call, reset by progress; overrides the tool's and the host's. */
  readonly timeoutMs?: number;
  /**
   * Called once with the pending record, as soon as the call is recorded and before the gate asks anyone: how a
   * caller that started the call learns its id (to cancel it, or to show its card) without waiting for the result.
   * A call refused before it is recorded (`tool_not_found`, `invalid_arguments`) never calls it.
   */
  readonly onRecorded?: (invocation: InvocationRecord) => void;
  /**
   * Run a tool whose `execution.taskSupport` is `optional` as a task (a tool that requires it always is). Default:
   * the host's `tasks.runAsTask` setting for the tool.
   */
  readonly asTask?: boolean;
  /**
   * The id the model gave this call (an AI SDK `toolCallId`, an OpenAI `call_id`): kept in history, in the call's
   * audit events and as the span's `gen_ai.tool.call.id`, so the model's transcript and the host's records name the
   * same call. A string of 1 to 256 characters.
   */
  readonly modelCallId?: string;
  /**
   * The user's answer to this one call, taken by the app's own approval flow (the AI SDK's `needsApproval`): the gate
   * uses it where it would ask the surface, and audits it as the user's answer with `via: 'approval'` and its `by`.
   */
  readonly approval?: CallApproval;
  /**
   * The id of the conversation's message whose turn made this call (a chat's user message), kept in history beside
   * `modelCallId`: with the scope it is the seed's storage key (user, workspace, conversation, message, tool call).
   * A string of 1 to 256 characters.
   */
  readonly messageId?: string;
}

/**
 * What every caller gets back: an ordinary tool result, bounded for the model, for every fault a caller or the model
 * can cause. A call refused before it is recorded (an unknown or hidden tool: `tool_not_found`; arguments that are not
 * an object or fail the tool's inputSchema: `invalid_arguments`) has state `cancelled`, no history row and no audit
 * event: nothing was sent, and `text` says what to fix. Its `invocationId` names no stored call.
 */
export interface ToolResult {
  readonly invocationId: string;
  readonly tool: string;
  readonly serverId: string | null;
  readonly state: InvocationState;
  readonly outcome: InvocationOutcome;
  /** True for every outcome but success. */
  readonly isError: boolean;
  /** Exactly what the model is given. */
  readonly content: readonly ContentBlock[];
  readonly text: string;
  readonly truncation?: Truncation;
  /** What a screen shows of the result (a card): bounded more loosely than the model's text, as history keeps it. */
  readonly screen: ScreenPayload;
  /** Reads the whole result (`host.results.read`); a call refused before it was recorded has nothing behind it. */
  readonly handle: string;
  readonly error?: InvocationError;
}

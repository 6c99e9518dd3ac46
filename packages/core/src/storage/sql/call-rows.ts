import { isTerminalState } from '../../store/invocation-state.js';
import type { InvocationOutcome, InvocationState } from '../../store/invocation-state.js';
import type { ModelPayload, ScreenPayload } from '../../store/bounded-result-types.js';
import type { Caller } from '../../caller.js';
import type {
  InvocationError,
  InvocationRecord,
  ResultRecord,
  TransitionRecord,
} from '../../store/invocation-record.js';

// A call's rows (invocations, invocation_transitions, invocation_results), the same columns in SQLite and PostgreSQL:
// the column lists and the parameter lists below must stay in the same order; both live here so they change together.

/** The invocation columns, in the order `invocationParams` binds them. */
export const INVOCATION_COLUMNS =
  'id, user_id, workspace_id, conversation_id, caller, tool, server_id, original_name, definition_hash, args, ' +
  'args_hash, state, outcome, error, created_at, updated_at, model_call_id, message_id';

/** The transition columns, in the order `transitionParams` binds them. */
export const TRANSITION_COLUMNS = 'invocation_id, seq, from_state, to_state, at, outcome, error';

/** The result columns, in the order `resultParams` binds them. */
export const RESULT_COLUMNS = 'invocation_id, model, screen, full_text, raw_json';

/** An `invocations` row as the driver returns it. */
export interface InvocationRow {
  readonly id: string;
  readonly user_id: string;
  readonly workspace_id: string;
  readonly conversation_id: string;
  readonly caller: string;
  readonly tool: string;
  readonly server_id: string | null;
  readonly original_name: string;
  readonly definition_hash: string;
  readonly args: string;
  readonly args_hash: string;
  readonly state: string;
  readonly outcome: string | null;
  readonly error: string | null;
  readonly created_at: number;
  readonly updated_at: number;
  readonly model_call_id: string | null;
  readonly message_id: string | null;
}

/** An `invocation_transitions` row as the driver returns it. */
export interface TransitionRow {
  readonly invocation_id: string;
  readonly seq: number;
  readonly from_state: string | null;
  readonly to_state: string;
  readonly at: number;
  readonly outcome: string | null;
  readonly error: string | null;
}

/** An `invocation_results` row as the driver returns it. */
export interface ResultRow {
  readonly invocation_id: string;
  readonly model: string;
  readonly screen: string;
  readonly full_text: string;
  readonly raw_json: string;
  readonly expired_at?: number | null;
}

/** The stored text of an error column: JSON, or NULL for none. */
export function errorParam(error: InvocationError | null): string | null {
  return error === null ? null : JSON.stringify(error);
}

/** Binds a record in `INVOCATION_COLUMNS` order. */
export function invocationParams(record: InvocationRecord): unknown[] {
  return [
    record.id,
    record.scope.userId,
    record.scope.workspaceId,
    record.scope.conversationId,
    JSON.stringify(record.caller),
    record.tool,
    record.serverId,
    record.originalName,
    record.definitionHash,
    JSON.stringify(record.args),
    record.argsHash,
    record.state,
    record.outcome,
    errorParam(record.error),
    record.createdAt,
    record.updatedAt,
    record.modelCallId ?? null,
    record.messageId ?? null,
  ];
}

/** Binds a transition in `TRANSITION_COLUMNS` order. */
export function transitionParams(transition: TransitionRecord): unknown[] {
  return [
    transition.invocationId,
    transition.seq,
    transition.from,
    transition.to,
    transition.at,
    transition.outcome,
    errorParam(transition.error),
  ];
}

/** Binds a result in `RESULT_COLUMNS` order. */
export function resultParams(result: ResultRecord): unknown[] {
  return [
    result.invocationId,
    JSON.stringify(result.model),
    JSON.stringify(result.screen),
    result.fullText,
    result.rawJson,
  ];
}

function parseError(text: string | null): InvocationError | null {
  return text === null ? null : (JSON.parse(text) as InvocationError);
}

/** Reads an `invocations` row back into the record that was written. */
export function invocationFromRow(row: InvocationRow): InvocationRecord {
  const record: InvocationRecord = {
    id: row.id,
    scope: { userId: row.user_id, workspaceId: row.workspace_id, conversationId: row.conversation_id },
    caller: JSON.parse(row.caller) as Caller,
    tool: row.tool,
    serverId: row.server_id,
    originalName: row.original_name,
    definitionHash: row.definition_hash,
    args: JSON.parse(row.args) as Record<string, unknown>,
    argsHash: row.args_hash,
    state: row.state as InvocationState,
    outcome: row.outcome as InvocationOutcome | null,
    error: parseError(row.error),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  const withModel = row.model_call_id === null ? record : { ...record, modelCallId: row.model_call_id };
  // undefined (not null) from a driver that reads a row without the column: the same as none.
  return row.message_id == null ? withModel : { ...withModel, messageId: row.message_id };
}

/** Reads an `invocation_transitions` row back into the record that was written. */
export function transitionFromRow(row: TransitionRow): TransitionRecord {
  return {
    invocationId: row.invocation_id,
    seq: row.seq,
    from: row.from_state as InvocationState | null,
    to: row.to_state as InvocationState,
    at: row.at,
    outcome: row.outcome as InvocationOutcome | null,
    error: parseError(row.error),
  };
}

/** Reads an `invocation_results` row back into the record that was written. */
export function resultFromRow(row: ResultRow): ResultRecord {
  return {
    invocationId: row.invocation_id,
    model: JSON.parse(row.model) as ModelPayload,
    screen: JSON.parse(row.screen) as ScreenPayload,
    fullText: row.full_text,
    rawJson: row.raw_json,
    ...(row.expired_at === null || row.expired_at === undefined ? {} : { expiredAt: row.expired_at }),
  };
}

/** The states of a call that has ended, as SQL: a sweep never touches a pending or running call. */
export const ENDED = `state IN (${(['pending', 'running', 'success', 'error', 'cancelled'] as const)
  .filter(isTerminalState)
  .map((state) => `'${state}'`)
  .join(', ')})`;

import type { AuditEventInput } from '../store/audit-record.js';
import { auditEvent } from '../audit/audit-event-builder.js';
import { hashJson } from '../audit/canonical-json.js';
import type { Clock } from '../clock.js';
import type { RecordingQueue } from '../store/recording-queue.js';
import type { Scope } from '../scope.js';
import type { Tool, ToolProgress } from '../tools/tool.js';
import { toolTarget } from '../tools/tool.js';
import type { ScreenPayload } from '../store/bounded-result-types.js';
import type { InvokeOptions } from './invoke-options.js';
import { newInvocationId } from './invocation-id.js';
import type { InvocationError, InvocationRecord, ResultRecord } from '../store/invocation-record.js';
import type { InvocationOutcome, InvocationState } from '../store/invocation-state.js';
import { transition } from '../store/invocation-state.js';

/** What the pipeline tells the host's listeners. */
export interface PipelineEvents {
  transition(invocation: InvocationRecord, from: InvocationState | null, screen?: ScreenPayload): void;
  progress(invocation: InvocationRecord, progress: ToolProgress): void;
}

/** Where a host's calls are recorded and told: one per host, shared by its calls. */
export interface CallHistory {
  readonly writes: RecordingQueue;
  readonly clock: Clock;
  readonly events: PipelineEvents;
  /** The risk tier each transition's audit event records. */
  readonly riskTier: (tool: Tool) => string;
}

/**
 * The record of one call and its moves: each transition is one history row, one audit event (through the history
 * writer, in call order) and one `transition` event, checked against the state machine's table. The pending record is
 * built when first asked for, so a call sent before it is recorded (the quick path) builds it once, when its
 * recording runs.
 */
export class CallRecorder {
  readonly id: string;
  readonly scope: Scope;
  readonly tool: Tool;
  readonly args: Record<string, unknown>;
  /** The server the call goes to; null for a native tool. */
  readonly serverId: string | null;
  readonly #originalName: string;
  readonly #history: CallHistory;
  readonly #options: InvokeOptions;
  readonly #createdAt: number;
  readonly #riskTier: string;
  #record: InvocationRecord | undefined;
  #argsHash: string | undefined;
  #seq = 1;

  constructor(call: {
    readonly history: CallHistory;
    readonly scope: Scope;
    readonly options: InvokeOptions;
    readonly tool: Tool;
    readonly args: Record<string, unknown>;
    /** A call recorded before (a task resumed after a restart): its record as stored and its last transition's seq. */
    readonly resumed?: { readonly record: InvocationRecord; readonly seq: number };
  }) {
    this.#createdAt = call.resumed?.record.createdAt ?? call.history.clock.now();
    this.id = call.resumed?.record.id ?? newInvocationId(this.#createdAt);
    this.#record = call.resumed?.record;
    this.#seq = call.resumed?.seq ?? 1;
    this.#history = call.history;
    this.scope = call.scope;
    this.#options = call.options;
    this.tool = call.tool;
    this.args = call.args;
    const target = toolTarget(call.tool);
    this.serverId = target.serverId;
    this.#originalName = target.originalName;
    this.#riskTier = call.history.riskTier(call.tool);
  }

  /** The arguments' hash, worked out on first use (a function, so a gate can take it without a bind). */
  readonly argsHash = (): string => (this.#argsHash ??= hashJson(this.args));

  /** The call's record as it stands; built (pending) when first asked for. */
  readonly invocation = (): InvocationRecord => (this.#record ??= this.#pending());

  #pending(): InvocationRecord {
    const record: InvocationRecord = {
      id: this.id,
      scope: this.scope,
      caller: this.#options.caller,
      tool: this.tool.name,
      serverId: this.serverId,
      originalName: this.#originalName,
      definitionHash: this.tool.definitionHash,
      args: this.args,
      argsHash: this.argsHash(),
      state: 'pending',
      outcome: null,
      error: null,
      createdAt: this.#createdAt,
      updatedAt: this.#createdAt,
    };
    const { modelCallId, messageId } = this.#options;
    return withIds(record, modelCallId, messageId);
  }

  /** Records the pending call, tells listeners, then the caller's `onRecorded` (whose failure never breaks the call). */
  recordPending(): void {
    const created = this.invocation();
    const at = this.#createdAt;
    this.#history.writes.write({
      kind: 'create',
      record: created,
      first: { invocationId: this.id, seq: 1, from: null, to: 'pending', at, outcome: null, error: null },
      audit: this.#audit(null, 'pending', at, null, null),
    });
    this.#history.events.transition(created, null);
    try {
      this.#options.onRecorded?.(created);
    } catch {
      // A caller's callback never breaks the call path: the call goes on and its events still tell the story.
    }
  }

  /**
   * Moves the call to `to` (refused unless the table allows it), with the result when it ends with one, and returns
   * the new record. A history that stopped taking writes fails the call with store_error before its state moves.
   */
  move(
    to: InvocationState,
    outcome: InvocationOutcome | null,
    error: InvocationError | null,
    result?: ResultRecord,
  ): InvocationRecord {
    const writes = this.#history.writes;
    writes.assertHealthy();
    const current = this.invocation();
    const from = current.state;
    transition(from, to);
    const at = this.#history.clock.now();
    this.#seq += 1;
    const next = advance(current, to, outcome, error, at);
    this.#record = next;
    const row = { invocationId: this.id, seq: this.#seq, from, to, at, outcome, error };
    const event = this.#audit(from, to, at, outcome, error);
    writes.write(
      result === undefined
        ? { kind: 'transition', scope: this.scope, transition: row, audit: event }
        : { kind: 'transition', scope: this.scope, transition: row, result, audit: event },
    );
    this.#history.events.transition(next, from, result?.screen);
    return next;
  }

  #audit(
    from: InvocationState | null,
    to: InvocationState,
    at: number,
    outcome: InvocationOutcome | null,
    error: InvocationError | null,
  ): AuditEventInput {
    const record = this.invocation();
    return auditEvent({
      type: 'invocation.transition',
      at,
      scope: this.scope,
      serverId: record.serverId,
      tool: record.tool,
      argsHash: record.argsHash,
      riskTier: this.#riskTier,
      invocationId: this.id,
      data: withModelCallId(
        error === null
          ? { from, to, outcome, caller: record.caller.kind }
          : { from, to, outcome, errorCode: error.code, caller: record.caller.kind },
        record.modelCallId,
      ),
    });
  }
}

/** The record after a move: every field listed, so the call path builds it without an object spread. */
function advance(
  r: InvocationRecord,
  state: InvocationState,
  outcome: InvocationOutcome | null,
  error: InvocationError | null,
  updatedAt: number,
): InvocationRecord {
  const next: InvocationRecord = {
    id: r.id,
    scope: r.scope,
    caller: r.caller,
    tool: r.tool,
    serverId: r.serverId,
    originalName: r.originalName,
    definitionHash: r.definitionHash,
    args: r.args,
    argsHash: r.argsHash,
    state,
    outcome,
    error,
    createdAt: r.createdAt,
    updatedAt,
  };
  return withIds(next, r.modelCallId, r.messageId);
}

/** A record with the caller's ids for the call (the model's, the message's) where it gave them. */
function withIds(record: InvocationRecord, modelCallId?: string, messageId?: string): InvocationRecord {
  const withModel = modelCallId === undefined ? record : { ...record, modelCallId };
  return messageId === undefined ? withModel : { ...withModel, messageId };
}

/** A transition's audit details, with the model's id for the call when it gave one. */
function withModelCallId(data: Record<string, unknown>, modelCallId: string | undefined): Record<string, unknown> {
  if (modelCallId !== undefined) data['modelCallId'] = modelCallId;
  return data;
}

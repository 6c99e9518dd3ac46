import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Clock } from '../clock.js';
import type { CallInFlight } from './call-in-flight.js';
import type { RecordingQueue } from '../store/recording-queue.js';
import { assertScope } from '../scope.js';
import { assertCaller } from './assert-caller.js';
import type { Scope } from '../scope.js';
import type { Tool } from '../tools/tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { admitCall, CallRefusal } from './admit-call.js';
import type { ServerNotReady } from './admit-call.js';
import { appCallRefused } from './app-call-refused.js';
import type { BoundLimits } from './bound-result.js';
import { DEFAULT_BOUND_LIMITS, resultHandle } from './bound-result.js';
import { LiveCall } from './call-context.js';
import { CallRecorder } from './call-recorder.js';
import { assertModelCallId } from './model-call-id.js';
import { assertCallApproval } from './call-approval.js';
import type { CallHistory, PipelineEvents } from './call-recorder.js';
import { classifyFailure } from './classify-failure.js';
import type { ControllerPool } from './controller-pool.js';
import type { Deadlines } from './deadlines.js';
import type { InvocationError, InvocationRecord } from '../store/invocation-record.js';
import type { InvocationOutcome } from '../store/invocation-state.js';
import { isRunningState } from '../store/invocation-state.js';
import type { InvokeOptions, ToolResult } from './invoke-options.js';
import { PreCallChain } from './pre-call-chain.js';
import type { PreCallHook, PreCallVerdict, QuickGate } from './pre-call-chain.js';
import { DEFAULT_TIMEOUT_LIMITS, NEVER_ABORTED, runWithTimeouts } from './run-with-timeouts.js';
import type { TimeoutLimits } from './run-with-timeouts.js';
import { failureScreen, refusedResult, settleFailure, settleResult } from './settle-result.js';
import type { InvocationTask } from '../store/invocation-task.js';
import type { RegisteredTool } from '../tools/tool-registry.js';
import type { ToolRunContext } from '../tools/tool.js';
import { TaskRecorder } from './task-recorder.js';
import type { TaskHistory } from './task-recorder.js';

/** Per-tool overrides, keyed by host tool name. */
export type ToolLimits = Readonly<Record<string, Partial<BoundLimits & TimeoutLimits>>>;

/** What a pipeline is built with: one set per host, never shared with another host. */
export interface PipelineDeps {
  readonly registry: ToolRegistry;
  /** Why the server a tool name points at (`server__tool`) is not ready for this scope, when it is not. */
  readonly serverNotReady?: (toolName: string, scope: Scope) => ServerNotReady | undefined;
  readonly writes: RecordingQueue;
  readonly clock: Clock;
  /** The host's one timer for its calls' timeouts. */
  readonly deadlines: Deadlines;
  /** The host's idle abort controllers, reused by its MCP calls. */
  readonly controllers: ControllerPool;
  /** The risk tier each transition's audit event records. */
  readonly riskTier: (tool: Tool) => string;
  /** Runs a tool so that questions its server asks meanwhile are tied to the call (the elicitation broker). */
  readonly around: <T>(call: CallInFlight, run: () => Promise<T>) => Promise<T>;
  readonly events: PipelineEvents;
  readonly bounds: Partial<BoundLimits>;
  readonly timeouts: Partial<TimeoutLimits>;
  readonly tools: ToolLimits;
  /** Where calls that run as tasks record their handles, and how a caller cancels one by its id. */
  readonly tasks?: PipelineTasks;
}

/** The task side of the call path (host.tasks). */
export interface PipelineTasks extends TaskHistory {
  /** A task call is running: `cancel` stops it (its task is cancelled). Returns what forgets it once it ends. */
  running(invocationId: string, scope: Scope, cancel: () => void): () => void;
  /** True once the host is closing: a task call that fails then was cut off by the close, not ended by its server. */
  closing(): boolean;
  /** True when the host's settings run this `optional` task tool as a task (`tasks.runAsTask`). */
  runsAsTask(tool: string): boolean;
}

/** A call recorded before whose task is followed again (after a restart): its record, last seq and handle. */
export interface ResumeOptions {
  readonly record: InvocationRecord;
  readonly seq: number;
  readonly task: InvocationTask;
  readonly entry: RegisteredTool;
  /** Follows the task to its end, on the server's connection for the call's tenant. */
  readonly follow: (context: ToolRunContext) => Promise<CallToolResult>;
}

/** Runs nothing: the recording of a call that was recorded as it went. */
const RECORDED = (): void => undefined;

/**
 * The one path every tool call takes: admit (the tool resolved for the caller, the arguments checked), record
 * pending, the pre-call chain (hooks, then the permission gate), running, the run under its timeouts and the caller's
 * signal, classify, settle (cap, outputSchema, bound), store, return an ordinary result. Under durability 'grouped', a
 * call the gate settles at once (a rule or a stored decision, no other hooks, no `onRecorded`) is sent before its
 * pending and running steps are recorded; they run in the same turn, before anything else touches the call. Under
 * 'strict', every call waits for the commit of those steps before it is sent.
 */
export class InvocationPipeline {
  readonly #chain = new PreCallChain();
  readonly #history: CallHistory;
  /** The model's budget for a failure's text: the host's, whatever the tool. */
  readonly #modelChars: number;

  constructor(private readonly deps: PipelineDeps) {
    this.#history = { writes: deps.writes, clock: deps.clock, events: deps.events, riskTier: deps.riskTier };
    this.#modelChars = deps.bounds.modelChars ?? DEFAULT_BOUND_LIMITS.modelChars;
  }

  /**
   * Sets the permission gate: the last pre-call step, after every hook. `quick` is the part of the gate that decides
   * without a person (rules, stored decisions); with no other hooks, the call path asks it first.
   */
  setGate(gate: PreCallHook, quick?: QuickGate): void {
    this.#chain.setGate(gate, quick);
  }

  /** Adds a pre-call hook; hooks run in the order added, before the gate, and the first deny stops the call. */
  addHook(hook: PreCallHook): () => void {
    return this.#chain.addHook(hook);
  }

  /**
   * Makes one call. Returns a result with an outcome for every fault a caller or the model can cause (an unknown or
   * hidden tool, bad arguments, a deny, a failure, a timeout); throws only for a programmer's error (no or an invalid
   * scope) or a history that stopped taking writes (`store_error`).
   */
  async invoke(options: InvokeOptions): Promise<ToolResult> {
    this.deps.writes.assertHealthy();
    const scope = assertScope(options.scope);
    assertCaller(options.caller);
    assertModelCallId(options.modelCallId);
    assertCallApproval(options.approval);
    assertModelCallId(options.messageId, 'messageId');
    const args = options.args ?? {};
    const entry = admitCall({
      registry: this.deps.registry,
      call: options,
      args,
      ...(this.deps.serverNotReady === undefined ? {} : { serverNotReady: this.deps.serverNotReady }),
    });
    if (entry instanceof CallRefusal) {
      // A view probing for tools it may not call leaves a trace: no record exists for it, so the audit keeps one.
      if (options.caller.kind === 'app') this.deps.writes.write(appCallRefused(scope, options, entry, this.deps.clock));
      return refusedResult({ call: options, refusal: entry, modelChars: this.#modelChars });
    }
    const tool = entry.tool;
    const call = new CallRecorder({
      history: this.#history,
      scope,
      options,
      tool,
      args: args as Record<string, unknown>,
    });
    const signal = options.signal ?? NEVER_ABORTED;
    let gated = this.#gate(call, options, signal);
    if (gated instanceof Promise) gated = await gated;
    if (typeof gated !== 'function') return gated;
    const settle = gated;
    // Under durability 'strict' the call's rows are committed before it is sent, so a crash meanwhile leaves it.
    const held = this.deps.writes.beforeSend();
    if (held !== undefined) {
      await held;
      this.deps.writes.assertHealthy();
    }

    return this.#run(call, entry, {
      signal,
      settle,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      asTask: tool.taskSupport === 'optional' && (options.asTask ?? this.deps.tasks?.runsAsTask(tool.name) ?? false),
    });
  }

  /**
   * The gate, one way for every call: recorded pending, the decision taken (a rule or a stored decision at once, else
   * every hook and then the gate, which may ask a person), then running, or ended as denied or cancelled. Answers how
   * the recording is settled, or the result of a call that ends here. A call a rule or a stored decision allows at
   * once (no extra hooks, no person) is sent before it is recorded: its pending and running rows and the decision's
   * audit event are put off until the request is on its way, and run before anything else touches the call (its
   * progress, its end, a reader of history); a caller that asked for the record at once (`onRecorded`) gets it before
   * the call is sent, as always. Steps that answer synchronously keep the call in this turn: no await, no extra hop.
   */
  #gate(
    call: CallRecorder,
    options: InvokeOptions,
    signal: AbortSignal,
  ): (() => void) | ToolResult | Promise<(() => void) | ToolResult> {
    const tool = call.tool;
    // A call the app answered goes through the gate itself: its deny must win over a rule's or a stored allow.
    const approval = options.approval;
    const quick =
      signal.aborted || approval !== undefined
        ? undefined
        : this.#chain.quick?.({ scope: call.scope, tool, argsHash: call.argsHash, invocation: call.invocation });
    if (quick?.verdict.allow === true && options.onRecorded === undefined) {
      return this.deps.writes.defer(() => {
        call.recordPending();
        quick.record();
        call.move('running', null, null);
      });
    }
    call.recordPending();
    quick?.record();
    const cancelled = () => this.#fail(call, 'cancelled', cancelledError());
    const decided = (verdict: PreCallVerdict) => {
      if (!verdict.allow) return this.#fail(call, 'permission_denied', denied(verdict.reason));
      // onRecorded or a listener may have cancelled the call: then nothing is sent.
      if (signal.aborted) return cancelled();
      call.move('running', null, null);
      return RECORDED;
    };
    if (quick !== undefined) return decided(quick.verdict);
    if (signal.aborted) return cancelled();
    // A call cancelled while the gate waited (a person asked) ends cancelled, whatever the gate then said.
    const gated = (verdict: PreCallVerdict) => (signal.aborted ? cancelled() : decided(verdict));
    const gate = this.#chain.run({
      invocation: call.invocation(),
      tool,
      signal,
      ...(approval === undefined ? {} : { approval }),
    });
    return gate instanceof Promise ? gate.then(gated) : gated(gate);
  }

  /**
   * Follows again the task of a call recorded before (a host restarted while it ran): its events flow as a live
   * call's do, under what is left of its ceiling, and its end is recorded in history exactly as a call's end.
   */
  resume(options: ResumeOptions): Promise<ToolResult> {
    const { record, entry } = options;
    const call = new CallRecorder({
      history: this.#history,
      scope: record.scope,
      options: { scope: record.scope, caller: record.caller, tool: record.tool },
      tool: { ...entry.tool, run: (_args, context) => options.follow(context) },
      args: record.args,
      resumed: { record, seq: options.seq },
    });
    return this.#run(call, entry, { signal: NEVER_ABORTED, settle: RECORDED, task: options.task });
  }

  async #run(
    call: CallRecorder,
    entry: RegisteredTool,
    run: {
      readonly signal: AbortSignal;
      readonly settle: () => void;
      readonly timeoutMs?: number;
      readonly task?: InvocationTask;
      readonly asTask?: boolean;
    },
  ): Promise<ToolResult> {
    const { tool, scope } = call;
    const settle = run.settle;
    const overrides = this.deps.tools[tool.name];
    const timeoutMs =
      run.timeoutMs ?? overrides?.timeoutMs ?? this.deps.timeouts.timeoutMs ?? DEFAULT_TIMEOUT_LIMITS.timeoutMs;
    const ceiling =
      overrides?.maxTotalMs ??
      (tool.taskSupport === 'required' || run.asTask === true || run.task !== undefined
        ? (this.deps.timeouts.taskMaxTotalMs ?? DEFAULT_TIMEOUT_LIMITS.taskMaxTotalMs)
        : (this.deps.timeouts.maxTotalMs ?? DEFAULT_TIMEOUT_LIMITS.maxTotalMs));
    // A resumed task has what is left of its ceiling, counted from when its call began.
    const maxTotalMs =
      run.task === undefined ? ceiling : Math.max(0, ceiling - (this.deps.clock.now() - call.invocation().createdAt));
    // A call its server may turn into a task (the 2026 extension) has the plain ceiling until it does.
    const taskCeilingMs =
      tool.taskSupport === 'server' && overrides?.maxTotalMs === undefined && run.task === undefined
        ? (this.deps.timeouts.taskMaxTotalMs ?? DEFAULT_TIMEOUT_LIMITS.taskMaxTotalMs)
        : undefined;
    const tasks = this.deps.tasks;
    const task = tool.taskSupport === undefined && run.task === undefined ? undefined : tasks;
    const recorder = task === undefined ? undefined : new TaskRecorder(call, task, run.task);
    // A task call can be cancelled by its id (host.tasks.cancel), whoever started it.
    const own = task === undefined ? undefined : new AbortController();
    const signal = own === undefined ? run.signal : AbortSignal.any([run.signal, own.signal]);
    const forget =
      own === undefined || task === undefined ? undefined : task.running(call.id, scope, () => own.abort());
    /** The record once recorded: whoever reads it first runs the recording that was put off. */
    const recorded = (): InvocationRecord => {
      settle();
      return call.invocation();
    };
    const ran = await runWithTimeouts({
      tool,
      args: call.args,
      scope,
      signal,
      ...(run.asTask === true ? { asTask: true } : {}),
      ...(taskCeilingMs === undefined ? {} : { taskCeilingMs }),
      ...(recorder === undefined
        ? {}
        : {
            onTask: (update: Parameters<TaskRecorder['update']>[0]) => {
              if (isRunningState(recorded().state)) recorder.update(update);
            },
          }),
      around: (callSignal, hold, go) =>
        this.deps.around(
          new LiveCall({ serverId: call.serverId, scope, hold, invocation: recorded, signal: callSignal }),
          go,
        ),
      timeoutMs,
      maxTotalMs,
      onProgress: (progress) => {
        const at = recorded();
        if (isRunningState(at.state)) this.deps.events.progress(at, progress);
      },
      clock: this.deps.clock,
      deadlines: this.deps.deadlines,
      controllers: this.deps.controllers,
    });
    settle();
    forget?.();
    // A host that closes cuts its task calls off: the task goes on in the server, so its call stays open in history
    // (the next host resumes it) and the caller is told so, nothing recorded.
    if (!ran.ok && ran.aborted !== 'cancelled' && recorder?.task !== undefined && task?.closing() === true) {
      return detached(call, recorder.task.taskId);
    }
    const result = this.#settle(call, entry, ran, { timeoutMs, maxTotalMs }, overrides);
    recorder?.end(result.state);
    return result;
  }

  #settle(
    call: CallRecorder,
    entry: RegisteredTool,
    ran: Awaited<ReturnType<typeof runWithTimeouts>>,
    limits: { readonly timeoutMs: number; readonly maxTotalMs: number },
    overrides: ToolLimits[string] | undefined,
  ): ToolResult {
    if (!ran.ok) {
      const failure = classifyFailure(ran.error, ran.aborted, call.tool, limits);
      return this.#fail(call, failure.outcome, failure.error);
    }
    const bounds = overrides === undefined ? this.deps.bounds : { ...this.deps.bounds, ...overrides };
    return settleResult({ call, entry, result: ran.result, bounds, modelChars: this.#modelChars });
  }

  #fail(call: CallRecorder, outcome: InvocationOutcome, error: InvocationError): ToolResult {
    return settleFailure({ call, outcome, error, modelChars: this.#modelChars });
  }
}

/** What the caller of a task call cut off by the host's close gets: the call stays open in history. */
function detached(call: CallRecorder, taskId: string): ToolResult {
  const text =
    `[transport_error: tool "${call.tool.name}"] the host closed while task ${taskId} ran; the task goes on in the ` +
    'server and is followed again when a host opens this history';
  const error = { code: 'host_closed', message: text };
  return {
    invocationId: call.id,
    tool: call.tool.name,
    serverId: call.serverId,
    state: call.invocation().state,
    outcome: 'transport_error',
    isError: true,
    content: [{ type: 'text', text }],
    text,
    screen: failureScreen(text, resultHandle(call.id)),
    handle: resultHandle(call.id),
    error,
  };
}

function denied(reason: string): InvocationError {
  return { code: 'permission_denied', message: reason };
}

function cancelledError(): InvocationError {
  return { code: 'cancelled', message: 'the call was cancelled before it ran; nothing was sent' };
}

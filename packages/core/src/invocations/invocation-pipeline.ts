import { randomUUID } from 'node:crypto';
import { getEventListeners } from 'node:events';
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/client';
import { HostError } from '../errors/host-error.js';
import { hashJson } from '../audit/canonical-json.js';
import type { Clock } from '../clock.js';
import type { Scope } from '../scope.js';
import { assertScope } from '../scope.js';
import type { InvocationError, InvocationRecord, ResultRecord, TransitionRecord } from './invocation-record.js';
import type { Caller, Tool, ToolProgress } from '../tools/tool.js';
import { toolDisplayName } from '../tools/tool.js';
import type { RegisteredTool, ToolRegistry } from '../tools/tool-registry.js';
import { assertArguments } from '../tools/schema-validator.js';
import type { BoundLimits } from './bound-result.js';
import { boundResult, fitText, resultHandle } from './bound-result.js';
import type { ScreenPayload, Truncation } from './bounded-result-types.js';
import type { InvocationOutcome, InvocationState } from './invocation-state.js';
import { stateForOutcome, transition } from './invocation-state.js';
import { classifyFailure } from './classify-failure.js';
import type { WriteQueue } from '../storage/write-queue.js';
import { Deadlines } from './deadlines.js';
import type { AuditEventInput } from '../audit/audit-event.js';
import type { CallInFlight } from '../elicitation/elicitation-broker.js';

/** The signal of a call made without one: never aborts, and costs nothing to create per call. */
const NEVER_ABORTED = new AbortController().signal;

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
   */
  readonly onRecorded?: (invocation: InvocationRecord) => void;
}

/** What every caller gets back: an ordinary tool result, bounded for the model. */
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
  /** Reads the whole result (`host.results.read`). */
  readonly handle: string;
  readonly error?: InvocationError;
}

/** What a pre-call hook decides. Returning nothing lets the next hook decide. */
export type PreCallVerdict = { readonly allow: true } | { readonly allow: false; readonly reason: string };

/** What a pre-call hook sees: the recorded pending invocation and the tool. Nothing has been sent yet. */
export interface PreCallContext {
  readonly invocation: InvocationRecord;
  readonly tool: Tool;
  readonly signal: AbortSignal;
}

/** A step that runs before anything is sent to a server: the permission gate is one. A deny stops the call. */
export type PreCallHook = (context: PreCallContext) => Promise<PreCallVerdict | undefined> | PreCallVerdict | undefined;

/**
 * The part of a gate that decides without asking anyone, or returns undefined. It writes and tells nothing itself:
 * `record` does, and the pipeline runs it in order with the call's own rows.
 */
export type QuickGate = (call: {
  readonly scope: Scope;
  readonly tool: Tool;
  /** The arguments' hash, worked out on first use: most decisions do not need it. */
  readonly argsHash: () => string;
  readonly invocation: () => InvocationRecord;
}) => { readonly verdict: PreCallVerdict; readonly record: () => void } | undefined;

/** Timeouts: an idle timeout reset by progress, and a ceiling no progress extends. */
export interface TimeoutLimits {
  readonly timeoutMs: number;
  readonly maxTotalMs: number;
}

export const DEFAULT_TIMEOUT_LIMITS: TimeoutLimits = { timeoutMs: 60_000, maxTotalMs: 10 * 60_000 };

/** Per-tool overrides, keyed by host tool name. */
export type ToolLimits = Readonly<Record<string, Partial<BoundLimits & TimeoutLimits>>>;

/** What the pipeline tells the host's listeners. */
export interface PipelineEvents {
  transition(invocation: InvocationRecord, from: InvocationState | null, screen?: ScreenPayload): void;
  progress(invocation: InvocationRecord, progress: ToolProgress): void;
}

/**
 * The one path every tool call takes: resolve (visibility), record pending, pre-call hooks (the permission gate),
 * running, call with signal, timeout and progress, classify, bound, store, return an ordinary result. A call the
 * gate settles at once (a rule or a stored decision, no other hooks, no `onRecorded`) is sent before its pending and
 * running steps are recorded; they run in the same turn, before anything else touches the call.
 */
export class InvocationPipeline {
  readonly #hooks: PreCallHook[] = [];
  #gate: PreCallHook | undefined;
  #quick: QuickGate | undefined;
  /** The hooks and then the gate, as one list; rebuilt after a change. */
  #chain: readonly PreCallHook[] | undefined;

  constructor(
    private readonly deps: {
      registry: ToolRegistry;
      writes: WriteQueue;
      clock: Clock;
      /** The risk tier each transition's audit event records. */
      riskTier: (tool: Tool) => string;
      /** Runs a tool so that questions its server asks meanwhile are tied to the call (the elicitation broker). */
      around: <T>(call: CallInFlight, run: () => Promise<T>) => Promise<T>;
      events: PipelineEvents;
      bounds: Partial<BoundLimits>;
      timeouts: Partial<TimeoutLimits>;
      tools: ToolLimits;
    },
  ) {}

  /**
   * Sets the permission gate: the last pre-call step, after every hook. `quick` is the part of the gate that decides
   * without a person (rules, stored decisions); with no other hooks, the call path asks it first.
   */
  setGate(gate: PreCallHook, quick?: QuickGate): void {
    this.#gate = gate;
    this.#quick = quick;
    this.#chain = undefined;
  }

  /** Adds a pre-call hook; hooks run in the order added, before the gate, and the first deny stops the call. */
  addHook(hook: PreCallHook): () => void {
    this.#hooks.push(hook);
    this.#chain = undefined;
    return () => {
      const at = this.#hooks.indexOf(hook);
      if (at !== -1) this.#hooks.splice(at, 1);
      this.#chain = undefined;
    };
  }

  async invoke(options: InvokeOptions): Promise<ToolResult> {
    this.deps.writes.assertHealthy();
    const scope = assertScope(options.scope);
    const entry = this.deps.registry.resolve(options.tool, options.caller);
    const { tool, checkInput } = entry;
    const args = options.args ?? {};
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new HostError('invalid_arguments', `arguments for ${tool.name} must be a JSON object`);
    }
    assertArguments(checkInput, tool.name, args);
    const argsRecord = args as Record<string, unknown>;
    const now = this.deps.clock.now();
    const id = randomUUID();
    let argsHash: string | undefined;
    const hashArgs = () => (argsHash ??= hashJson(argsRecord));
    /** The call's record as it stands; built (pending) when first asked for. */
    let record: InvocationRecord | undefined;
    const theRecord = (): InvocationRecord =>
      (record ??= {
        id,
        scope,
        caller: options.caller,
        tool: tool.name,
        serverId: tool.origin.kind === 'mcp' ? tool.origin.serverId : null,
        originalName: tool.origin.kind === 'mcp' ? tool.origin.originalName : tool.name,
        definitionHash: tool.definitionHash,
        args: argsRecord,
        argsHash: hashArgs(),
        state: 'pending',
        outcome: null,
        error: null,
        createdAt: now,
        updatedAt: now,
      });
    let seq = 1;
    const riskTier = this.deps.riskTier(tool);
    const audit = (
      from: InvocationState | null,
      to: InvocationState,
      at: number,
      outcome: InvocationOutcome | null,
      error: InvocationError | null,
    ): AuditEventInput => {
      const created = theRecord();
      return {
        type: 'invocation.transition',
        at,
        userId: scope.userId,
        workspaceId: scope.workspaceId,
        conversationId: scope.conversationId,
        serverId: created.serverId,
        tool: created.tool,
        argsHash: created.argsHash,
        riskTier,
        invocationId: id,
        data:
          error === null
            ? { from, to, outcome, caller: created.caller.kind }
            : { from, to, outcome, errorCode: error.code, caller: created.caller.kind },
      };
    };
    const recordPending = (): void => {
      const created = theRecord();
      this.deps.writes.write({
        kind: 'create',
        record: created,
        first: { invocationId: id, seq: 1, from: null, to: 'pending', at: now, outcome: null, error: null },
        audit: audit(null, 'pending', now, null, null),
      });
      this.deps.events.transition(created, null);
      try {
        options.onRecorded?.(created);
      } catch {
        // A caller's callback never breaks the call path: the call goes on and its events still tell the story.
      }
    };
    const move = (
      to: InvocationState,
      outcome: InvocationOutcome | null,
      error: InvocationError | null,
      result?: ResultRecord,
    ): InvocationRecord => {
      // A history that stopped taking writes fails the call with store_error before its state moves.
      this.deps.writes.assertHealthy();
      const current = theRecord();
      const from = current.state;
      transition(from, to);
      const at = this.deps.clock.now();
      seq += 1;
      const next = advance(current, to, outcome, error, at);
      record = next;
      const row: TransitionRecord = { invocationId: id, seq, from, to, at, outcome, error };
      const event = audit(from, to, at, outcome, error);
      this.deps.writes.write(
        result === undefined
          ? { kind: 'transition', scope, transition: row, audit: event }
          : { kind: 'transition', scope, transition: row, result, audit: event },
      );
      this.deps.events.transition(next, from, result?.screen);
      return next;
    };
    const finishWithoutResult = (outcome: InvocationOutcome, error: InvocationError): ToolResult => {
      const result = this.#errorResult(theRecord(), tool, outcome, error);
      return toToolResult(move(stateForOutcome(outcome), outcome, error, result), result);
    };

    const signal = options.signal ?? NEVER_ABORTED;
    // A call a rule or a stored decision settles at once (no extra hooks, no person) is sent before it is recorded:
    // the pending and running rows, the decision's audit event and their events are put off until the request is on
    // its way, and run before anything else touches the call (its progress, its end, a reader of history). A caller
    // that asked to be told the record at once (`onRecorded`) gets it before the call is sent, as always.
    const quick =
      this.#quick !== undefined && this.#hooks.length === 0 && !signal.aborted
        ? this.#quick({ scope, tool, argsHash: hashArgs, invocation: theRecord })
        : undefined;
    let settle = (): void => undefined;
    if (quick?.verdict.allow === true && options.onRecorded === undefined) {
      settle = this.deps.writes.defer(() => {
        recordPending();
        quick.record();
        move('running', null, null);
      });
    } else if (quick !== undefined) {
      recordPending();
      quick.record();
      if (!quick.verdict.allow) {
        return finishWithoutResult('permission_denied', { code: 'permission_denied', message: quick.verdict.reason });
      }
      // onRecorded or a listener may have cancelled the call: then nothing is sent.
      if (signal.aborted) return finishWithoutResult('cancelled', cancelledError());
      move('running', null, null);
    } else {
      recordPending();
      if (signal.aborted) return finishWithoutResult('cancelled', cancelledError());
      // Hooks that answer synchronously keep the call in this turn: no await, no extra hop.
      let gate = this.#runHooks({ invocation: theRecord(), tool, signal });
      if (gate instanceof Promise) gate = await gate;
      if (signal.aborted) return finishWithoutResult('cancelled', cancelledError());
      if (!gate.allow) {
        return finishWithoutResult('permission_denied', { code: 'permission_denied', message: gate.reason });
      }
      move('running', null, null);
    }

    const overrides = this.deps.tools[tool.name];
    const timeoutMs =
      options.timeoutMs ?? overrides?.timeoutMs ?? this.deps.timeouts.timeoutMs ?? DEFAULT_TIMEOUT_LIMITS.timeoutMs;
    const maxTotalMs = overrides?.maxTotalMs ?? this.deps.timeouts.maxTotalMs ?? DEFAULT_TIMEOUT_LIMITS.maxTotalMs;
    /** The record once recorded: whoever reads it first runs the recording that was put off. */
    const recorded = (): InvocationRecord => {
      settle();
      return theRecord();
    };
    const run = await runWithTimeouts({
      tool,
      args: argsRecord,
      signal,
      around: (callSignal, hold, go) =>
        this.deps.around(
          {
            serverId: tool.origin.kind === 'mcp' ? tool.origin.serverId : null,
            get invocation() {
              return recorded();
            },
            signal: callSignal,
            hold,
          },
          go,
        ),
      timeoutMs,
      maxTotalMs,
      onProgress: (progress) => {
        const at = recorded();
        if (at.state === 'running') this.deps.events.progress(at, progress);
      },
    });
    settle();
    if (!run.ok) {
      const failure = classifyFailure(run.error, run.aborted, tool, { timeoutMs, maxTotalMs });
      return finishWithoutResult(failure.outcome, failure.error);
    }
    return this.#finishWithResult(theRecord(), entry, run.result, move);
  }

  #finishWithResult(
    record: InvocationRecord,
    entry: RegisteredTool,
    result: CallToolResult,
    move: (
      to: InvocationState,
      outcome: InvocationOutcome,
      error: InvocationError | null,
      result: ResultRecord,
    ) => InvocationRecord,
  ): ToolResult {
    const tool = entry.tool;
    const overrides = this.deps.tools[tool.name];
    const bounds = overrides === undefined ? this.deps.bounds : { ...this.deps.bounds, ...overrides };
    const rawJson = JSON.stringify(result);
    const maxBytes = bounds.maxResultBytes ?? 64 * 1024 * 1024;
    const fail = (error: InvocationError): ToolResult => {
      const stored = this.#errorResult(record, tool, 'invalid_output', error);
      return toToolResult(move('error', 'invalid_output', error, stored), stored);
    };
    // A UTF-16 unit is at most 3 UTF-8 bytes, so a short text needs no byte count.
    if (rawJson.length > maxBytes || (rawJson.length * 3 > maxBytes && Buffer.byteLength(rawJson, 'utf8') > maxBytes)) {
      return fail({
        code: 'result_too_large',
        message: `the result of ${tool.name} is ${Buffer.byteLength(rawJson, 'utf8')} bytes, over the ${maxBytes}-byte cap; it was not kept`,
      });
    }
    if (result.isError !== true && entry.checkOutput !== undefined) {
      if (result.structuredContent === undefined) {
        return fail({
          code: 'invalid_output',
          message: `${tool.name} declares an outputSchema but returned no structuredContent`,
        });
      }
      const verdict = entry.checkOutput(result.structuredContent);
      if (!verdict.ok) {
        return fail({
          code: 'invalid_output',
          message: `structuredContent of ${tool.name} does not match its outputSchema: ${verdict.errors.join('; ')}`,
        });
      }
    }
    const bounded = boundResult({
      result,
      source: { tool: toolDisplayName(tool), serverId: record.serverId },
      handle: resultHandle(record.id),
      limits: bounds,
      rawJson,
    });
    const stored: ResultRecord = {
      invocationId: record.id,
      model: bounded.model,
      screen: bounded.screen,
      fullText: bounded.fullText,
      rawJson: bounded.rawJson,
    };
    const outcome: InvocationOutcome = result.isError === true ? 'tool_error' : 'success';
    const error = outcome === 'tool_error' ? { code: 'tool_error', message: `${tool.name} reported an error` } : null;
    return toToolResult(move(stateForOutcome(outcome), outcome, error, stored), stored);
  }

  /** Runs the hooks, then the gate. Synchronous while every hook answers synchronously; the first deny stops. */
  #runHooks(context: PreCallContext): PreCallVerdict | Promise<PreCallVerdict> {
    this.#chain ??= this.#gate === undefined ? [...this.#hooks] : [...this.#hooks, this.#gate];
    return runHooksFrom(this.#chain, 0, context);
  }

  /** The result stored and returned when no tool result exists: the failure, framed for the model. */
  #errorResult(record: InvocationRecord, tool: Tool, outcome: InvocationOutcome, error: InvocationError): ResultRecord {
    const from = record.serverId === null ? 'the host' : `server "${record.serverId}"`;
    const text = `[${outcome}: tool "${toolDisplayName(tool)}" from ${from}] ${error.message}`;
    const handle = resultHandle(record.id);
    const fitted = fitText(text, this.deps.bounds.modelChars ?? 25_000, handle);
    return {
      invocationId: record.id,
      model: { content: [{ type: 'text', text: fitted.text }], text: fitted.text, isError: true },
      screen: { blocks: [{ type: 'text', text, totalChars: text.length, truncated: false }], isError: true, handle },
      fullText: text,
      rawJson: JSON.stringify({ error }),
    };
  }
}

const ALLOW: PreCallVerdict = { allow: true };

function isThenable(value: unknown): value is PromiseLike<PreCallVerdict | undefined> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

function hookFailed(error: unknown): PreCallVerdict {
  const message = error instanceof Error ? error.message : String(error);
  return { allow: false, reason: `the permission check failed, so the call did not run: ${message}` };
}

/** What one hook's answer means for the chain: a deny or a cancel stops it; undefined means go on. */
function stopAfter(verdict: PreCallVerdict | undefined, context: PreCallContext): PreCallVerdict | undefined {
  if (verdict !== undefined && !verdict.allow) return verdict;
  if (context.signal.aborted) return { allow: false, reason: 'cancelled' };
  return undefined;
}

function runHooksFrom(
  hooks: readonly PreCallHook[],
  start: number,
  context: PreCallContext,
): PreCallVerdict | Promise<PreCallVerdict> {
  for (let i = start; i < hooks.length; i++) {
    let verdict: ReturnType<PreCallHook>;
    try {
      verdict = hooks[i]!(context);
    } catch (error) {
      return hookFailed(error);
    }
    if (isThenable(verdict)) return awaitHook(Promise.resolve(verdict), hooks, i, context);
    const stop = stopAfter(verdict, context);
    if (stop !== undefined) return stop;
  }
  return ALLOW;
}

async function awaitHook(
  pending: Promise<PreCallVerdict | undefined>,
  hooks: readonly PreCallHook[],
  at: number,
  context: PreCallContext,
): Promise<PreCallVerdict> {
  let verdict: PreCallVerdict | undefined;
  try {
    verdict = await pending;
  } catch (error) {
    return hookFailed(error);
  }
  return stopAfter(verdict, context) ?? runHooksFrom(hooks, at + 1, context);
}

function toToolResult(record: InvocationRecord, result: ResultRecord): ToolResult {
  const out: { -readonly [K in keyof ToolResult]: ToolResult[K] } = {
    invocationId: record.id,
    tool: record.tool,
    serverId: record.serverId,
    state: record.state,
    outcome: record.outcome ?? 'success',
    isError: record.outcome !== 'success',
    content: result.model.content,
    text: result.model.text,
    handle: result.screen.handle,
  };
  if (result.model.truncation !== undefined) out.truncation = result.model.truncation;
  if (record.error !== null) out.error = record.error;
  return out;
}

/** The record after a move: every field listed, so the call path builds it without an object spread. */
function advance(
  r: InvocationRecord,
  state: InvocationState,
  outcome: InvocationOutcome | null,
  error: InvocationError | null,
  updatedAt: number,
): InvocationRecord {
  return {
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
}

function cancelledError(): InvocationError {
  return { code: 'cancelled', message: 'the call was cancelled before it ran; nothing was sent' };
}

type RunOutcome =
  | { ok: true; result: CallToolResult }
  | { ok: false; error: unknown; aborted: 'timeout' | 'ceiling' | 'cancelled' | null };

/**
 * Never-aborted controllers of finished MCP calls, kept for the next call. Building an AbortSignal costs more in
 * Node 20 than the rest of a call's bookkeeping together (tens of microseconds once caches are cold), and every call
 * needs one. A controller comes back only when nothing can still observe it: the tool is an MCP tool (the SDK removes
 * its abort listener before its promise settles and keeps no reference), the call was neither aborted nor asked a
 * question (no elicitation or URL flow held the signal), and no abort listener is left on it.
 */
const idleControllers: AbortController[] = [];
const MAX_IDLE_CONTROLLERS = 64;

/** The timeouts of every call in flight, on one timer. */
const deadlines = new Deadlines();

function takeController(): AbortController {
  return idleControllers.pop() ?? new AbortController();
}

function giveBack(controller: AbortController): void {
  if (controller.signal.aborted || idleControllers.length >= MAX_IDLE_CONTROLLERS) return;
  if (getEventListeners(controller.signal, 'abort').length > 0) return;
  idleControllers.push(controller);
}

/**
 * Runs a tool under an idle timeout (reset by progress) and a ceiling, and the caller's signal. Whichever fires
 * first aborts the tool's signal (an MCP tool then sends notifications/cancelled) and settles the call at once,
 * even if the tool ignores its signal; a late answer is ignored.
 */
function runWithTimeouts(options: {
  tool: Tool;
  args: Record<string, unknown>;
  signal: AbortSignal;
  around: (signal: AbortSignal, hold: () => () => void, run: () => Promise<CallToolResult>) => Promise<CallToolResult>;
  timeoutMs: number;
  maxTotalMs: number;
  onProgress: (progress: ToolProgress) => void;
}): Promise<RunOutcome> {
  const reusable = options.tool.origin.kind === 'mcp';
  const controller = reusable ? takeController() : new AbortController();
  let aborted: 'timeout' | 'ceiling' | 'cancelled' | null = null;
  let held = false;
  let settle!: (outcome: RunOutcome) => void;
  const outcome = new Promise<RunOutcome>((resolve) => (settle = resolve));
  let settled = false;
  const finish = (result: RunOutcome) => {
    if (settled) return;
    settled = true;
    deadlines.cancel(deadline);
    if (options.signal !== NEVER_ABORTED) options.signal.removeEventListener('abort', onCallerAbort);
    settle(result);
  };
  const abort = (why: 'timeout' | 'ceiling' | 'cancelled') => {
    if (aborted !== null || settled) return;
    aborted = why;
    controller.abort(why);
    finish({ ok: false, error: new Error(why), aborted: why });
  };
  // One deadline serves both limits: progress only moves the idle deadline, and the check re-arms itself for whichever
  // deadline is nearer when it comes (no churn per progress notification).
  const start = performance.now();
  const ceilingAt = start + options.maxTotalMs;
  let idleAt = start + options.timeoutMs;
  // While a person answers a server's question the call is not idle: the idle timeout waits (the ceiling does not).
  let holds = 0;
  const hold = () => {
    held = true;
    holds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      holds -= 1;
      idleAt = performance.now() + options.timeoutMs;
    };
  };
  const check = () => {
    const now = performance.now();
    if (now >= ceilingAt) return abort('ceiling');
    if (holds > 0) idleAt = now + options.timeoutMs;
    if (now >= idleAt) return abort('timeout');
    deadline = deadlines.add(Math.min(idleAt, ceilingAt), check);
  };
  let deadline = deadlines.add(Math.min(idleAt, ceilingAt), check);
  const onCallerAbort = () => abort('cancelled');
  if (options.signal !== NEVER_ABORTED) options.signal.addEventListener('abort', onCallerAbort, { once: true });
  // Aborted by a listener of the running event: a listener added now would never fire, so stop before sending.
  if (options.signal.aborted) {
    abort('cancelled');
    return outcome;
  }
  let running: Promise<CallToolResult>;
  try {
    running = options.around(controller.signal, hold, () =>
      options.tool.run(options.args, {
        signal: controller.signal,
        onProgress: (progress) => {
          if (aborted !== null) return;
          idleAt = performance.now() + options.timeoutMs;
          options.onProgress(progress);
        },
      }),
    );
  } catch (error) {
    finish({ ok: false, error, aborted });
    return outcome;
  }
  running.then(
    (result) => {
      if (reusable && !held && aborted === null) giveBack(controller);
      finish({ ok: true, result });
    },
    (error: unknown) => finish({ ok: false, error, aborted }),
  );
  return outcome;
}

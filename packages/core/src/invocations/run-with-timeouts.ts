import { setMaxListeners } from 'node:events';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Clock } from '../clock.js';
import type { Scope } from '../scope.js';
import type { Tool, ToolProgress } from '../tools/tool.js';
import type { TaskUpdate } from '../tools/tool-task.js';
import { RunContext } from './call-context.js';
import type { ControllerPool } from './controller-pool.js';
import type { Deadlines } from './deadlines.js';

/** Timeouts: an idle timeout reset by progress, and a ceiling no progress extends (its own for a task's call). */
export interface TimeoutLimits {
  readonly timeoutMs: number;
  readonly maxTotalMs: number;
  /** The ceiling of a tool that runs as a task (long work by design). Default 4 hours. */
  readonly taskMaxTotalMs: number;
}

/** A minute without a result or progress, and ten minutes in all (shared/DESIGN.md, Bounds); tasks, four hours. */
export const DEFAULT_TIMEOUT_LIMITS: TimeoutLimits = {
  timeoutMs: 60_000,
  maxTotalMs: 10 * 60_000,
  taskMaxTotalMs: 4 * 60 * 60_000,
};

/**
 * The signal of a call made without one: never aborts, and costs nothing to create per call. Every call in flight
 * without its own signal listens on it (and stops listening when it ends), so its listener count is the number of
 * such calls, not a leak: Node's warning at 11 is turned off for it.
 */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;
setMaxListeners(0, NEVER_ABORTED);

/** Why the run stopped before the tool answered, when it did. */
export type RunAbort = 'timeout' | 'ceiling' | 'cancelled';

/** How a run ended: the tool's result, or what it threw (or why the run stopped it). */
export type RunOutcome =
  | { readonly ok: true; readonly result: CallToolResult }
  | { readonly ok: false; readonly error: unknown; readonly aborted: RunAbort | null };

/** What one run needs: the call, its limits, and the host's clock, deadline timer and controller pool. */
export interface RunOptions {
  readonly tool: Tool;
  readonly args: Record<string, unknown>;
  readonly scope: Scope;
  /** The caller's signal (`NEVER_ABORTED` when there is none). */
  readonly signal: AbortSignal;
  /**
   * Wraps the run (the elicitation broker ties questions to the call); `signal` gives the call's signal (built when
   * first asked for), `hold` suspends the idle timeout.
   */
  readonly around: (
    signal: () => AbortSignal,
    hold: () => () => void,
    run: () => Promise<CallToolResult>,
  ) => Promise<CallToolResult>;
  readonly timeoutMs: number;
  readonly maxTotalMs: number;
  readonly onProgress: (progress: ToolProgress) => void;
  /** Told each move of the call's task, when the tool runs as one. */
  readonly onTask?: (update: TaskUpdate) => void;
  /** Run an `optional` task tool as a task. */
  readonly asTask?: boolean;
  /** The ceiling from when the call began once its server answers with a task (a tool whose server decides). */
  readonly taskCeilingMs?: number;
  readonly clock: Clock;
  readonly deadlines: Deadlines;
  readonly controllers: ControllerPool;
}

/**
 * Runs a tool under an idle timeout (reset by progress) and a ceiling, and the caller's signal. Whichever fires
 * first aborts the tool's signal (an MCP tool then sends notifications/cancelled) and settles the call at once,
 * even if the tool ignores its signal; a late answer is ignored. Never rejects.
 */
export function runWithTimeouts(options: RunOptions): Promise<RunOutcome> {
  const { clock, deadlines, controllers } = options;
  const reusable = options.tool.origin.kind === 'mcp';
  // A native tool's controller is built only when the tool (or a question) asks for its signal: building one is most
  // of what a call of a quick native tool that never looks at it costs in Node 20. An MCP call's comes from the pool.
  let controller = reusable ? controllers.take() : undefined;
  let aborted: RunAbort | null = null;
  const signal = (): AbortSignal => {
    if (controller === undefined) {
      controller = new AbortController();
      if (aborted !== null) controller.abort(aborted);
    }
    return controller.signal;
  };
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
  const abort = (why: RunAbort) => {
    if (aborted !== null || settled) return;
    aborted = why;
    controller?.abort(why);
    finish({ ok: false, error: new Error(why), aborted: why });
  };
  // One deadline serves both limits: progress only moves the idle deadline, and the check re-arms itself for whichever
  // deadline is nearer when it comes (no churn per progress notification).
  const start = clock.monotonic();
  let ceilingAt = start + options.maxTotalMs;
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
      idleAt = clock.monotonic() + options.timeoutMs;
    };
  };
  const check = () => {
    const now = clock.monotonic();
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
    running = options.around(signal, hold, () =>
      options.tool.run(
        options.args,
        new RunContext(
          signal,
          options.scope,
          (progress) => {
            if (aborted !== null) return;
            idleAt = clock.monotonic() + options.timeoutMs;
            options.onProgress(progress);
          },
          options.asTask === true,
          options.onTask === undefined
            ? undefined
            : (update: TaskUpdate) => {
                if (update.created && options.taskCeilingMs !== undefined) ceilingAt = start + options.taskCeilingMs;
                if (aborted === null) options.onTask?.(update);
              },
        ),
      ),
    );
  } catch (error) {
    finish({ ok: false, error, aborted });
    return outcome;
  }
  running.then(
    (result) => {
      if (reusable && controller !== undefined && !held && aborted === null) controllers.giveBack(controller);
      finish({ ok: true, result });
    },
    (error: unknown) => finish({ ok: false, error, aborted }),
  );
  return outcome;
}

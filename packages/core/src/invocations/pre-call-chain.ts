import type { Scope } from '../scope.js';
import type { Tool } from '../tools/tool.js';
import type { InvocationRecord } from '../store/invocation-record.js';
import type { CallApproval } from './call-approval.js';

/** What a pre-call hook decides. Returning nothing lets the next hook decide. */
export type PreCallVerdict = { readonly allow: true } | { readonly allow: false; readonly reason: string };

/** What a pre-call hook sees: the recorded pending invocation and the tool. Nothing has been sent yet. */
export interface PreCallContext {
  readonly invocation: InvocationRecord;
  readonly tool: Tool;
  readonly signal: AbortSignal;
  /** The app's own answer for this call (`InvokeOptions.approval`), for the gate to take instead of asking. */
  readonly approval?: CallApproval;
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

const ALLOW: PreCallVerdict = { allow: true };

/**
 * The steps a call passes before anything is sent: the hooks in the order added, then the permission gate; the first
 * deny (or a cancel) stops the call. While every step answers synchronously the chain does too, so a call the rules
 * allow stays in the turn it started in: no await, no extra hop.
 */
export class PreCallChain {
  readonly #hooks: PreCallHook[] = [];
  #gate: PreCallHook | undefined;
  #quick: QuickGate | undefined;
  /** The hooks and then the gate, as one list; rebuilt after a change. */
  #steps: readonly PreCallHook[] | undefined;

  /**
   * Sets the permission gate: the last step, after every hook. `quick` is the part of the gate that decides without
   * a person (rules, stored decisions); with no other hooks, the call path asks it first.
   */
  setGate(gate: PreCallHook, quick?: QuickGate): void {
    this.#gate = gate;
    this.#quick = quick;
    this.#steps = undefined;
  }

  /** Adds a hook; hooks run in the order added, before the gate. Returns its removal. */
  addHook(hook: PreCallHook): () => void {
    this.#hooks.push(hook);
    this.#steps = undefined;
    return () => {
      const at = this.#hooks.indexOf(hook);
      if (at !== -1) this.#hooks.splice(at, 1);
      this.#steps = undefined;
    };
  }

  /** The gate's quick part, when it alone decides: no other hook runs before it. */
  get quick(): QuickGate | undefined {
    return this.#hooks.length === 0 ? this.#quick : undefined;
  }

  /** Runs the hooks, then the gate. Synchronous while every step answers synchronously; the first deny stops. */
  run(context: PreCallContext): PreCallVerdict | Promise<PreCallVerdict> {
    this.#steps ??= this.#gate === undefined ? [...this.#hooks] : [...this.#hooks, this.#gate];
    return runFrom(this.#steps, 0, context);
  }
}

function isThenable(value: unknown): value is PromiseLike<PreCallVerdict | undefined> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

function stepFailed(error: unknown): PreCallVerdict {
  const message = error instanceof Error ? error.message : String(error);
  return { allow: false, reason: `the permission check failed, so the call did not run: ${message}` };
}

/** What one step's answer means for the chain: a deny or a cancel stops it; undefined means go on. */
function stopAfter(verdict: PreCallVerdict | undefined, context: PreCallContext): PreCallVerdict | undefined {
  if (verdict !== undefined && !verdict.allow) return verdict;
  if (context.signal.aborted) return { allow: false, reason: 'cancelled' };
  return undefined;
}

function runFrom(
  steps: readonly PreCallHook[],
  start: number,
  context: PreCallContext,
): PreCallVerdict | Promise<PreCallVerdict> {
  for (let i = start; i < steps.length; i++) {
    let verdict: ReturnType<PreCallHook>;
    try {
      verdict = steps[i]!(context);
    } catch (error) {
      return stepFailed(error);
    }
    if (isThenable(verdict)) return awaitStep(Promise.resolve(verdict), steps, i, context);
    const stop = stopAfter(verdict, context);
    if (stop !== undefined) return stop;
  }
  return ALLOW;
}

async function awaitStep(
  pending: Promise<PreCallVerdict | undefined>,
  steps: readonly PreCallHook[],
  at: number,
  context: PreCallContext,
): Promise<PreCallVerdict> {
  let verdict: PreCallVerdict | undefined;
  try {
    verdict = await pending;
  } catch (error) {
    return stepFailed(error);
  }
  return stopAfter(verdict, context) ?? runFrom(steps, at + 1, context);
}

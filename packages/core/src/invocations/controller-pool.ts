import { getEventListeners } from 'node:events';

/** How many idle controllers a pool keeps; more are left to the garbage collector. */
export const MAX_IDLE_CONTROLLERS = 64;

/**
 * Never-aborted controllers of one host's finished MCP calls, kept for its next call. Building an AbortSignal costs
 * more in Node 20 than the rest of a call's bookkeeping together (tens of microseconds once caches are cold), and every
 * call needs one. A controller comes back only when nothing can still observe it: the caller gives back only the
 * controller of an MCP tool (the SDK removes its abort listener before its promise settles and keeps no reference)
 * whose call was neither aborted nor asked a question (no elicitation or URL flow held the signal), and the pool
 * refuses one that is aborted or still has an abort listener. Each host has its own pool: two hosts in one process
 * never hand each other a signal.
 */
export class ControllerPool {
  readonly #idle: AbortController[] = [];

  /** An idle controller, or a new one when none is idle. */
  take(): AbortController {
    return this.#idle.pop() ?? new AbortController();
  }

  /** Keeps a finished call's controller for the next call, unless anything could still observe it. */
  giveBack(controller: AbortController): void {
    if (controller.signal.aborted || this.#idle.length >= MAX_IDLE_CONTROLLERS) return;
    if (getEventListeners(controller.signal, 'abort').length > 0) return;
    this.#idle.push(controller);
  }

  /** How many controllers wait for reuse. */
  get idle(): number {
    return this.#idle.length;
  }
}

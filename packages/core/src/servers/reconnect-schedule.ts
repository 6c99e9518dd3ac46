import type { Clock } from '../clock.js';
import { backoffDelay } from '../retry/backoff.js';
import type { ConnectionLimits } from './connection-limits.js';

/**
 * When a lost connection tries again: the host's backoff (`backoffDelay`, without jitter: one process, one server) on
 * the host's clock, at most `reconnectAttempts` times in a row. It knows when the next attempt is due, so a surface can say "retrying at 12:04:31" rather than
 * only "degraded".
 */
export class ReconnectSchedule {
  readonly #clock: Clock;
  readonly #limits: ConnectionLimits;
  #attempt = 0;
  #cancel: (() => void) | undefined;
  #at: number | undefined;

  constructor(clock: Clock, limits: ConnectionLimits) {
    this.#clock = clock;
    this.#limits = limits;
  }

  /** Attempts made since the last success (0 before any failure). */
  get attempt(): number {
    return this.#attempt;
  }

  /** True while another attempt may be scheduled. */
  get canRetry(): boolean {
    return this.#attempt < this.#limits.reconnectAttempts;
  }

  /** When the scheduled attempt will run (wall time, ms), while one waits. */
  get retryAt(): number | undefined {
    return this.#at;
  }

  /** The connection succeeded: the next loss starts from the first delay again. */
  reset(): void {
    this.#attempt = 0;
  }

  /** Runs `run` after the next delay; false (nothing scheduled) when the attempts are used up. */
  schedule(run: () => void): boolean {
    if (!this.canRetry) return false;
    const { reconnectBaseDelayMs: baseMs, reconnectMaxDelayMs: maxMs } = this.#limits;
    const delay = backoffDelay(this.#attempt, { baseMs, maxMs, jitter: 0 });
    this.#attempt += 1;
    this.#at = this.#clock.now() + delay;
    this.#cancel = this.#clock.setTimer(() => {
      this.#cancel = undefined;
      this.#at = undefined;
      run();
    }, delay);
    return true;
  }

  /** Cancels the attempt that waits, if one does. */
  stop(): void {
    this.#cancel?.();
    this.#cancel = undefined;
    this.#at = undefined;
  }
}

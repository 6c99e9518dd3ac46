import type { Clock } from '../clock.js';
import { InFlightList } from './in-flight-list.js';
import type { InFlightNode } from './in-flight-list.js';

/**
 * The furthest ahead the one timer is ever set. While deadlines wait it wakes at least this often (and sets itself
 * again); once none waits, it lets the process exit within this time, because the clock's timers cannot be told to
 * stop holding the process (no `unref`) and cancelling the timer on every call is what the shared timer avoids.
 */
export const DEADLINE_TIMER_MAX_WAIT_MS = 1_000;

/** A deadline waiting in `Deadlines`: what `add` returns and `cancel` takes. */
export type Deadline = InFlightNode<Entry>;

interface Entry {
  /** When it is due, in the clock's monotonic time. */
  readonly at: number;
  readonly due: () => void;
}

/**
 * One timer for the deadlines of every call of one host. A call arms its timeout with a list insert instead of a timer
 * of its own: Node builds, lists and unlists a timer per `setTimeout`/`clearTimeout` pair, and a call that answers in
 * under a millisecond paid that on every call for a deadline that almost never comes. The timer runs for the nearest
 * deadline, at most `DEADLINE_TIMER_MAX_WAIT_MS` ahead; it is not set again once no deadline waits, so it keeps the
 * process alive only while a deadline waits (and for at most that long after the last one goes). A deadline fires no
 * earlier than it is due. Time comes from the host's clock, so tests move it by hand.
 */
export class Deadlines {
  readonly #clock: Clock;
  /** A list, not a Set: each call adds and cancels one (see `InFlightList`). */
  readonly #waiting = new InFlightList<Entry>();
  #cancelTimer: (() => void) | undefined;
  /** When the timer fires; infinity when none is set. */
  #timerAt = Number.POSITIVE_INFINITY;
  readonly #onTimer = (): void => this.#fire();

  constructor(options: { readonly clock: Clock }) {
    this.#clock = options.clock;
  }

  /** Calls `due` once `at` (the clock's monotonic time) has passed, unless the deadline is cancelled first. */
  add(at: number, due: () => void): Deadline {
    const deadline = this.#waiting.add({ at, due });
    if (at < this.#timerAt) this.#arm(at);
    return deadline;
  }

  /** Cancels a deadline; nothing happens if it has fired or was cancelled already. */
  cancel(deadline: Deadline): void {
    this.#waiting.remove(deadline);
  }

  #arm(at: number): void {
    this.#cancelTimer?.();
    const now = this.#clock.monotonic();
    const wake = Math.min(at, now + DEADLINE_TIMER_MAX_WAIT_MS);
    this.#timerAt = wake;
    this.#cancelTimer = this.#clock.setTimer(this.#onTimer, wake - now);
  }

  #fire(): void {
    this.#cancelTimer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    const now = this.#clock.monotonic();
    const due: Deadline[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const entry of this.#waiting.nodes()) {
      const at = entry.value?.at ?? Number.POSITIVE_INFINITY;
      if (at <= now) due.push(entry);
      else if (at < next) next = at;
    }
    const run: (() => void)[] = [];
    for (const entry of due) {
      const deadline = entry.value;
      if (deadline !== undefined && this.#waiting.remove(entry)) run.push(deadline.due);
    }
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
    // A deadline's callback may add deadlines of its own: they arm the timer as any other.
    for (const due of run) due();
  }
}

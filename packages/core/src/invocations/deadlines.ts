/** A deadline waiting in `Deadlines`. */
export interface Deadline {
  /** When it is due, in `performance.now()` time. */
  readonly at: number;
}

interface Entry extends Deadline {
  readonly due: () => void;
}

/**
 * One timer for the deadlines of every call in flight. A call arms its timeout with a set insert instead of a timer of
 * its own: Node builds, lists and unlists a timer per `setTimeout`/`clearTimeout` pair, and a call that answers in
 * under a millisecond paid that on every call for a deadline that almost never comes. The timer runs for the nearest
 * deadline only, keeps the process alive only while a deadline waits, and a deadline fires no earlier than it is due.
 */
export class Deadlines {
  readonly #waiting = new Set<Entry>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer fires; infinity when none is armed. */
  #timerAt = Number.POSITIVE_INFINITY;

  /** Calls `due` once `at` has passed, unless the deadline is cancelled first. */
  add(at: number, due: () => void): Deadline {
    const entry: Entry = { at, due };
    this.#waiting.add(entry);
    if (this.#waiting.size === 1) this.#timer?.ref();
    if (at < this.#timerAt) this.#arm(at);
    return entry;
  }

  /** Cancels a deadline; nothing happens if it has fired or was cancelled already. */
  cancel(deadline: Deadline): void {
    if (this.#waiting.delete(deadline as Entry) && this.#waiting.size === 0) this.#timer?.unref();
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, at - performance.now()));
    if (this.#waiting.size === 0) this.#timer.unref();
  }

  #fire(): void {
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    const due: Entry[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const entry of this.#waiting) {
      if (entry.at <= now) due.push(entry);
      else if (entry.at < next) next = entry.at;
    }
    for (const entry of due) this.#waiting.delete(entry);
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
    // A deadline's callback may add deadlines of its own: they arm the timer as any other.
    for (const entry of due) entry.due();
  }
}

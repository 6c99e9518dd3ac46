import type { Clock } from '../clock.js';

/**
 * A clock tests move by hand: time stands still until `advance`, which runs every timer that falls due, in order of
 * due time (then of setting). Wall and monotonic time move together.
 */
export class FakeClock implements Clock {
  #timers: { at: number; run: () => void; id: number }[] = [];
  #next = 0;
  readonly #start: number;

  constructor(public t = Date.UTC(2026, 10, 1)) {
    this.#start = t;
  }

  now(): number {
    return this.t;
  }

  monotonic(): number {
    return this.t - this.#start;
  }

  setTimer(run: () => void, ms: number): () => void {
    const id = this.#next++;
    this.#timers.push({ at: this.t + Math.max(0, ms), run, id });
    return () => {
      this.#timers = this.#timers.filter((timer) => timer.id !== id);
    };
  }

  /** Moves time forward by `ms` and fires the timers that fall due, each at its own time. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = this.#timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (due === undefined) break;
      this.#timers = this.#timers.filter((timer) => timer.id !== due.id);
      this.t = Math.max(this.t, due.at);
      due.run();
    }
    this.t = end;
  }

  /** How many timers are waiting. */
  get pendingTimers(): number {
    return this.#timers.length;
  }
}

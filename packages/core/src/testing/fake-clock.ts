import type { Clock } from '../clock.js';

/** A clock tests move by hand: `advance` runs every timer that falls due, in order. */
export class FakeClock implements Clock {
  #timers: { at: number; run: () => void; id: number }[] = [];
  #next = 0;

  constructor(public t = Date.UTC(2026, 10, 1)) {}

  now(): number {
    return this.t;
  }

  schedule(run: () => void, ms: number): () => void {
    const id = this.#next++;
    this.#timers.push({ at: this.t + ms, run, id });
    return () => {
      this.#timers = this.#timers.filter((timer) => timer.id !== id);
    };
  }

  /** Moves time forward and fires the timers that fall due. */
  advance(ms: number): void {
    this.t += ms;
    for (;;) {
      const due = this.#timers.filter((timer) => timer.at <= this.t).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) return;
      this.#timers = this.#timers.filter((timer) => timer.id !== due.id);
      due.run();
    }
  }

  /** How many timers are waiting. */
  get pendingTimers(): number {
    return this.#timers.length;
  }
}

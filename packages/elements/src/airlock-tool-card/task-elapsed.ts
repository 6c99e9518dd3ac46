import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ShownState } from './shown-state.js';

/** How often an open task's elapsed time is drawn again: once a second, the finest unit it shows. */
export const ELAPSED_TICK_MS = 1_000;

/** True while a call is an open task: the server said it is working on it or needs input. */
export function taskOpen(state: ShownState): boolean {
  return state === 'working' || state === 'input_required';
}

/** An elapsed time as a clock reads: `m:ss` under an hour, `h:mm:ss` beyond (never negative). */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const s = String(seconds % 60).padStart(2, '0');
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}:${s}`;
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:${s}`;
}

/**
 * Keeps an open task's elapsed time current: while the card shows a task working or waiting for input, and knows
 * when it began, one timer redraws the card each second; once the task ends (or the card leaves the page) the timer
 * stops, so a page of finished cards runs no timer at all. Time is the page's (`Date.now`), so a test drives it with
 * a fake clock.
 */
export class TaskElapsedController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #open: () => boolean;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(host: ReactiveControllerHost, open: () => boolean) {
    this.#host = host;
    this.#open = open;
    host.addController(this);
  }

  hostConnected(): void {
    // Back on the page: the next update starts the timer again if the task is still open.
    if (this.#open()) this.#host.requestUpdate();
  }

  hostUpdated(): void {
    if (!this.#open()) return this.#stop();
    this.#timer ??= setInterval(() => this.#host.requestUpdate(), ELAPSED_TICK_MS);
  }

  hostDisconnected(): void {
    this.#stop();
  }

  /** True while the timer runs (for tests: no timer once the task is over). */
  get ticking(): boolean {
    return this.#timer !== undefined;
  }

  #stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

import type { Clock } from '../clock.js';
import type { TaskSnapshot } from '../tools/tool-task.js';

/** How a server's tasks are polled: at most this many `tasks/get` at once, each at the server's interval, bounded. */
export interface TaskPollLimits {
  /** Most `tasks/get` requests in flight at once on one connection. Default 4. */
  readonly maxConcurrent: number;
  /** The interval used when the server names none. Default 1 s. */
  readonly defaultIntervalMs: number;
  /** The bounds put on the interval a server names (and on the back-off after errors). Default 250 ms to 30 s. */
  readonly minIntervalMs: number;
  readonly maxIntervalMs: number;
}

export const DEFAULT_TASK_POLL_LIMITS: TaskPollLimits = {
  maxConcurrent: 4,
  defaultIntervalMs: 1_000,
  minIntervalMs: 250,
  maxIntervalMs: 30_000,
};

/** What one watched task is told: each status the server answers, and a poll that failed (the poller goes on). */
export interface TaskWatcher<S extends TaskSnapshot = TaskSnapshot> {
  state(state: S): void;
  failed(error: unknown): void;
}

interface Watch<S extends TaskSnapshot> {
  readonly taskId: string;
  readonly watcher: TaskWatcher<S>;
  intervalMs: number;
  dueAt: number;
  errors: number;
  inFlight: boolean;
  stopped: boolean;
}

/**
 * One poller per server connection, shared by every task followed on it (live calls and tasks resumed after a
 * restart): a single timer on the host's clock, armed for the earliest task due, never more than `maxConcurrent`
 * `tasks/get` in flight (a task due while the slots are full waits for one to free, it is never dropped), each task
 * polled at the interval its server last named (bounded), and a task whose poll fails backs off (its interval doubled
 * per failure in a row, up to the maximum). Nothing runs while no task is due: no busy loop, however many tasks.
 * `S` is what one `tasks/get` answers in the connection's era (the 2026 extension's carries the result and input).
 */
export class TaskPoller<S extends TaskSnapshot = TaskSnapshot> {
  readonly #watches = new Set<Watch<S>>();
  readonly #get: (taskId: string) => Promise<S>;
  readonly #clock: Clock;
  readonly #limits: TaskPollLimits;
  #inFlight = 0;
  #cancelTimer: (() => void) | undefined;
  #timerAt = Infinity;

  constructor(options: {
    readonly get: (taskId: string) => Promise<S>;
    readonly clock: Clock;
    readonly limits?: Partial<TaskPollLimits>;
  }) {
    this.#get = options.get;
    this.#clock = options.clock;
    this.#limits = { ...DEFAULT_TASK_POLL_LIMITS, ...options.limits };
  }

  /** Tasks followed now. */
  get size(): number {
    return this.#watches.size;
  }

  /** Polls `taskId` from one interval on until the returned stop is called. */
  watch(taskId: string, intervalMs: number | undefined, watcher: TaskWatcher<S>): () => void {
    const interval = this.#bound(intervalMs);
    const watch: Watch<S> = {
      taskId,
      watcher,
      intervalMs: interval,
      dueAt: this.#clock.monotonic() + interval,
      errors: 0,
      inFlight: false,
      stopped: false,
    };
    this.#watches.add(watch);
    this.#schedule();
    return () => {
      watch.stopped = true;
      this.#watches.delete(watch);
      if (this.#watches.size === 0) this.#disarm();
    };
  }

  #bound(intervalMs: number | undefined): number {
    const { minIntervalMs, maxIntervalMs, defaultIntervalMs } = this.#limits;
    const asked = intervalMs !== undefined && Number.isFinite(intervalMs) ? intervalMs : defaultIntervalMs;
    return Math.min(maxIntervalMs, Math.max(minIntervalMs, asked));
  }

  #disarm(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
    this.#timerAt = Infinity;
  }

  /** Sends what is due while slots are free, then arms the one timer for the next task due (if a slot is free). */
  #schedule(): void {
    const now = this.#clock.monotonic();
    let next = Infinity;
    const due: Watch<S>[] = [];
    for (const watch of this.#watches) {
      if (watch.inFlight) continue;
      if (watch.dueAt <= now) due.push(watch);
      else next = Math.min(next, watch.dueAt);
    }
    due.sort((a, b) => a.dueAt - b.dueAt);
    for (const watch of due) {
      if (this.#inFlight >= this.#limits.maxConcurrent) {
        // The rest wait for a slot: a finished poll schedules again.
        next = Infinity;
        break;
      }
      this.#poll(watch);
    }
    if (this.#inFlight >= this.#limits.maxConcurrent) next = Infinity;
    if (next === this.#timerAt) return;
    this.#disarm();
    if (next === Infinity) return;
    this.#timerAt = next;
    this.#cancelTimer = this.#clock.setTimer(
      () => {
        this.#cancelTimer = undefined;
        this.#timerAt = Infinity;
        this.#schedule();
      },
      Math.max(0, next - now),
    );
  }

  #poll(watch: Watch<S>): void {
    watch.inFlight = true;
    this.#inFlight += 1;
    const done = () => {
      watch.inFlight = false;
      this.#inFlight -= 1;
      const backOff = Math.min(this.#limits.maxIntervalMs, watch.intervalMs * 2 ** Math.min(watch.errors, 8));
      watch.dueAt = this.#clock.monotonic() + (watch.errors === 0 ? watch.intervalMs : backOff);
      this.#schedule();
    };
    this.#get(watch.taskId).then(
      (state) => {
        if (!watch.stopped) {
          watch.errors = 0;
          if (state.pollInterval !== undefined) watch.intervalMs = this.#bound(state.pollInterval);
          watch.watcher.state(state);
        }
        done();
      },
      (error: unknown) => {
        if (!watch.stopped) {
          watch.errors += 1;
          watch.watcher.failed(error);
        }
        done();
      },
    );
  }
}

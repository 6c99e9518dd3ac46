import { HostError } from '../errors/host-error.js';
import type { RecordingQueue } from '../invocations/recording-queue.js';
import type { HostStore, StoreWrite } from '../storage/host-store.js';

/** What a `HistoryWriter` takes. */
export interface HistoryWriterConfig {
  readonly store: HostStore;
  /** Told once, when a failed batch stops the writer (the host emits `store.error`). */
  readonly onError?: (error: HostError) => void;
  /** The least time between two commits, in milliseconds (default 5); 0 commits on every turn of the event loop. */
  readonly commitIntervalMs?: number;
}

/**
 * The call path's recording, scheduled: ordered, overlapped history writes. It is not storage (it holds no row); it
 * decides when the store's one `write(batch)` runs. The call path hands each write to the queue and goes on; the
 * queue stores everything queued so far as one batch (one transaction) on a later turn of the event loop, which is
 * while the server works on the request just sent. Commits are grouped: a batch follows the one before by at least
 * `commitIntervalMs` (default 5 ms), so a burst of calls shares transactions instead of paying one each. Readers
 * `drain()` first, which stores what is queued at once, so history never shows less than what callers got.
 *
 * A crash can lose the writes of the last moment, never half-write a batch; a call whose rows span two batches may
 * be left pending or running. A failed batch stops the queue: every later write fails with `store_error`, and so do
 * every new call and every call still in flight when it ends, so no call goes on without its history.
 *
 * Writes a crash must not take back (a stored permission decision) go through `commit`, which waits for them.
 */
export class HistoryWriter implements RecordingQueue {
  #pending: StoreWrite[] = [];
  /** Recording steps put off until the call they belong to is on its way (see `defer`), in the order deferred. */
  #deferred: { run: () => void; done: boolean }[] = [];
  #running: Promise<void> | undefined;
  #failure: HostError | undefined;
  /** Ends the wait before the next batch (set while one is waiting). */
  #wake: (() => void) | undefined;
  #deferredScheduled = false;
  /** Readers waiting in `drain`: while any waits, batches go without pacing. */
  #readers = 0;
  /** When the last batch started, in `performance.now()` time. */
  #lastCommit = Number.NEGATIVE_INFINITY;
  readonly #commitIntervalMs: number;
  readonly #store: HostStore;
  readonly #onError: (error: HostError) => void;

  constructor(config: HistoryWriterConfig) {
    this.#store = config.store;
    this.#onError = config.onError ?? (() => undefined);
    const interval = config.commitIntervalMs ?? 5;
    if (!Number.isFinite(interval) || interval < 0) {
      throw new HostError('config_invalid', `commitIntervalMs must be a number of milliseconds >= 0, not ${interval}`);
    }
    this.#commitIntervalMs = interval;
  }

  /** Throws the write failure that stopped the queue, if any. */
  assertHealthy(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Queues a write; it is stored after every write queued before it. */
  write(write: StoreWrite): void {
    this.assertHealthy();
    this.#pending.push(write);
    this.#schedule();
  }

  /**
   * Puts off a recording step (one that queues writes and tells listeners) until the end of this turn of the event
   * loop, after the work in hand has been sent; `drain` runs it first, so a reader never misses it. Returns a
   * function that runs it now if it has not run yet: whoever needs its effects first calls that.
   */
  defer(run: () => void): () => void {
    this.assertHealthy();
    const entry = { run, done: false };
    this.#deferred.push(entry);
    if (!this.#deferredScheduled) {
      this.#deferredScheduled = true;
      setImmediate(() => {
        this.#deferredScheduled = false;
        this.#runAllDeferred();
      });
    }
    return () => this.#runDeferred(entry);
  }

  /** Resolves once every queued write is stored; rejects with the failure that stopped the queue. */
  async drain(): Promise<void> {
    this.#runAllDeferred();
    this.#readers += 1;
    try {
      while (this.#running !== undefined) {
        this.#wake?.();
        await this.#running;
      }
    } finally {
      this.#readers -= 1;
    }
    this.assertHealthy();
  }

  /**
   * Stores one write now, after every write queued before it, and resolves once it is committed (a crash after this
   * resolves cannot take it back). The queue is drained first, so the audit log keeps the order in which things
   * happened; the write then goes to the store as a batch of its own, so a refused write rejects here, for the caller
   * to handle, and neither stops the queue nor takes other writes down with it.
   */
  async commit(write: StoreWrite): Promise<void> {
    await this.drain();
    await this.#store.write([write]);
  }

  #schedule(): void {
    this.#running ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#flush());
  }

  /** Waits out the rest of the commit interval (recording steps put off meanwhile still run on time). */
  async #pace(): Promise<void> {
    const wait = this.#lastCommit + this.#commitIntervalMs - performance.now();
    if (wait <= 0 || this.#readers > 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), wait);
      const done = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      this.#wake = done;
    });
  }

  #runDeferred(entry: { run: () => void; done: boolean }): void {
    if (entry.done) return;
    entry.done = true;
    try {
      entry.run();
    } catch (error) {
      this.#fail(error);
    }
  }

  #runAllDeferred(): void {
    if (this.#deferred.length === 0) return;
    const entries = this.#deferred;
    this.#deferred = [];
    for (const entry of entries) this.#runDeferred(entry);
  }

  #fail(error: unknown): void {
    if (this.#failure !== undefined) return;
    this.#failure =
      error instanceof HostError && error.code === 'store_error'
        ? error
        : new HostError(
            'store_error',
            `a history write failed: ${error instanceof Error ? error.message : String(error)}`,
            { cause: error },
          );
    this.#pending = [];
    this.#onError(this.#failure);
  }

  async #flush(): Promise<void> {
    try {
      while (this.#pending.length > 0 && this.#failure === undefined) {
        await this.#pace();
        const batch = this.#pending;
        this.#pending = [];
        this.#lastCommit = performance.now();
        try {
          await this.#store.write(batch);
        } catch (error) {
          this.#fail(error);
        }
      }
    } finally {
      this.#running = undefined;
    }
  }
}

import { HostError } from '../errors/host-error.js';
import type { RecordingQueue } from '../store/recording-queue.js';
import type { HostStore, StoreWrite } from '../store/host-store.js';

/**
 * When `host.invoke` hands a call's result back, measured against the store's commits.
 * - `'grouped'` (the default): at once; the call's rows are committed with others in a group soon after, and a crash
 *   can take back at most `HISTORY_LOSS_BOUND` of what callers were given. A call may be sent before its rows are.
 * - `'strict'`: only once the call's final row and its audit events are committed (the store's write of the batch
 *   holding them resolved), so a crash takes back no call its caller saw end; and its pending and running rows are
 *   committed before it is sent, so a crash while it runs leaves it in history. Calls that start or end together, or
 *   while a batch is with the store, share one commit; a lone caller pays two commits per call (see `npm run bench`).
 */
export type Durability = 'grouped' | 'strict';

/**
 * What a crash can take back under durability `'grouped'`: at most `calls` calls whose results callers were given,
 * all of them given within `ms` of one another (with the default commit interval; `4 × commitIntervalMs` when that
 * is longer). A store on the call's thread (SqliteStore) stays far inside it, as the queue commits by itself at 32
 * calls or 10 ms; a store that answers later (WorkerStore) is held to it by back-pressure: a call that would pass
 * it waits for the store before it returns.
 */
export const HISTORY_LOSS_BOUND = { calls: 128, ms: 20 } as const;

/** A batch goes to the store as soon as it ends this many calls, whatever the interval. */
const BATCH_CALLS = 32;
/** ...or holds this many writes of any kind (the pending and running rows of long calls, audit events). */
const BATCH_WRITES = 256;

/** What a `HistoryWriter` takes. */
export interface HistoryWriterConfig {
  readonly store: HostStore;
  /** Told once, when a failed batch stops the writer (the host emits `store.error`). */
  readonly onError?: (error: HostError) => void;
  /** The least time between two commits, in milliseconds (default 5); 0 commits on every turn of the event loop. */
  readonly commitIntervalMs?: number;
  /** When `acknowledge` hands a call's result back (default `'grouped'`). */
  readonly durability?: Durability;
  /** Milliseconds on a clock that never goes back (default `performance.now`); tests pass a fake one. */
  readonly now?: () => number;
}

/** A batch handed to the store, until the store answered for it and for every batch before it. */
interface Flight {
  /** How many calls it ends. */
  readonly calls: number;
  /** When the first of those calls ended (Infinity when it ends none). */
  readonly since: number;
  /** Resolves once the flight has landed; never rejects (a failure stops the writer instead). */
  done: Promise<void>;
}

const LANDED: Promise<void> = Promise.resolve();
/** What `defer` returns for a step it ran at once. */
const NOTHING = (): void => undefined;

/**
 * The call path's recording, scheduled: ordered, overlapped history writes. It is not storage (it holds no row); it
 * decides when the store's one `write(batch)` runs. The call path hands each write to the queue and goes on; the
 * queue stores everything queued so far as one batch (one transaction) on a later turn of the event loop, which is
 * while the server works on the request just sent. Commits are grouped: on its timer, a batch follows the one before
 * by at least `commitIntervalMs` (default 5 ms), so a burst of calls shares transactions instead of paying one each
 * (measured on a native echo over SQLite: batches of 32, 64 or 128 calls, or one per 5 ms, cost the same per call
 * within the noise, 80-85 µs). Readers `drain()` first, which stores what is queued at once, so history never shows
 * less than what callers got.
 *
 * The queue does not rely on its timer alone: a caller that never yields to the event loop (`for (;;) await
 * host.invoke(...)` over a fast native tool resolves every await in microtasks) never lets a timer run. So the write
 * that ends a call checks the batch itself, and hands it to the store at once when it ends 32 calls or its first
 * ended call is twice the interval old (10 ms). A store that commits inside `write` (SqliteStore) then commits even
 * in such a loop; a store that answers later (WorkerStore: its answers are messages, which that loop never reads)
 * may have several batches in flight, and `acknowledge` holds the caller back when they pass `HISTORY_LOSS_BOUND`,
 * awaiting the store's answer, which also lets the event loop turn.
 *
 * A crash can lose what is not committed yet (within the bound; nothing under durability 'strict'), never half-write
 * a batch; a call whose rows span two batches may be left pending or running. A failed batch stops the queue: every
 * later write fails with `store_error`, and so do every new call and every call still in flight when it ends, so no
 * call goes on without its history.
 *
 * Writes a crash must not take back (a stored permission decision) go through `commit`, which waits for them.
 */
export class HistoryWriter implements RecordingQueue {
  #pending: StoreWrite[] = [];
  /** How many calls `#pending` ends, and when the first of them ended (Infinity when none). */
  #pendingCalls = 0;
  #pendingSince = Number.POSITIVE_INFINITY;
  /** Batches handed to the store and not landed yet, oldest first. */
  readonly #flights: Flight[] = [];
  /** Calls ended in `#pending` and in `#flights`: given (or about to be given) to callers, not known committed. */
  #uncommittedCalls = 0;
  /** When the latest call ended. */
  #lastEnd = Number.NEGATIVE_INFINITY;
  /** Resolves callers held back by `acknowledge` once the uncommitted calls are within the bound again. */
  #room: { promise: Promise<void>; resolve: () => void } | undefined;
  /** Recording steps put off until the call they belong to is on its way (see `defer`), in the order deferred. */
  #deferred: { run: () => void; done: boolean }[] = [];
  /** How long `#deferred` may grow before the steps already run are dropped from it. */
  #deferredRoom = 256;
  /** True from when the timer's turn is scheduled until it ends (see `#flush`). */
  #flushing = false;
  /** Strict callers' wait for the batch that goes once the one in the air lands (see `#afterCommit`). */
  #nextCommit: Promise<void> | undefined;
  /** Calls starting under 'strict' wait for this: the commit of their rows (see `beforeSend`). */
  #startCommit: Promise<void> | undefined;
  #failure: HostError | undefined;
  /** Ends the wait before the next batch (set while one is waiting). */
  #wake: (() => void) | undefined;
  #deferredScheduled = false;
  /** When the last batch was handed to the store. */
  #lastCommit = Number.NEGATIVE_INFINITY;
  readonly #commitIntervalMs: number;
  /** A batch whose first ended call is this old goes with the next call that ends. */
  readonly #maxBatchAgeMs: number;
  /** The time half of the loss bound. */
  readonly #boundMs: number;
  readonly #store: HostStore;
  readonly #onError: (error: HostError) => void;
  readonly #now: () => number;
  /** Hands a call's result back under the writer's durability: one function per writer, no closure per call. */
  readonly #release: (result: unknown) => unknown;
  /** Durability 'strict': a call's rows are committed before it is sent (see `beforeSend`). */
  readonly #strict: boolean;

  constructor(config: HistoryWriterConfig) {
    this.#store = config.store;
    this.#onError = config.onError ?? (() => undefined);
    this.#now = config.now ?? (() => performance.now());
    const interval = config.commitIntervalMs ?? 5;
    if (!Number.isFinite(interval) || interval < 0) {
      throw new HostError('config_invalid', `commitIntervalMs must be a number of milliseconds >= 0, not ${interval}`);
    }
    const durability = config.durability ?? 'grouped';
    if (durability !== 'grouped' && durability !== 'strict') {
      throw new HostError('config_invalid', `durability must be 'grouped' or 'strict', not ${String(durability)}`);
    }
    this.#commitIntervalMs = interval;
    this.#maxBatchAgeMs = Math.max(1, 2 * interval);
    this.#boundMs = Math.max(HISTORY_LOSS_BOUND.ms, 4 * interval);
    this.#strict = durability === 'strict';
    this.#release = this.#strict ? this.#afterCommit : this.#withinBound;
  }

  /** Throws the write failure that stopped the queue, if any. */
  assertHealthy(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Queues a write; it is stored after every write queued before it. */
  write(write: StoreWrite): void {
    this.assertHealthy();
    this.#pending.push(write);
    if (write.kind === 'transition' && write.result !== undefined) this.#ended();
    else if (this.#pending.length >= BATCH_WRITES) this.#send();
    if (!this.#flushing) {
      this.#flushing = true;
      setImmediate(this.#startFlush);
    }
  }

  /**
   * Hands a call's result back when the durability allows: under `'strict'` once the batch holding its last writes
   * is committed; under `'grouped'` at once, unless the calls not yet committed pass `HISTORY_LOSS_BOUND`, and then
   * once the store has caught up. Rejects with `store_error` when the commit it waited for failed.
   */
  acknowledge<T>(call: Promise<T>): Promise<T> {
    return call.then(this.#release as (result: T) => T | Promise<T>);
  }

  /**
   * Puts off a recording step (one that queues writes and tells listeners) until the end of this turn of the event
   * loop, after the work in hand has been sent; `drain` runs it first, so a reader never misses it. Returns a
   * function that runs it now if it has not run yet: whoever needs its effects first calls that. Under durability
   * `'strict'` it runs at once: the call's rows must be committed before its request goes (see `beforeSend`).
   */
  defer(run: () => void): () => void {
    this.assertHealthy();
    if (this.#strict) {
      run();
      return NOTHING;
    }
    const entry = { run, done: false };
    if (this.#deferred.length >= this.#deferredRoom) {
      // A caller that never yields never lets the turn end: the steps its calls already ran are dropped here.
      this.#deferred = this.#deferred.filter((e) => !e.done);
      this.#deferredRoom = Math.max(256, 2 * this.#deferred.length);
    }
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

  /**
   * What a call waits for before its request is sent (or its native tool runs): under durability `'strict'`, the
   * commit of everything queued so far, its pending and running rows and their audit events with it, so a crash while
   * it runs leaves it on disk for the next host to find; undefined under `'grouped'`, which sends at once. Calls that
   * start or end while a batch is with the store share the next commit. Resolves even when that commit failed: the
   * caller then checks `assertHealthy`.
   */
  beforeSend(): Promise<void> | undefined {
    if (!this.#strict || this.#failure !== undefined) return undefined;
    // Sent after this run of code: calls started in it (a Promise.all of invokes) queue their rows first and share.
    return (this.#startCommit ??= Promise.resolve().then(this.#sendStarts));
  }

  /** Sends what the calls starting in this run of code queued (see `beforeSend`). */
  readonly #sendStarts = (): Promise<void> | undefined => {
    this.#startCommit = undefined;
    return this.#committed();
  };

  /** Resolves once every queued write is stored; rejects with the failure that stopped the queue. */
  async drain(): Promise<void> {
    this.#runAllDeferred();
    this.#wake?.();
    for (;;) {
      if (this.#pending.length > 0 && this.#failure === undefined) this.#send();
      const last = this.#flights.at(-1);
      if (last === undefined) break;
      await last.done;
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

  /** Counts a call's end, and sends the batch at once when it is big or old enough. */
  #ended(): void {
    const now = this.#now();
    this.#lastEnd = now;
    this.#uncommittedCalls += 1;
    if (this.#pendingCalls++ === 0) this.#pendingSince = now;
    if (
      this.#pendingCalls >= BATCH_CALLS ||
      now - this.#pendingSince >= this.#maxBatchAgeMs ||
      this.#pending.length >= BATCH_WRITES
    ) {
      this.#send();
    }
  }

  /**
   * Hands everything queued to the store as one batch, without waiting for the batches before it to land. When one
   * fails, a batch sent after it may still commit (its writes reach the store in order and may not depend on it);
   * the writer stops at the failure all the same, and no caller waiting on either is told the call was kept.
   */
  #send(): Flight {
    const batch = this.#pending;
    const flight: Flight = { calls: this.#pendingCalls, since: this.#pendingSince, done: LANDED };
    this.#pending = [];
    this.#pendingCalls = 0;
    this.#pendingSince = Number.POSITIVE_INFINITY;
    this.#lastCommit = this.#now();
    let answered: Promise<void>;
    try {
      answered = this.#store.write(batch).then(undefined, this.#failed);
    } catch (error) {
      this.#fail(error);
      answered = LANDED;
    }
    const before = this.#flights.at(-1);
    this.#flights.push(flight);
    // Flights land in the order they were sent, so a landed flight means every batch before it was answered too.
    flight.done = (before === undefined ? answered : Promise.all([before.done, answered])).then(() => this.#landed());
    return flight;
  }

  #landed(): void {
    const flight = this.#flights.shift();
    if (flight !== undefined) this.#uncommittedCalls -= flight.calls;
    if (this.#room !== undefined && (this.#failure !== undefined || this.#isWithinBound())) {
      const room = this.#room;
      this.#room = undefined;
      room.resolve();
    }
  }

  /** True while the calls not known committed are at most the bound's count, and ended within its time. */
  #isWithinBound(): boolean {
    if (this.#uncommittedCalls > HISTORY_LOSS_BOUND.calls) return false;
    const limit = this.#lastEnd - this.#boundMs;
    for (const flight of this.#flights) if (flight.calls > 0) return flight.since >= limit;
    return this.#pendingSince >= limit;
  }

  /** `'grouped'`: the result at once while within the bound; else once the store has caught up. */
  readonly #withinBound = (result: unknown): unknown => {
    if (this.#isWithinBound()) return result;
    // The caller waits for the batches in the air: once they land, what is queued is within the bound by itself (under
    // 32 calls, ended within two commit intervals), so it goes with the timer or the 32nd call and the calls held
    // back share a commit. Sending each held-back call's end as a batch of its own gave a store that is behind one
    // commit per call and kept it behind (64 callers on a worker store: 1.1 calls a batch, against 32 now).
    if (this.#room === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.#room = { promise, resolve };
    }
    return this.#room.promise.then(() => {
      this.assertHealthy();
      return result;
    });
  };

  /** `'strict'`: the result once everything queued so far (the call's last writes with it) is committed. */
  readonly #afterCommit = (result: unknown): unknown => {
    const committed = this.#committed();
    if (committed === undefined) {
      this.assertHealthy();
      return result;
    }
    return committed.then(() => {
      this.assertHealthy();
      return result;
    });
  };

  /** Resolves once everything queued so far is committed (undefined when nothing is queued or in the air). */
  #committed(): Promise<void> | undefined {
    const inAir = this.#flights.at(-1);
    let committed: Promise<void> | undefined;
    if (inAir !== undefined && this.#pending.length > 0 && this.#failure === undefined) {
      // A batch is with the store: what is queued goes once it lands, with the ends of every call acknowledged
      // meanwhile, so calls that end while the store works share one commit instead of paying one each.
      committed = this.#nextCommit ??= inAir.done.then(this.#sendNext);
    } else {
      if (this.#pending.length > 0 && this.#failure === undefined) this.#send();
      committed = this.#flights.at(-1)?.done;
    }
    return committed;
  }

  /** Sends what strict callers wait for once the batch in the air landed; resolves once every batch has landed. */
  readonly #sendNext = (): Promise<void> | undefined => {
    this.#nextCommit = undefined;
    if (this.#pending.length > 0 && this.#failure === undefined) this.#send();
    return this.#flights.at(-1)?.done;
  };

  /** Waits out the rest of the commit interval (recording steps put off meanwhile still run on time). */
  async #pace(): Promise<void> {
    const wait = this.#lastCommit + this.#commitIntervalMs - this.#now();
    if (wait <= 0) return;
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

  readonly #failed = (error: unknown): void => this.#fail(error);

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
    this.#uncommittedCalls -= this.#pendingCalls;
    this.#pendingCalls = 0;
    this.#pendingSince = Number.POSITIVE_INFINITY;
    this.#onError(this.#failure);
  }

  readonly #startFlush = (): void => void this.#flush();

  /** The timer's turn: every batch at least `commitIntervalMs` after the one before, until nothing is queued. */
  async #flush(): Promise<void> {
    try {
      while (this.#pending.length > 0 && this.#failure === undefined) {
        await this.#pace();
        if (this.#pending.length === 0 || this.#failure !== undefined) break;
        await this.#send().done;
      }
    } finally {
      this.#flushing = false;
    }
  }
}

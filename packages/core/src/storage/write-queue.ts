import { HostError } from '../errors/host-error.js';
import type { HistoryWrite, HostStore } from './host-store.js';

/**
 * Ordered, overlapped history writes. The call path hands each write to the queue and goes on; the queue stores
 * everything queued so far as one batch (one transaction) on the next turn of the event loop, which is while the
 * server works on the request just sent. Readers `drain()` first, so history never shows less than what callers got.
 *
 * A crash can lose the writes of the last moment, never half-write a batch. A failed batch stops the queue: every
 * later write and every new call fails with `store_error`, so no call runs without its history.
 */
export class WriteQueue {
  #pending: HistoryWrite[] = [];
  #running: Promise<void> | undefined;
  #failure: HostError | undefined;

  constructor(
    private readonly store: HostStore,
    private readonly onError: (error: HostError) => void = () => undefined,
  ) {}

  /** Throws the write failure that stopped the queue, if any. */
  assertHealthy(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Queues a write; it is stored after every write queued before it. */
  write(write: HistoryWrite): void {
    this.assertHealthy();
    this.#pending.push(write);
    this.#running ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#flush());
  }

  /** Resolves once every queued write is stored; rejects with the failure that stopped the queue. */
  async drain(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
    this.assertHealthy();
  }

  async #flush(): Promise<void> {
    try {
      while (this.#pending.length > 0 && this.#failure === undefined) {
        const batch = this.#pending;
        this.#pending = [];
        try {
          await this.store.writeBatch(batch);
        } catch (error) {
          this.#failure =
            error instanceof HostError && error.code === 'store_error'
              ? error
              : new HostError(
                  'store_error',
                  `a history write failed: ${error instanceof Error ? error.message : String(error)}`,
                  { cause: error },
                );
          this.#pending = [];
          this.onError(this.#failure);
        }
      }
    } finally {
      this.#running = undefined;
    }
  }
}

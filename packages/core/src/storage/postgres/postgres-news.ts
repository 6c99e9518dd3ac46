import type { Clock } from '../../clock.js';
import { PostgresListener } from './postgres-listener.js';
import type { PgNotification, PgPool } from './postgres-store-config.js';

/** What one subscriber to a channel is told. */
export interface NewsSubscriber {
  /** A notification on the channel. */
  readonly heard: (message: PgNotification) => void;
  /**
   * LISTEN on the channel is in place: `false` the first time, `true` after a lost connection was made anew (what was
   * said while it was down is unknown, so the subscriber reads again whatever its channel speaks of).
   */
  readonly listening?: (again: boolean) => void;
  /** The connection was lost or could not be made; it is made again on the clock. */
  readonly lost?: (error: Error) => void;
}

interface Subscription {
  readonly channel: string;
  readonly subscriber: NewsSubscriber;
  /** Told `listening(false)` already. */
  started: boolean;
}

/**
 * What a process hears from the other instances on one database, on one LISTEN connection held from the first
 * subscriber on: the store's decisions and switches and whatever else the process listens for subscribe here by
 * channel, so a process holds one connection of its pool for news, however many channels it hears. A lost connection
 * is made again once, on the clock, and then every subscriber is told to read again.
 */
export class PostgresNews {
  readonly #subscriptions = new Set<Subscription>();
  readonly #listener: PostgresListener;
  #adding: Promise<unknown> = Promise.resolve();

  constructor(options: { readonly pool: PgPool; readonly clock?: Clock }) {
    const { pool, clock } = options;
    this.#listener = new PostgresListener({
      pool,
      channels: [],
      ...(clock === undefined ? {} : { clock }),
      onNotification: (message) => {
        for (const { channel, subscriber } of [...this.#subscriptions]) {
          if (channel === message.channel) subscriber.heard(message);
        }
      },
      onListening: (again) => {
        for (const subscription of [...this.#subscriptions]) this.#started(subscription, again);
      },
      onError: (error) => {
        for (const { subscriber } of [...this.#subscriptions]) subscriber.lost?.(error);
      },
    });
  }

  /**
   * Subscribes to one channel (LISTEN on it from now on, the connection made with the first); returns what ends it.
   * Throws for a channel that is not a plain SQL name.
   */
  add(channel: string, subscriber: NewsSubscriber): () => void {
    const listened = this.#listener.add(channel);
    const subscription: Subscription = { channel, subscriber, started: false };
    this.#subscriptions.add(subscription);
    void this.#listener.start();
    const added = listened.then(() => {
      if (this.#listener.connected) this.#started(subscription, false);
    });
    this.#adding = Promise.all([this.#adding, added]);
    return () => void this.#subscriptions.delete(subscription);
  }

  /** Resolves once LISTEN is in place on every channel subscribed to so far (at once when nobody listens). */
  async listening(): Promise<void> {
    await this.#adding;
    await this.#listener.listening();
  }

  /** True while the connection is held and listening. */
  get connected(): boolean {
    return this.#listener.connected;
  }

  #started(subscription: Subscription, again: boolean): void {
    if (!this.#subscriptions.has(subscription)) return;
    if (!subscription.started) {
      subscription.started = true;
      subscription.subscriber.listening?.(false);
    } else if (again) {
      subscription.subscriber.listening?.(true);
    }
  }

  /** Stops listening and gives the connection back (before the pool ends). */
  async stop(): Promise<void> {
    this.#subscriptions.clear();
    await this.#listener.stop();
  }
}

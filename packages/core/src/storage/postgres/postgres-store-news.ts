import type { Clock } from '../../clock.js';
import { PostgresListener } from './postgres-listener.js';
import type { PgNotification, PgPool } from './postgres-store-config.js';

/**
 * What a store hears from the other instances, on one LISTEN connection (through the shared `PostgresListener`) held
 * from the first listener on: each notification is told to the listeners of its channel. After a lost connection is
 * made again, every listener is told `undefined`: what was said while it was down is unknown, so a listener reads
 * again whatever its channel speaks of. One connection for every channel, so a small pool is not used up by news.
 */
export class StoreNews {
  readonly #listeners = new Map<string, Set<(message: PgNotification | undefined) => void>>();
  readonly #listener: PostgresListener;

  constructor(options: { readonly pool: PgPool; readonly channels: readonly string[]; readonly clock?: Clock }) {
    const { pool, channels, clock } = options;
    for (const channel of channels) this.#listeners.set(channel, new Set());
    this.#listener = new PostgresListener({
      pool,
      channels,
      ...(clock === undefined ? {} : { clock }),
      onNotification: (message) => this.#tell(message.channel, message),
      onListening: (again) => {
        if (again) for (const channel of channels) this.#tell(channel, undefined);
      },
    });
  }

  /** Adds a listener to one channel (starting to LISTEN with the first); returns what removes it. */
  add(channel: string, listener: (message: PgNotification | undefined) => void): () => void {
    const listeners = this.#listeners.get(channel);
    if (listeners === undefined) throw new Error(`the store does not listen on channel ${channel}`);
    listeners.add(listener);
    void this.#listener.start();
    return () => void listeners.delete(listener);
  }

  /** Resolves once LISTEN is in place (immediately when nobody listens). */
  async listening(): Promise<void> {
    await this.#listener.listening();
  }

  #tell(channel: string, message: PgNotification | undefined): void {
    for (const listener of this.#listeners.get(channel) ?? []) listener(message);
  }

  /** Stops listening and gives the connection back (before the pool ends). */
  async stop(): Promise<void> {
    for (const listeners of this.#listeners.values()) listeners.clear();
    await this.#listener.stop();
  }
}

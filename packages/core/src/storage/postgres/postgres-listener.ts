import type { Clock } from '../../clock.js';
import { systemClock } from '../../clock.js';
import { backoffDelay } from '../../retry/backoff.js';
import type { BackoffPolicy } from '../../retry/backoff.js';
import type { PgClient, PgNotification, PgPool } from './postgres-store-config.js';

/**
 * How a lost LISTEN connection comes back: soon (news sent while it is down is lost, so every listener reads again
 * on `onListening(true)`), backing off to a few seconds while the database stays away, with jitter so the instances
 * that lost it together do not all return in the same instant.
 */
export const RELISTEN_BACKOFF: BackoffPolicy = { baseMs: 250, maxMs: 5_000, jitter: 0.5 };

/** What one LISTEN connection serves: its channels, what to do with a notification, and when it (re)started. */
export interface PostgresListenerOptions {
  readonly pool: PgPool;
  /** The channels heard from the start, on the one connection (more can be added with `add`). */
  readonly channels: readonly string[];
  readonly onNotification: (message: PgNotification) => void;
  /** LISTEN is in place; `again` after a lost connection was made anew (what was sent meanwhile is unknown). */
  readonly onListening?: (again: boolean) => void;
  /** A connection could not be made or was lost; it is made again on the host clock. */
  readonly onError?: (error: Error) => void;
  readonly clock?: Clock;
  readonly backoff?: BackoffPolicy;
}

/**
 * One LISTEN connection held from the pool, made again on the host's clock with the host's backoff whenever it is
 * lost: the one reconnect loop for every channel the host and the console listen on.
 */
export class PostgresListener {
  readonly #options: PostgresListenerOptions;
  readonly #clock: Clock;
  readonly #channels: Set<string>;
  #client: PgClient | undefined;
  #starting: Promise<void> | undefined;
  #cancelRetry: (() => void) | undefined;
  #attempt = 0;
  #stopped = false;

  constructor(options: PostgresListenerOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    for (const channel of options.channels) checkChannel(channel);
    this.#channels = new Set(options.channels);
  }

  /**
   * Hears `channel` too, on the same connection: at once when LISTEN is in place (resolves once it is), else from
   * the next (re)connection. A channel is a plain SQL name (letters, digits, underscores): another throws here.
   */
  add(channel: string): Promise<void> {
    if (this.#channels.has(channel)) return this.listening();
    checkChannel(channel);
    this.#channels.add(channel);
    const client = this.#client;
    if (client === undefined) return this.listening();
    // A failure here is the connection's: its `error` event makes it again, with every channel.
    return client.query({ text: `LISTEN ${channel}` }).then(
      () => undefined,
      () => undefined,
    );
  }

  /** Starts listening, once; later calls wait for the same start. */
  start(): Promise<void> {
    if (this.#client === undefined && this.#starting === undefined && this.#cancelRetry === undefined)
      this.#starting = this.#listen(false);
    return this.listening();
  }

  /** True while LISTEN is in place. */
  get connected(): boolean {
    return this.#client !== undefined;
  }

  /** Resolves once the current attempt to listen has ended (at once when none runs). */
  async listening(): Promise<void> {
    await this.#starting;
  }

  async #listen(again: boolean): Promise<void> {
    const { pool } = this.#options;
    const channels = this.#channels;
    let client: PgClient | undefined;
    try {
      client = await pool.connect();
      const held = client;
      held.on('notification', (message) => {
        if (channels.has(message.channel)) this.#options.onNotification(message);
      });
      held.on('error', (error) => this.#lost(held, error));
      // Channels added while LISTEN was being sent are sent next, until none is missing.
      const sent = new Set<string>();
      for (let missing = [...channels]; missing.length > 0; missing = [...channels].filter((c) => !sent.has(c))) {
        await held.query({ text: missing.map((channel) => `LISTEN ${channel}`).join('; ') });
        for (const channel of missing) sent.add(channel);
      }
      if (this.#stopped) {
        held.release();
        return;
      }
      this.#client = held;
      this.#attempt = 0;
      this.#options.onListening?.(again);
    } catch (error) {
      client?.release(asError(error));
      this.#options.onError?.(asError(error));
      this.#schedule();
    } finally {
      this.#starting = undefined;
    }
  }

  #lost(client: PgClient, error: Error): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    client.release(error);
    this.#options.onError?.(error);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#stopped || this.#cancelRetry !== undefined) return;
    const delay = backoffDelay(this.#attempt, this.#options.backoff ?? RELISTEN_BACKOFF);
    this.#attempt += 1;
    this.#cancelRetry = this.#clock.setTimer(() => {
      this.#cancelRetry = undefined;
      this.#starting = this.#listen(true);
    }, delay);
  }

  /** Stops listening and gives the connection back (before the pool ends). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#cancelRetry?.();
    this.#cancelRetry = undefined;
    await this.#starting;
    const client = this.#client;
    this.#client = undefined;
    if (client === undefined) return;
    try {
      await client.query({ text: 'UNLISTEN *' });
      client.release();
    } catch (error) {
      client.release(asError(error));
    }
  }
}

function checkChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel))
    throw new Error(`not a channel name to LISTEN on: ${JSON.stringify(channel)}`);
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

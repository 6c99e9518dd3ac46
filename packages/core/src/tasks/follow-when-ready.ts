import type { Client } from '@modelcontextprotocol/client';
import type { Clock } from '../clock.js';
import type { TaskConnection } from './task-servers.js';

/** The first wait for a server that is not ready when a task is resumed; doubled after each try. */
const FIRST_WAIT_MS = 1_000;
/** The longest wait between two tries. */
const MAX_WAIT_MS = 30_000;
/** What a connection that is not ready answers (call-failure.ts, `unavailableError`). */
const NOT_READY = new Set(['server_unavailable', 'needs_auth']);

/** What waiting for a task's server needs. */
export interface FollowWhenReadyOptions<T> {
  readonly connection: TaskConnection;
  readonly clock: Clock;
  /** The call's signal: its ceiling or a cancel ends the wait. */
  readonly signal: AbortSignal;
  /** Told at each wait with the server's state, as the call's progress (a wait is not an idle call). */
  readonly waiting: (state: string) => void;
  /** Follows the task once the server's client is ready. */
  readonly follow: (client: Client) => Promise<T>;
}

/**
 * Follows a resumed task on its server's connection, waiting for the connection when it is not ready yet (the server
 * was down when the host started, is reconnecting, or needs sign-in): tried again after 1 s, then twice as long each
 * time up to 30 s, on the host's clock, until the call's signal aborts (its task ceiling, or a cancel), which rejects
 * with the last "not ready" error. A connection that failed and does not retry on its own (a first connection that
 * failed) is restarted at each try. Errors of the follow itself (the task lost, failed) are not waited on.
 */
export async function followWhenReady<T>(options: FollowWhenReadyOptions<T>): Promise<T> {
  const { connection, clock, signal } = options;
  for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, MAX_WAIT_MS)) {
    let reached = false;
    try {
      return await connection.withClient((client) => {
        reached = true;
        return options.follow(client);
      });
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (reached || signal.aborted || typeof code !== 'string' || !NOT_READY.has(code)) throw error;
      options.waiting(connection.state);
      await new Promise<void>((done) => {
        const stop = clock.setTimer(done, wait);
        signal.addEventListener(
          'abort',
          () => {
            stop();
            done();
          },
          { once: true },
        );
      });
      if (signal.aborted) throw error;
      if (connection.state === 'failed') await connection.restart().catch(() => undefined);
    }
  }
}

import type { PgClient, PgPool } from './postgres-store-config.js';

/** The connection dropped under a checked-out client: the statement that needs it fails with the same cause. */
function dropped(): void {}

/**
 * Runs `work` on one pooled connection, held with an `error` listener while it is out: node-postgres emits a
 * connection the server drops between two statements (a restart, a failover) as an `error` event on the client, an
 * uncaught exception that ends the process when nothing listens. `work`'s next statement fails with the cause
 * anyway, so the listener only keeps the process alive. `release` gets what `work` says broke the connection.
 */
export async function withConnection<T>(
  pool: PgPool,
  work: (client: PgClient, broke: (error: Error) => void) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  client.on('error', dropped);
  let broken: Error | undefined;
  try {
    return await work(client, (error) => (broken = error));
  } finally {
    client.removeListener('error', dropped);
    client.release(broken);
  }
}

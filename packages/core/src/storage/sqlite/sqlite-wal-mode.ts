import type { SqliteDatabase } from './sqlite-store-config.js';

/** How long to wait between tries while another connection holds the file. */
const RETRY_MS = 10;

/**
 * Puts the file in WAL mode, waiting up to `timeoutMs` for another connection's write lock. The switch reads the file
 * and then needs that lock, and SQLite refuses such an upgrade at once, without the busy handler: two processes
 * opening one new file together met it in 18 opens of 200 here, none since. The wait is a blocking sleep, like the
 * busy handler's own, because a store opens synchronously.
 */
export function enterWalMode(database: SqliteDatabase, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      database.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS);
    }
  }
}

/** True for "the database is locked" from either driver, extended codes too (better-sqlite3's code, `node:sqlite`'s errcode). */
function isBusy(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as { readonly code?: unknown; readonly errcode?: unknown };
  return (
    (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) ||
    (typeof errcode === 'number' && (errcode & 0xff) === 5)
  );
}

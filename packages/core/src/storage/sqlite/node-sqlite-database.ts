import { createRequire } from 'node:module';
import type { SqliteDatabase, SqliteStatement, SqliteTransaction } from './sqlite-store-config.js';

/**
 * The methods of a `node:sqlite` `DatabaseSync` (Node >= 22.13, or 22.5 with `--experimental-sqlite`) that
 * `nodeSqliteDatabase` uses, declared structurally so core compiles against Node 20's types and loads no module.
 */
export interface NodeSqliteDriver {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  close(): void;
}

/**
 * Gives a `node:sqlite` connection the shape `SqliteStore` takes. `node:sqlite` has statements of the same shape as
 * better-sqlite3 but no `pragma()` or `transaction()`: a pragma runs as a prepared `PRAGMA` statement, and a
 * transaction as `BEGIN`/`COMMIT` around the function, rolled back when it throws.
 */
export function nodeSqliteDatabase(database: NodeSqliteDriver): SqliteDatabase {
  return {
    prepare: (sql) => database.prepare(sql),
    exec: (sql) => database.exec(sql),
    pragma: (sql) => database.prepare(`PRAGMA ${sql}`).all(),
    transaction: <A extends unknown[], R>(fn: (...args: A) => R): SqliteTransaction<A, R> => {
      const inTransaction =
        (begin: string) =>
        (...args: A): R => {
          database.exec(begin);
          try {
            const result = fn(...args);
            database.exec('COMMIT');
            return result;
          } catch (error) {
            rollBack(database);
            throw error;
          }
        };
      return Object.assign(inTransaction('BEGIN'), { immediate: inTransaction('BEGIN IMMEDIATE') });
    },
    close: () => database.close(),
  };
}

/** Rolls back the open transaction; SQLite may already have ended it (a failed COMMIT), and the first error is the one to report. */
function rollBack(database: NodeSqliteDriver): void {
  try {
    database.exec('ROLLBACK');
  } catch {
    // No transaction left to roll back.
  }
}

/** The `node:sqlite` module, or undefined on a Node without it (before 22.5, or before 22.13 without `--experimental-sqlite`). */
export function loadNodeSqlite(): { DatabaseSync: new (path: string) => NodeSqliteDriver } | undefined {
  // Node 22 prints "SQLite is an experimental feature" on first load: noise to a CLI user, who chose no driver. Only
  // that one warning is held back, and only during this synchronous load.
  const emitWarning = process.emitWarning.bind(process) as (...args: unknown[]) => void;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was, never called unbound
  const original = process.emitWarning;
  process.emitWarning = (warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/^SQLite is an experimental feature/.test(text)) return;
    emitWarning(warning, ...rest);
  };
  try {
    return createRequire(import.meta.url)('node:sqlite') as { DatabaseSync: new (path: string) => NodeSqliteDriver };
  } catch {
    return undefined;
  } finally {
    process.emitWarning = original;
  }
}

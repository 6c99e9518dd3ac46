/**
 * What a prepared statement must do for `SqliteStore`: run a write and report how many rows it changed, read one row,
 * read all rows. Parameters are positional. A better-sqlite3 12 `Statement` fits as is.
 */
export interface SqliteStatement {
  run(...params: unknown[]): { readonly changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/**
 * The few methods `SqliteStore` calls on a SQLite connection, declared structurally so that core depends on no driver
 * (and installs without a native build). A better-sqlite3 12 `Database` fits as is; any synchronous driver with the
 * same shape does too.
 *
 * - `prepare` compiles a statement once; the store keeps its statements for the life of the connection.
 * - `exec` runs DDL and the `BEGIN IMMEDIATE`/`COMMIT` around each migration.
 * - `pragma` sets WAL, `synchronous`, foreign keys and the busy timeout on open.
 * - `transaction` wraps a function so that it runs in one transaction and rolls back when it throws; the store calls
 *   its `immediate` form, so each write takes the write lock up front (see `SqliteTransaction`).
 * - `close` releases the connection when the store closes.
 */
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
  pragma(sql: string): unknown;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): SqliteTransaction<A, R>;
  close(): unknown;
}

/**
 * A function wrapped in a transaction, as better-sqlite3 12 returns it. The store runs every write through
 * `immediate` (`BEGIN IMMEDIATE`): a write that reads before it writes (the audit chain reads its last event) must hold
 * the write lock from its first read, or a second process committing in between makes SQLite refuse the upgrade with
 * `SQLITE_BUSY` at once, without waiting out the busy timeout.
 */
export interface SqliteTransaction<A extends unknown[], R> {
  (...args: A): R;
  immediate(...args: A): R;
}

/**
 * How to open a `SqliteStore`: a `path` (the store opens the file with `node:sqlite` or `better-sqlite3`, whichever
 * this process can load, and closes it on `close()`), or a `database` the caller opened with a driver of its choice.
 */
export type SqliteStoreConfig = SqliteStoreOptions &
  (
    | {
        /** An open connection. The store owns it from here on: `close()` closes it. */
        readonly database: SqliteDatabase;
        readonly path?: undefined;
      }
    | {
        /** The database file, created when absent (its directory must exist). */
        readonly path: string;
        readonly database?: undefined;
      }
  );

/** The tuning a `SqliteStore` takes whichever way it is opened. */
export interface SqliteStoreOptions {
  /**
   * How long a write waits for another connection's lock before failing, in milliseconds. Default 5000: long enough
   * for a second host process or a backup to finish its write, short enough that a stuck lock fails the call clearly.
   */
  readonly busyTimeoutMs?: number;
  /**
   * The store checkpoints the WAL itself, off the call path: once writes have paused for this long (default 500 ms),
   * and inline after `checkpointEveryWrites` batches (default 1000) during a long burst. SQLite's own automatic
   * checkpoint would otherwise land inside a call every few hundred writes and sync the file there.
   */
  readonly idleCheckpointMs?: number;
  readonly checkpointEveryWrites?: number;
  /**
   * During a burst, checkpoint on a thread of its own with its own connection (default true, for a file on disk), so
   * the writer's thread only finishes the little written meanwhile. False keeps every checkpoint on the writer's
   * thread (no second thread or connection).
   */
  readonly checkpointOnThread?: boolean;
}

import type { Clock } from '../../clock.js';
/** How one column's text is turned into a value: the shape of node-postgres's per-query `types`. */
export interface PgTypeParsers {
  getTypeParser(oid: number, format?: string): (value: string) => unknown;
}

/** One statement: its text, positional values ($1, $2 ...), a name to prepare it once per connection, the parsers. */
export interface PgQueryConfig {
  readonly text: string;
  readonly values?: unknown[];
  readonly name?: string;
  readonly types?: PgTypeParsers;
}

/** What a statement returns: its rows (column name to value) and how many rows it changed. */
export interface PgQueryResult {
  readonly rows: unknown[];
  readonly rowCount: number | null;
}

/** A notification of LISTEN/NOTIFY, as node-postgres hands it to a client's `notification` listeners. */
export interface PgNotification {
  readonly channel: string;
  readonly payload?: string | undefined;
}

/**
 * A connection taken from the pool for one transaction (or held for LISTEN). A node-postgres 8 `PoolClient` fits as
 * is: `query` runs one statement (a text without values may hold several, run as one simple query), `release` gives
 * the connection back (with an error: the pool discards it).
 */
export interface PgClient {
  query(config: PgQueryConfig): Promise<PgQueryResult>;
  release(error?: Error | boolean): void;
  on(event: 'notification', listener: (message: PgNotification) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * The few methods `PostgresStore` calls on a connection pool, declared structurally so that core depends on no driver:
 * a node-postgres 8 `Pool` fits as is. Reads go through `query` (any pooled connection); each write batch takes one
 * connection with `connect` for its transaction; `end` closes every connection when the store closes.
 */
export interface PgPool {
  query(config: PgQueryConfig): Promise<PgQueryResult>;
  connect(): Promise<PgClient>;
  end(): Promise<void>;
}

/** How to open a `PostgresStore`. The caller makes the pool (its URL, size, TLS) and hands it over. */
export interface PostgresStoreConfig {
  /** A pool on the database. The store owns it from here on: `close()` ends it. */
  readonly pool: PgPool;
  /** The host's clock, on which a lost LISTEN connection is made again (default: the system's). */
  readonly clock?: Clock;
}

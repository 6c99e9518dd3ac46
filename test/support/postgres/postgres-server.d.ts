// Types of postgres-server.js (plain JavaScript, so that the bench runs it on Node as well as the tests).

/** A running throwaway cluster. */
export interface PostgresServer {
  /** The directory holding the server's unix socket. */
  readonly socketDir: string;
  readonly port: number;
  /** The postmaster's process id (its backends are its children). */
  readonly pid: number | undefined;
  /** The major version running, e.g. 15 (0 when AIRLOCK_PG_BIN names the binaries). */
  readonly version: number;
  /** A connection URL for `database` over the unix socket. */
  url(database: string): string;
  /** Creates a fresh, empty database (named, or `test_<pid>_<n>`) and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /**
   * Creates a fresh, empty schema in one database shared by the schemas, and returns a URL whose connections use it
   * (search_path): far cheaper than a database per case.
   */
  createSchema(): Promise<string>;
  /** Stops the server and removes the cluster. Idempotent. */
  stop(): Promise<void>;
}

/** The newest installed server's bin directory: AIRLOCK_PG_BIN, else /usr/lib/postgresql/<newest>/bin. */
export function findPostgresBin(env?: NodeJS.ProcessEnv): { bin: string; version: number };

/**
 * Starts a throwaway cluster in a fresh temporary directory, on a unix socket there (no TCP), as an unprivileged
 * account when run as root. Throws, naming what to install, when no PostgreSQL server is on the machine.
 */
export function startPostgres(options?: { readonly fsync?: boolean }): Promise<PostgresServer>;

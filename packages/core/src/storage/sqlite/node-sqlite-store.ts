import { HostError } from '../../errors/host-error.js';
import { loadNodeSqlite, nodeSqliteDatabase } from './node-sqlite-database.js';
import type { NodeSqliteDriver } from './node-sqlite-database.js';
import { SqliteStore } from './sqlite-store.js';
import type { SqliteStoreOptions } from './sqlite-store-config.js';

/** How to open a `NodeSqliteStore`: a file `path`, or a `DatabaseSync` the caller opened from `node:sqlite`. */
export type NodeSqliteStoreConfig = SqliteStoreOptions &
  (
    | { readonly path: string; readonly database?: undefined }
    | { readonly database: NodeSqliteDriver; readonly path?: undefined }
  );

/**
 * The SQLite store on Node's built-in `node:sqlite` (Node >= 22.13, or 22.5 with `--experimental-sqlite`): the same
 * schema, statements and write transactions as `SqliteStore`, with nothing to compile at install time. Throws
 * `HostError('store_error')` on a Node without `node:sqlite`; `SqliteStore({ path })` picks a driver by itself.
 *
 * @example
 * ```ts
 * const store = new NodeSqliteStore({ path: join(dataDir, 'airlock.db') });
 * ```
 */
export class NodeSqliteStore extends SqliteStore {
  constructor(config: NodeSqliteStoreConfig) {
    const { path, database, ...options } = config;
    const driver = database ?? openNodeSqlite(path);
    super({ ...options, database: nodeSqliteDatabase(driver) });
  }
}

/** Opens `path` with `node:sqlite`, or says which Node versions have it. */
function openNodeSqlite(path: string | undefined): NodeSqliteDriver {
  if (typeof path !== 'string' || path === '') {
    throw new HostError(
      'config_invalid',
      'NodeSqliteStore needs a path (the database file) or a database (a DatabaseSync)',
    );
  }
  const sqlite = loadNodeSqlite();
  if (sqlite === undefined) {
    throw new HostError(
      'store_error',
      `NodeSqliteStore needs node:sqlite (Node >= 22.13), and Node ${process.versions.node} has none: use SqliteStore ` +
        `with better-sqlite3 installed`,
      { data: { path, node: process.versions.node } },
    );
  }
  return new sqlite.DatabaseSync(path);
}

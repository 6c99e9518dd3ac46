// @airlock/core/sqlite: the embedded store. A subpath of its own, apart from the runtime-neutral root entry: it is
// the store of Node hosts. It opens a file with node:sqlite (built into Node >= 22.13) or better-sqlite3 when one is
// installed, or takes a connection from the caller, so core itself installs without native builds.
export { NodeSqliteStore } from './node-sqlite-store.js';
export type { NodeSqliteStoreConfig } from './node-sqlite-store.js';
export { nodeSqliteDatabase } from './node-sqlite-database.js';
export type { NodeSqliteDriver } from './node-sqlite-database.js';
export { openSqliteDatabase } from './open-sqlite-database.js';
export type { SqliteDriverName } from './open-sqlite-database.js';
export { SqliteStore } from './sqlite-store.js';
export type {
  SqliteDatabase,
  SqliteStatement,
  SqliteStoreConfig,
  SqliteStoreOptions,
  SqliteTransaction,
} from './sqlite-store-config.js';

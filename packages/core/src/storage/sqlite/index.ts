// @airlock/core/sqlite: the embedded store. A subpath of its own, apart from the runtime-neutral root entry: it is
// the store of Node hosts, and takes the SQLite driver (better-sqlite3 or any driver of the same shape) from the
// caller, so core itself installs without native builds.
export { SqliteStore } from './sqlite-store.js';
export type { SqliteDatabase, SqliteStatement, SqliteStoreConfig, SqliteTransaction } from './sqlite-store-config.js';

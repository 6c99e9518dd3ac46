import { createRequire } from 'node:module';
import { HostError } from '../../errors/host-error.js';
import { loadNodeSqlite, nodeSqliteDatabase } from './node-sqlite-database.js';
import type { SqliteDatabase } from './sqlite-store-config.js';

/** Which driver `openSqliteDatabase` found: Node's own `node:sqlite`, or the native module `better-sqlite3`. */
export type SqliteDriverName = 'node:sqlite' | 'better-sqlite3';

const require = createRequire(import.meta.url);

/**
 * Opens (creating it if absent) the SQLite file at `path` with the first driver this process can load: `node:sqlite`
 * (built into Node >= 22.13, no native build), else `better-sqlite3` (an optional dependency, for Node 20). Throws
 * `HostError('store_error')` saying what to install when neither loads.
 */
export function openSqliteDatabase(path: string): { database: SqliteDatabase; driver: SqliteDriverName } {
  const nodeSqlite = loadNodeSqlite();
  if (nodeSqlite !== undefined) {
    return { database: nodeSqliteDatabase(new nodeSqlite.DatabaseSync(path)), driver: 'node:sqlite' };
  }
  const BetterSqlite = loadBetterSqlite();
  if (BetterSqlite !== undefined) return { database: new BetterSqlite(path), driver: 'better-sqlite3' };
  throw new HostError(
    'store_error',
    `no SQLite driver to open ${path}: run on Node >= 22.13 (node:sqlite is built in) or install better-sqlite3 ` +
      `(npm install better-sqlite3); Node ${process.versions.node} has neither`,
    { data: { path, node: process.versions.node } },
  );
}

/** `better-sqlite3`'s constructor, or undefined when it is not installed (or its native build is missing). */
function loadBetterSqlite(): (new (path: string) => SqliteDatabase) | undefined {
  try {
    return require('better-sqlite3') as new (path: string) => SqliteDatabase;
  } catch {
    return undefined;
  }
}

import type { StoreWrite } from '../../store/host-store.js';
import { storedSwitch, storedSwitchKey } from '../../store/switches.js';
import type { SwitchKey, SwitchRecord } from '../../store/switches.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-store-config.js';

/** The same columns in SQLite and PostgreSQL (SQLite migration 6, PostgreSQL 7). */
export const SWITCH_COLUMNS = 'user_id, workspace_id, server_id, tool, updated_at, updated_by';

/** A switch row as both databases return it (PostgreSQL's BIGINT as a string). */
export interface SwitchRow {
  readonly user_id: string;
  readonly workspace_id: string;
  readonly server_id: string;
  readonly tool: string;
  readonly updated_at: number | string;
  readonly updated_by: string;
}

export function switchFromRow(row: SwitchRow): SwitchRecord {
  return {
    userId: row.user_id,
    workspaceId: row.workspace_id,
    serverId: row.server_id,
    tool: row.tool,
    updatedAt: Number(row.updated_at),
    updatedBy: row.updated_by,
  };
}

/** The parameters of an upsert, in `SWITCH_COLUMNS` order. */
export function switchParams(record: SwitchRecord): [string, string, string, string, number, string] {
  return [record.userId, record.workspaceId, record.serverId, record.tool, record.updatedAt, record.updatedBy];
}

/** The parameters of a key, in the key's column order. */
export function switchKeyParams(key: SwitchKey): [string, string, string, string] {
  return [key.userId, key.workspaceId, key.serverId, key.tool];
}

const BY_KEY = 'user_id = ? AND workspace_id = ? AND server_id = ? AND tool = ?';

/**
 * The switches table of a `SqliteStore` (migration 6): its statements, prepared once, and the two writes, which run
 * inside the store's write transaction (so a refused batch leaves none of them).
 */
export class SqliteSwitches {
  readonly #upsert: SqliteStatement;
  readonly #delete: SqliteStatement;
  readonly #list: SqliteStatement;

  constructor(database: SqliteDatabase) {
    this.#upsert = database.prepare(
      `INSERT INTO switches (${SWITCH_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) ` +
        'ON CONFLICT (user_id, workspace_id, server_id, tool) DO UPDATE SET ' +
        'updated_at = excluded.updated_at, updated_by = excluded.updated_by',
    );
    this.#delete = database.prepare(`DELETE FROM switches WHERE ${BY_KEY}`);
    this.#list = database.prepare(
      `SELECT ${SWITCH_COLUMNS} FROM switches ORDER BY user_id, workspace_id, server_id, tool`,
    );
  }

  /** Applies a `switch.put` or `switch.delete` write (inside the caller's transaction). */
  apply(write: Extract<StoreWrite, { kind: 'switch.put' | 'switch.delete' }>): void {
    if (write.kind === 'switch.put') this.#upsert.run(...switchParams(storedSwitch(write.record)));
    else this.#delete.run(...switchKeyParams(storedSwitchKey(write.key)));
  }

  list(): SwitchRecord[] {
    return (this.#list.all() as SwitchRow[]).map(switchFromRow);
  }
}

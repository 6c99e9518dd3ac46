import type { StoreWrite } from '../../store/host-store.js';
import { storedSwitch, storedSwitchKey } from '../../store/switches.js';
import type { SwitchRecord } from '../../store/switches.js';
import { SWITCH_COLUMNS, switchFromRow, switchKeyParams, switchParams } from '../sql/switch-rows.js';
import type { SwitchRow } from '../sql/switch-rows.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-store-config.js';

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

import type { SwitchKey, SwitchRecord } from '../../store/switches.js';

// The tool and server switches (switches), the same columns in SQLite and PostgreSQL.

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

import type { StoreWrite } from '../../store/host-store.js';
import { storedSwitch, storedSwitchKey } from '../../store/switches.js';
import type { SwitchRecord } from '../../store/switches.js';
import { PARSERS } from './postgres-statements.js';
import type { PgClient, PgPool } from './postgres-store-config.js';
import { SWITCH_COLUMNS, switchFromRow, switchKeyParams, switchParams } from '../sql/switch-rows.js';
import type { SwitchRow } from '../sql/switch-rows.js';

// The switches table of a PostgresStore (migration 7): the two writes, run inside the batch's transaction, and the
// read a host makes at start and again whenever a switch changed anywhere.

/**
 * The channel on which every instance tells the others that a switch changed: each switch write notifies it inside
 * its transaction (one notification per batch, as PostgreSQL folds equal ones), and every host reads the switches
 * again when it hears.
 */
export const SWITCHES_CHANNEL = 'airlock_switches';

/** Applies a `switch.put` or `switch.delete` write on the batch's connection, and notifies on commit. */
export async function applySwitchWrite(
  client: PgClient,
  write: Extract<StoreWrite, { kind: 'switch.put' | 'switch.delete' }>,
): Promise<void> {
  await client.query({
    name: 'airlock_switch_notify',
    text: `SELECT pg_notify('${SWITCHES_CHANNEL}', '')`,
    values: [],
  });
  if (write.kind === 'switch.put') {
    await client.query({
      name: 'airlock_switch_put',
      text:
        `INSERT INTO switches (${SWITCH_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6) ` +
        'ON CONFLICT (user_id, workspace_id, server_id, tool) DO UPDATE SET ' +
        'updated_at = excluded.updated_at, updated_by = excluded.updated_by',
      values: switchParams(storedSwitch(write.record)),
    });
    return;
  }
  await client.query({
    name: 'airlock_switch_delete',
    text: 'DELETE FROM switches WHERE user_id = $1 AND workspace_id = $2 AND server_id = $3 AND tool = $4',
    values: switchKeyParams(storedSwitchKey(write.key)),
  });
}

/** Every switch that is off, in key order (byte order, as SQLite sorts). */
export async function listSwitches(pool: PgPool): Promise<SwitchRecord[]> {
  const order = ['user_id', 'workspace_id', 'server_id', 'tool'].map((c) => `${c} COLLATE "C"`).join(', ');
  const { rows } = await pool.query({
    name: 'airlock_switch_list',
    text: `SELECT ${SWITCH_COLUMNS} FROM switches ORDER BY ${order}`,
    values: [],
    types: PARSERS,
  });
  return (rows as SwitchRow[]).map(switchFromRow);
}

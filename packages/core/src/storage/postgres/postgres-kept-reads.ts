import type { DecisionTenant } from '../../store/host-store.js';
import type { KeptReadRecord } from '../../store/kept-read.js';
import { PARSERS } from './postgres-statements.js';
import type { PgPool } from './postgres-store-config.js';

// The kept_reads table of a PostgresStore (migration 11): a resource read kept whole for every instance.

const SQL = {
  keep:
    'INSERT INTO kept_reads (id, user_id, workspace_id, server_id, uri, contents, kept_at) ' +
    "VALUES ($1, $2, $3, $4, $5, convert_to($6, 'UTF8'), $7)",
  drop: 'DELETE FROM kept_reads WHERE kept_at < $1',
  find:
    "SELECT id, user_id, workspace_id, server_id, uri, convert_from(contents, 'UTF8') AS contents, kept_at " +
    'FROM kept_reads WHERE id = $1 AND user_id = $2 AND workspace_id = $3 AND kept_at >= $4',
} as const;

interface KeptReadRow {
  readonly id: string;
  readonly user_id: string;
  readonly workspace_id: string;
  readonly server_id: string;
  readonly uri: string;
  readonly contents: string;
  readonly kept_at: number;
}

/** Keeps one read, then drops those kept before `dropBefore` (one indexed delete; none when reads are kept forever). */
export async function keepRead(pool: PgPool, read: KeptReadRecord, dropBefore: number | null): Promise<void> {
  const { id, userId, workspaceId, serverId, uri, contents, keptAt } = read;
  await pool.query({ text: SQL.keep, values: [id, userId, workspaceId, serverId, uri, contents, keptAt] });
  if (dropBefore !== null) await pool.query({ text: SQL.drop, values: [dropBefore] });
}

/** The read kept under `id` in this tenant since `keptAfter` (null: whenever), or undefined. */
export async function findKeptRead(
  pool: PgPool,
  tenant: DecisionTenant,
  id: string,
  keptAfter: number | null,
): Promise<KeptReadRecord | undefined> {
  const { rows } = await pool.query({
    text: SQL.find,
    values: [id, tenant.userId, tenant.workspaceId, keptAfter ?? 0],
    types: PARSERS,
  });
  const row = rows[0] as KeptReadRow | undefined;
  if (row === undefined) return undefined;
  return {
    id: row.id,
    userId: row.user_id,
    workspaceId: row.workspace_id,
    serverId: row.server_id,
    uri: row.uri,
    contents: row.contents,
    keptAt: row.kept_at,
  };
}

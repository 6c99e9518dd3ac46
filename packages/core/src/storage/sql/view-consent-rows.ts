import type { ViewConsentFilter, ViewConsentRecord } from '../../store/view-consent-record.js';

// The view_consents table, the same columns in SQLite (migration 10) and PostgreSQL (migration 14).

export const VIEW_CONSENT_COLUMNS = 'user_id, workspace_id, server_id, uri, permission, decision, decided_at';

/** An upsert by the consent's key; `$n` placeholders for PostgreSQL, `?` for SQLite. */
export function viewConsentUpsert(placeholders: readonly string[]): string {
  return (
    `INSERT INTO view_consents (${VIEW_CONSENT_COLUMNS}) VALUES (${placeholders.join(', ')}) ` +
    'ON CONFLICT (user_id, workspace_id, server_id, uri, permission) DO UPDATE SET ' +
    'decision = excluded.decision, decided_at = excluded.decided_at'
  );
}

/** The delete of one consent by its key. */
export function viewConsentDelete(placeholders: readonly string[]): string {
  const [u, w, s, v, p] = placeholders;
  return (
    `DELETE FROM view_consents WHERE user_id = ${u} AND workspace_id = ${w} AND server_id = ${s} ` +
    `AND uri = ${v} AND permission = ${p}`
  );
}

/**
 * The list of a tenant's consents a filter takes, in key order: the first two placeholders name the tenant, the
 * next ones (as many as the filter gives) the server and the view. Sorted in byte order: `collate` is PostgreSQL's
 * ` COLLATE "C"` (SQLite's default is bytes already). Returns the statement and its parameters.
 */
export function viewConsentList(
  tenant: { readonly userId: string; readonly workspaceId: string },
  filter: ViewConsentFilter | undefined,
  placeholder: (index: number) => string,
  collate = '',
): { text: string; values: string[] } {
  const values = [tenant.userId, tenant.workspaceId];
  let where = `user_id = ${placeholder(1)} AND workspace_id = ${placeholder(2)}`;
  if (filter?.serverId !== undefined) {
    values.push(filter.serverId);
    where += ` AND server_id = ${placeholder(values.length)}`;
  }
  if (filter?.uri !== undefined) {
    values.push(filter.uri);
    where += ` AND uri = ${placeholder(values.length)}`;
  }
  return {
    text: `SELECT ${VIEW_CONSENT_COLUMNS} FROM view_consents WHERE ${where} ORDER BY server_id${collate}, uri${collate}, permission${collate}`,
    values,
  };
}

/** A row as both databases return it (PostgreSQL's BIGINT as a string). */
export interface ViewConsentRow {
  readonly user_id: string;
  readonly workspace_id: string;
  readonly server_id: string;
  readonly uri: string;
  readonly permission: string;
  readonly decision: string;
  readonly decided_at: number | string;
}

export function viewConsentFromRow(row: ViewConsentRow): ViewConsentRecord {
  return {
    userId: row.user_id,
    workspaceId: row.workspace_id,
    serverId: row.server_id,
    uri: row.uri,
    permission: row.permission,
    decision: row.decision === 'allow' ? 'allow' : 'deny',
    decidedAt: Number(row.decided_at),
  };
}

/** The parameters of an upsert, in `VIEW_CONSENT_COLUMNS` order. */
export function viewConsentParams(r: ViewConsentRecord): [string, string, string, string, string, string, number] {
  return [r.userId, r.workspaceId, r.serverId, r.uri, r.permission, r.decision, r.decidedAt];
}

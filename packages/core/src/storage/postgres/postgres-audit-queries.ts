import type { AuditQuery } from '../../store/host-store.js';
import type { AuditPage } from '../store-checks.js';
import { PARSERS } from './postgres-statements.js';
import type { PgPool } from './postgres-store-config.js';
import { AUDIT_COLUMNS } from '../sql/audit-rows.js';
import type { AuditRow } from '../sql/audit-rows.js';

// The audit log's reads: the WHERE depends on the query's filters. Each binds every value; only the statement's
// shape varies, and each shape is prepared once per connection by its name.

/** Each filter of an `AuditQuery` and its column; times are inclusive. */
const FILTERS = [
  ['userId', 'user_id', '='],
  ['workspaceId', 'workspace_id', '='],
  ['type', 'type', '='],
  ['serverId', 'server_id', '='],
  ['tool', 'tool', '='],
  ['invocationId', 'invocation_id', '='],
  ['since', 'at', '>='],
  ['until', 'at', '<='],
] as const satisfies readonly (readonly [keyof AuditQuery, string, string])[];

/** The events matching `query` (already checked), oldest first, after `page.afterSeq`, at most `page.limit`. */
export async function auditRows(pool: PgPool, query: AuditQuery, page: AuditPage): Promise<AuditRow[]> {
  const used = FILTERS.filter(([field]) => query[field] !== undefined);
  const where = used.map(([, column, op], i) => `${column} ${op} $${i + 1}`);
  where.push(`seq > $${used.length + 1}`);
  const { rows } = await pool.query({
    name: `airlock_audit_${used.map(([field]) => field).join('_')}`,
    text:
      `SELECT ${AUDIT_COLUMNS} FROM audit_events WHERE ${where.join(' AND ')} ` +
      `ORDER BY seq LIMIT $${used.length + 2}`,
    values: [...used.map(([field]) => query[field]), page.afterSeq, page.limit],
    types: PARSERS,
  });
  return rows as AuditRow[];
}

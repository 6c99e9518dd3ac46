import type { AuditQuery, RetentionCandidate, RetentionQuery } from '../../store/host-store.js';
import type { AuditPage } from '../store-checks.js';
import { retentionLimit } from '../store-checks.js';
import { PARSERS } from './postgres-statements.js';
import type { PgPool } from './postgres-store-config.js';
import { AUDIT_COLUMNS } from '../sql/audit-rows.js';
import type { AuditRow } from '../sql/audit-rows.js';
import { ENDED } from '../sql/call-rows.js';

// The reads of PostgresStore whose WHERE depends on the query: the audit log and retention's candidates. Each binds
// every value; only the shape of the statement varies, and each shape is prepared once per connection by its name.

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

interface CandidateRow {
  readonly id: string;
  readonly user_id: string;
  readonly workspace_id: string;
  readonly updated_at: number;
}

/** Ended calls last updated before `query.before`, in the query's workspaces, oldest first: a sweep's read. */
export async function retentionRows(pool: PgPool, query: RetentionQuery): Promise<RetentionCandidate[]> {
  const limit = retentionLimit(query);
  const values: unknown[] = [query.before];
  const where = [`i.${ENDED}`, 'i.updated_at < $1'];
  if (query.workspaceId !== undefined) {
    values.push(query.workspaceId);
    where.push(`i.workspace_id = $${values.length}`);
  }
  const except = query.exceptWorkspaces ?? [];
  if (except.length > 0) {
    values.push([...except]);
    where.push(`NOT (i.workspace_id = ANY($${values.length}::text[]))`);
  }
  values.push(limit);
  const from =
    query.kind === 'results'
      ? 'invocations i JOIN invocation_results r ON r.invocation_id = i.id AND r.expired_at IS NULL'
      : 'invocations i';
  const { rows } = await pool.query({
    text:
      `SELECT i.id, i.user_id, i.workspace_id, i.updated_at FROM ${from} WHERE ${where.join(' AND ')} ` +
      `ORDER BY i.updated_at, i.ord LIMIT $${values.length}`,
    values,
    types: PARSERS,
  });
  return (rows as CandidateRow[]).map((r) => ({
    invocationId: r.id,
    userId: r.user_id,
    workspaceId: r.workspace_id,
    endedAt: r.updated_at,
  }));
}

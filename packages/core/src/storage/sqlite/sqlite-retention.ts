import type { RetentionCandidate, RetentionQuery } from '../../store/host-store.js';
import { retentionLimit } from '../store-checks.js';
import type { SqliteDatabase } from './sqlite-store-config.js';
import { ENDED } from '../sql/call-rows.js';

interface CandidateRow {
  readonly id: string;
  readonly user_id: string;
  readonly workspace_id: string;
  readonly updated_at: number;
}

/**
 * `SqliteStore.listRetention`: ended calls last updated before `query.before`, in the query's workspaces, oldest
 * first. Prepared per call (a sweep's read, not the call path's), binding every value.
 */
export function sqliteRetentionCandidates(db: SqliteDatabase, query: RetentionQuery): RetentionCandidate[] {
  const limit = retentionLimit(query);
  const where = [`i.${ENDED}`, 'i.updated_at < ?'];
  const params: unknown[] = [query.before];
  if (query.workspaceId !== undefined) {
    where.push('i.workspace_id = ?');
    params.push(query.workspaceId);
  }
  const except = query.exceptWorkspaces ?? [];
  if (except.length > 0) {
    where.push(`i.workspace_id NOT IN (${except.map(() => '?').join(', ')})`);
    params.push(...except);
  }
  const from =
    query.kind === 'results'
      ? 'invocations i JOIN invocation_results r ON r.invocation_id = i.id AND r.expired_at IS NULL'
      : 'invocations i';
  const rows = db
    .prepare(
      `SELECT i.id, i.user_id, i.workspace_id, i.updated_at FROM ${from} WHERE ${where.join(' AND ')} ` +
        'ORDER BY i.updated_at, i.rowid LIMIT ?',
    )
    .all(...params, limit) as CandidateRow[];
  return rows.map((r) => ({
    invocationId: r.id,
    userId: r.user_id,
    workspaceId: r.workspace_id,
    endedAt: r.updated_at,
  }));
}

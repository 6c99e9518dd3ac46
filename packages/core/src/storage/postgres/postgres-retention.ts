import type { RetentionCandidate, RetentionQuery } from '../../store/host-store.js';
import { retentionLimit } from '../store-checks.js';
import type { PgPool } from './postgres-store-config.js';
import { ENDED } from '../sql/call-rows.js';
import { PARSERS } from './postgres-statements.js';

// Retention's read: the ended calls a sweep may remove, by workspace. Its statement is prepared once per connection.

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

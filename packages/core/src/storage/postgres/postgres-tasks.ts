import { withConnection } from './postgres-checkout.js';
import type { InvocationTask, OpenTaskFilter } from '../../store/invocation-task.js';
import type { Scope } from '../../scope.js';
import { notFound } from '../store-checks.js';
import { storedTask } from '../task-checks.js';
import { DB_NOW_MS, PARSERS } from './postgres-statements.js';
import type { PgClient, PgPool } from './postgres-store-config.js';
import { OPEN_TASK, TASK_COLUMNS, TASK_SELECT, TASK_UPDATE, taskFromRow, taskParams } from '../sql/task-rows.js';
import type { TaskRow } from '../sql/task-rows.js';

// The task handles of a PostgresStore (migration 6): the put, run inside the batch's transaction after the calls the
// batch creates are inserted, and the two reads. The SQL is SQLite's with numbered parameters.

/** Stores the handle on the batch's connection; not_found when its call is not stored in its scope. */
export async function putTask(client: PgClient, task: InvocationTask): Promise<void> {
  const stored = storedTask(task);
  const { userId, workspaceId, conversationId } = stored.scope;
  const { rows } = await client.query({
    name: 'airlock_task_call_exists',
    text: 'SELECT 1 AS found FROM invocations WHERE id = $1 AND user_id = $2 AND workspace_id = $3 AND conversation_id = $4',
    values: [stored.invocationId, userId, workspaceId, conversationId],
  });
  if (rows.length === 0) throw notFound(stored.invocationId);
  await client.query({
    name: 'airlock_task_put',
    text:
      `INSERT INTO invocation_tasks (${TASK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ` +
      `ON CONFLICT (invocation_id) DO UPDATE SET ${TASK_UPDATE}`,
    values: taskParams(stored),
  });
}

/** The handle of a call in this scope. */
export async function getTask(pool: PgPool, scope: Scope, invocationId: string): Promise<InvocationTask | undefined> {
  const { rows } = await pool.query({
    name: 'airlock_task_get',
    text: `${TASK_SELECT} WHERE t.invocation_id = $1 AND i.user_id = $2 AND i.workspace_id = $3 AND i.conversation_id = $4`,
    values: [invocationId, scope.userId, scope.workspaceId, scope.conversationId],
    types: PARSERS,
  });
  const row = rows[0] as TaskRow | undefined;
  return row === undefined ? undefined : taskFromRow(row);
}

/** The advisory transaction lock that serializes claims of open tasks (a constant key, 'claim' in ASCII). */
const CLAIM_LOCK = 0x636c61696d;
const ME = "current_setting('airlock.instance', true)";
const SQL = {
  // The claimer's heartbeat row, if it has not beaten yet: from here on it is a live owner to the others. Never for
  // a fenced instance, which claims nothing either.
  present:
    `INSERT INTO instances (id, heartbeat_at) SELECT me, ${DB_NOW_MS} FROM (SELECT ${ME} AS me) s WHERE me IS NOT NULL ` +
    'AND NOT EXISTS (SELECT 1 FROM fenced_instances f WHERE f.id = me) ON CONFLICT (id) DO NOTHING',
  // An owner is live while it has a heartbeat row (a clean stop deletes it, a sweep deletes a dead one's).
  claim:
    `WITH claimed AS (UPDATE invocations i SET instance_id = ${ME} FROM invocation_tasks t ` +
    `WHERE t.invocation_id = i.id AND ${OPEN_TASK} AND NOT (t.server_id = ANY($1::text[])) AND (i.instance_id IS NULL OR i.instance_id = ${ME} ` +
    'OR NOT EXISTS (SELECT 1 FROM instances n WHERE n.id = i.instance_id)) ' +
    `AND NOT EXISTS (SELECT 1 FROM fenced_instances f WHERE f.id = ${ME}) RETURNING i.id) ` +
    `${TASK_SELECT} WHERE t.invocation_id IN (SELECT id FROM claimed) ORDER BY t.created_at`,
} as const;

/**
 * Claims for this instance (its connections' airlock.instance) the open tasks with no live owner, and returns them,
 * oldest first, but for those of `skipServers`. Claims are serialized by an advisory lock, each in a fresh snapshot, so of two instances claiming at
 * once the second sees the first's claims and its heartbeat row.
 */
export async function claimOpenTasks(pool: PgPool, skipServers: readonly string[]): Promise<InvocationTask[]> {
  await pool.query({ text: SQL.present, values: [] });
  return withConnection(pool, async (client) => {
    try {
      await client.query({ text: 'BEGIN' });
      await client.query({ text: `SELECT pg_advisory_xact_lock(${CLAIM_LOCK})` });
      const { rows } = await client.query({ text: SQL.claim, values: [[...skipServers]], types: PARSERS });
      await client.query({ text: 'COMMIT' });
      return (rows as TaskRow[]).map(taskFromRow);
    } catch (error) {
      await client.query({ text: 'ROLLBACK' }).catch(() => undefined);
      throw error;
    }
  });
}

/** Open handles, of every tenant or of one user or workspace, oldest first. */
export async function listOpenTasks(pool: PgPool, filter: OpenTaskFilter): Promise<InvocationTask[]> {
  const where = [OPEN_TASK];
  const values: string[] = [];
  for (const [column, value] of [
    ['i.user_id', filter.userId],
    ['i.workspace_id', filter.workspaceId],
  ] as const) {
    if (value === undefined) continue;
    values.push(value);
    where.push(`${column} = $${values.length}`);
  }
  const { rows } = await pool.query({
    text: `${TASK_SELECT} WHERE ${where.join(' AND ')} ORDER BY t.created_at`,
    values,
    types: PARSERS,
  });
  return (rows as TaskRow[]).map(taskFromRow);
}

import type { InvocationTask } from '../../store/invocation-task.js';
import type { TaskEra, TaskStatus } from '../../store/invocation-task.js';
import { OPEN_TASK_STATUSES } from '../task-checks.js';

// Row <-> record mapping of task handles (SQLite migrations 5 and 12, PostgreSQL migrations 6 and 16), shared by both stores as the
// other rows are. A handle's tenant is its call's: reads join the invocation, so another tenant's handle is never read.

/** The columns a task put binds, in the order `taskParams` gives them. */
export const TASK_COLUMNS =
  'invocation_id, server_id, server_identity, tool, task_id, era, poll_interval_ms, status, status_message, ' +
  'created_at, updated_at, ttl_ms';

/** What every read selects: the handle's columns and its call's scope (`t` the tasks table, `i` the invocations). */
export const TASK_SELECT =
  'SELECT t.invocation_id, i.user_id, i.workspace_id, i.conversation_id, t.server_id, t.server_identity, t.tool, ' +
  't.task_id, t.era, t.poll_interval_ms, t.status, t.status_message, t.created_at, t.updated_at, t.ttl_ms ' +
  'FROM invocation_tasks t JOIN invocations i ON i.id = t.invocation_id';

/** Open tasks, as SQL: the handle's status and its call's state both still running. */
export const OPEN_TASK =
  `t.status IN (${OPEN_TASK_STATUSES.map((s) => `'${s}'`).join(', ')}) ` +
  "AND i.state IN ('running', 'working', 'input_required')";

/** A task row as either driver returns it (PostgreSQL BIGINTs parsed to numbers by the store's type parsers). */
export interface TaskRow {
  readonly invocation_id: string;
  readonly user_id: string;
  readonly workspace_id: string;
  readonly conversation_id: string;
  readonly server_id: string;
  readonly server_identity: string;
  readonly tool: string;
  readonly task_id: string;
  readonly era: string;
  readonly poll_interval_ms: number | string | null;
  readonly status: string;
  readonly status_message: string | null;
  readonly created_at: number | string;
  readonly updated_at: number | string;
  readonly ttl_ms: number | string | null;
}

export function taskFromRow(row: TaskRow): InvocationTask {
  return {
    invocationId: row.invocation_id,
    scope: { userId: row.user_id, workspaceId: row.workspace_id, conversationId: row.conversation_id },
    serverId: row.server_id,
    serverIdentity: row.server_identity,
    tool: row.tool,
    taskId: row.task_id,
    era: row.era as TaskEra,
    pollIntervalMs: row.poll_interval_ms === null ? null : Number(row.poll_interval_ms),
    ttlMs: row.ttl_ms === null ? null : Number(row.ttl_ms),
    status: row.status as TaskStatus,
    statusMessage: row.status_message,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** The values of a task put, in `TASK_COLUMNS` order. */
export function taskParams(task: InvocationTask): (string | number | null)[] {
  return [
    task.invocationId,
    task.serverId,
    task.serverIdentity,
    task.tool,
    task.taskId,
    task.era,
    task.pollIntervalMs,
    task.status,
    task.statusMessage,
    task.createdAt,
    task.updatedAt,
    task.ttlMs,
  ];
}

/** The columns a put replaces on a handle already stored (its creation time stays). */
export const TASK_UPDATE =
  'server_id = excluded.server_id, server_identity = excluded.server_identity, tool = excluded.tool, ' +
  'task_id = excluded.task_id, era = excluded.era, poll_interval_ms = excluded.poll_interval_ms, ' +
  'status = excluded.status, status_message = excluded.status_message, updated_at = excluded.updated_at, ' +
  'ttl_ms = excluded.ttl_ms';

import { HostError } from '../errors/host-error.js';
import type { InvocationTask } from '../store/invocation-task.js';
import { isTerminalTaskStatus } from '../store/invocation-task.js';
import type { TaskEra, TaskStatus } from '../store/invocation-task.js';

const STATUSES: Readonly<Record<TaskStatus, true>> = {
  working: true,
  input_required: true,
  completed: true,
  failed: true,
  cancelled: true,
};
const ERAS: Readonly<Record<TaskEra, true>> = { '2025-11-25': true, '2026-07-28': true };

function invalid(message: string, task: InvocationTask): HostError {
  return new HostError('invalid_arguments', `task handle of invocation ${String(task.invocationId)}: ${message}`, {
    data: { invocationId: task.invocationId },
  });
}

function isTime(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * The task handle exactly as every store keeps it (its thirteen fields, scope copied), refused as `invalid_arguments`
 * naming the field when a store could not keep it faithfully: a missing text, an unknown status or era, a time or
 * interval that is not a number. Written once so the stores cannot drift.
 */
export function storedTask(task: InvocationTask): InvocationTask {
  for (const field of ['invocationId', 'serverId', 'serverIdentity', 'tool', 'taskId'] as const) {
    if (typeof task[field] !== 'string' || task[field] === '')
      throw invalid(`${field} must be a non-empty string`, task);
  }
  const scope = task.scope as Partial<InvocationTask['scope']> | undefined;
  if (
    typeof scope?.userId !== 'string' ||
    typeof scope.workspaceId !== 'string' ||
    typeof scope.conversationId !== 'string'
  ) {
    throw invalid('scope must name a user, a workspace and a conversation', task);
  }
  if (!Object.hasOwn(STATUSES, task.status)) throw invalid(`unknown status ${String(task.status)}`, task);
  if (!Object.hasOwn(ERAS, task.era)) throw invalid(`unknown era ${String(task.era)}`, task);
  if (task.pollIntervalMs !== null && !(isTime(task.pollIntervalMs) && task.pollIntervalMs >= 0)) {
    throw invalid('pollIntervalMs must be a number of milliseconds or null', task);
  }
  if (task.ttlMs !== null && !(isTime(task.ttlMs) && task.ttlMs >= 0)) {
    throw invalid('ttlMs must be a number of milliseconds or null', task);
  }
  if (task.statusMessage !== null && typeof task.statusMessage !== 'string') {
    throw invalid('statusMessage must be a string or null', task);
  }
  if (!isTime(task.createdAt) || !isTime(task.updatedAt)) throw invalid('createdAt and updatedAt must be times', task);
  return {
    invocationId: task.invocationId,
    scope: { userId: scope.userId, workspaceId: scope.workspaceId, conversationId: scope.conversationId },
    serverId: task.serverId,
    serverIdentity: task.serverIdentity,
    tool: task.tool,
    taskId: task.taskId,
    era: task.era,
    pollIntervalMs: task.pollIntervalMs,
    ttlMs: task.ttlMs,
    status: task.status,
    statusMessage: task.statusMessage,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
  };
}

/** The statuses of a task still open, as SQL: the stores' listings of open tasks use the same list. */
export const OPEN_TASK_STATUSES = (Object.keys(STATUSES) as TaskStatus[]).filter((s) => !isTerminalTaskStatus(s));

import type { Scope } from '../scope.js';

/**
 * The statuses of a task, as both task specifications name them: `working` and `input_required` while it runs,
 * `completed`, `failed` and `cancelled` once it has ended.
 */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/**
 * Which task protocol a handle speaks: `2025-11-25` (the core's experimental tasks: `tools/call` augmented with
 * `task`, then `tasks/get`, `tasks/result`, `tasks/cancel`) or `2026-07-28` (the `io.modelcontextprotocol/tasks`
 * extension, where the server decides to answer with a task).
 */
export type TaskEra = '2025-11-25' | '2026-07-28';

/** True for the statuses no task leaves. */
export function isTerminalTaskStatus(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/**
 * The durable handle of a call that runs as a task, stored with its invocation: enough to follow the task again on
 * the server's connection for the same tenant after the host restarts (its server, the server's identity so a
 * reconfigured server is not asked about another's task, the task id, the protocol era, the poll interval) and to
 * show it (its last status and message, when it began and last changed).
 */
export interface InvocationTask {
  readonly invocationId: string;
  readonly scope: Scope;
  readonly serverId: string;
  /** The server's identity (its command or URL, hashed), as permissions bind to it. */
  readonly serverIdentity: string;
  /** The tool's host name (namespaced). */
  readonly tool: string;
  readonly taskId: string;
  readonly era: TaskEra;
  /** The interval the server asked to be polled at, in milliseconds; null when it named none. */
  readonly pollIntervalMs: number | null;
  /**
   * How long the server keeps the task after it is created, in milliseconds, as the server said (`ttl` of its task,
   * which may differ from what the host asked for); null when it said unlimited, or named none.
   */
  readonly ttlMs: number | null;
  readonly status: TaskStatus;
  readonly statusMessage: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** Which open tasks to list: every tenant's (a host resuming after a restart), or one user's or workspace's. */
export interface OpenTaskFilter {
  readonly userId?: string;
  readonly workspaceId?: string;
}

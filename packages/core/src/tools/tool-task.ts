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

/** A task as its server last described it: what the host learns from `tools/call` and each `tasks/get`. */
export interface TaskSnapshot {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** The interval the server asks the client to poll at, in milliseconds. */
  readonly pollInterval?: number;
}

/** What a task call tells its caller as the task moves: created once, then each status the server reports. */
export interface TaskUpdate {
  readonly era: TaskEra;
  readonly task: TaskSnapshot;
  /** True for the first update of a task: the server has just answered `tools/call` with its handle. */
  readonly created: boolean;
}

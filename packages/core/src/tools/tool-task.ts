import type { TaskEra, TaskStatus } from '../store/invocation-task.js';

/** A task as its server last described it: what the host learns from `tools/call` and each `tasks/get`. */
export interface TaskSnapshot {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** The interval the server asks the client to poll at, in milliseconds. */
  readonly pollInterval?: number;
  /** How long the server keeps the task, in milliseconds (null: unlimited), as it says in its task. */
  readonly ttl?: number | null;
}

/** What a task call tells its caller as the task moves: created once, then each status the server reports. */
export interface TaskUpdate {
  readonly era: TaskEra;
  readonly task: TaskSnapshot;
  /** True for the first update of a task: the server has just answered `tools/call` with its handle. */
  readonly created: boolean;
}

import type { InvocationTask } from '../store/invocation-task.js';
import type { InvokeOptions, ToolResult } from '../invocations/invoke-options.js';
import type { HostTasks } from '../tasks/host-tasks.js';
import type { Scope } from '../scope.js';

/** `host.tasks`: calls that run as tasks, per tenant. */
export interface HostTasksApi {
  /**
   * Open tasks (their call still running), oldest first: this user's in this workspace with a scope (every
   * conversation), or every tenant's without one (an operator's read, such as `airlock tasks`).
   */
  list(options?: { readonly scope?: Scope }): Promise<InvocationTask[]>;
  /** The task handle of one of the scope's calls, open or ended; undefined for another tenant's or a plain call. */
  get(options: { readonly scope: Scope; readonly invocationId: string }): Promise<InvocationTask | undefined>;
  /**
   * Cancels a task this host follows, by its call's id, in the caller's own scope: `tasks/cancel` is sent and the
   * call ends cancelled. False when no task of that scope with this id is followed here.
   */
  cancel(options: { readonly scope: Scope; readonly invocationId: string }): boolean;
  /** Resolves once the open tasks found at start have been picked up again (each then runs to its end). */
  resumed(): Promise<void>;
  /**
   * Follows the open tasks that no live instance owns any more (on a shared store, after a sweep took a dead
   * instance: `InstanceHeartbeat`'s `onDead`), claiming them for this one. Never rejects; a closing host does nothing.
   */
  takeOver(): Promise<void>;
  /**
   * Makes a call without waiting for a task's end: resolves with the task's handle as soon as the server answers
   * with it (the call goes on, recorded as any call; ask `get`, or the model `airlock__task_status`), or with the
   * call's result when it ended without becoming a task (refused, denied, a plain tool, a failure).
   */
  start(options: InvokeOptions): Promise<{ readonly task: InvocationTask } | { readonly result: ToolResult }>;
}

/** The `host.tasks` object over the host's tasks. */
export function hostTasksApi(tasks: HostTasks): HostTasksApi {
  return {
    list: (options) => tasks.list(options),
    get: (options) => tasks.get(options),
    cancel: (options) => tasks.cancel(options),
    resumed: () => tasks.resumed(),
    takeOver: () => tasks.takeOver(),
    start: (options) => tasks.start(options),
  };
}

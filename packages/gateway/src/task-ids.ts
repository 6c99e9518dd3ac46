import type { Host, InvocationTask, Scope } from '@airlock/core';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/**
 * A task's id as the gateway's clients see it, in both eras: the conversation the call was made in and the call's id,
 * so a task can be found again from any session of its tenant, open or ended, and across restarts (the host keeps
 * both in history).
 */
export function taskIdOf(scope: Scope, invocationId: string): string {
  return `${scope.conversationId}:${invocationId}`;
}

/**
 * The host's task a task id names, of `scope`'s tenant only: the id carries the conversation the call was made in
 * (another session's, or one from before a restart), the tenant is always the caller's. Otherwise -32602, as for a
 * task that does not exist, so another tenant's id tells nothing.
 */
export async function findTask(host: Host, scope: Scope, taskId: string): Promise<InvocationTask> {
  const at = taskId.lastIndexOf(':');
  if (at > 0) {
    const task = await host.tasks.get({
      scope: { ...scope, conversationId: taskId.slice(0, at) },
      invocationId: taskId.slice(at + 1),
    });
    if (task !== undefined) return task;
  }
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to retrieve task: Task not found: ${taskId}`);
}

import type { Host, InvocationTask } from '@airlock/core';
import type { Out } from './list-commands.js';

/**
 * `airlock tasks`: the calls whose tasks are still open in this history, of every tenant, grouped by user and
 * workspace, oldest first: the call's id, the tool, the task's status and message, its server's task id, and since
 * when. With `--json`, the handles as stored. Reads only: no server is started and no task is followed.
 */
export async function tasksCommand(host: Host, json: boolean, io: Out): Promise<number> {
  const open = await host.tasks.list();
  if (json) {
    io.stdout.write(`${JSON.stringify(open, null, 2)}\n`);
    return 0;
  }
  if (open.length === 0) {
    io.stdout.write('no open tasks\n');
    return 0;
  }
  const tenants = new Map<string, InvocationTask[]>();
  for (const task of open) {
    const key = `${task.scope.userId} · ${task.scope.workspaceId}`;
    tenants.set(key, [...(tenants.get(key) ?? []), task]);
  }
  for (const [tenant, tasks] of tenants) {
    io.stdout.write(`${io.style.strong(tenant)}\n`);
    for (const task of tasks) io.stdout.write(taskLine(task, io));
  }
  return 0;
}

function taskLine(task: InvocationTask, io: Out): string {
  const status = task.statusMessage === null ? task.status : `${task.status}: ${task.statusMessage}`;
  const since = new Date(task.createdAt).toISOString();
  return (
    `  ${task.invocationId.slice(0, 8)} · ${task.tool} · ${status} · ` +
    `${io.style.dim(`task ${task.taskId} on ${task.serverId} (${task.era}), since ${since}`)}\n`
  );
}

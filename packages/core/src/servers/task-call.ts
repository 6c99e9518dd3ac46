import { specTypeSchemas } from '@modelcontextprotocol/client';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import type { Clock } from '../clock.js';
import { HostError } from '../errors/host-error.js';
import type { ConnectionCallOptions } from './server-connection-options.js';
import { NO_SDK_TIMEOUT_MS } from './tool-call-request.js';

/** How often to ask a task's status when the server names no interval, and the bounds on what it names. */
const DEFAULT_POLL_MS = 1_000;
const MIN_POLL_MS = 250;
const MAX_POLL_MS = 30_000;
/** How long the server keeps a task's result after it ends (asked for; the server may choose less). */
const TASK_TTL_MS = 60 * 60_000;

/** The task statuses of the 2025-11-25 protocol; the last three end it. */
type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

interface TaskState {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly pollInterval?: number;
}

/**
 * A call of a tool that runs as a task (2025-11-25, `execution.taskSupport` "required"): `tools/call` augmented with
 * `task` answers with a task handle; `tasks/result` is asked at once and answers when the task ends, carrying the
 * questions the task asks meanwhile (they reach the elicitation broker like any question of a call in flight); the
 * status is asked with `tasks/get` at the server's poll interval, on the host's clock, and each new status message is
 * reported as progress (which keeps the call's idle timeout from firing while the task works). Aborting the call sends
 * `tasks/cancel`. A task that fails or is cancelled by the server rejects naming the server, the tool and the task.
 */
export async function callAsTask(
  client: Client,
  serverId: string,
  name: string,
  args: Readonly<Record<string, unknown>>,
  options: ConnectionCallOptions,
  clock: Clock,
): Promise<CallToolResult> {
  const request = { signal: options.signal, timeout: NO_SDK_TIMEOUT_MS };
  const created = await client.request(
    { method: 'tools/call', params: { name, arguments: args, task: { ttl: TASK_TTL_MS } } },
    specTypeSchemas.CreateTaskResult,
    request,
  );
  const task = created.task as TaskState;
  const taskId = task.taskId;
  let step = 0;
  let lastMessage: string | undefined;
  // Every status the server answers is progress: a task that works quietly (the same message, or none) is alive,
  // and only the ceiling bounds it; the idle timeout is for a server that stopped answering.
  const report = (state: TaskState) => {
    if (state.statusMessage !== undefined) lastMessage = state.statusMessage;
    step += 1;
    options.onProgress({
      progress: step,
      message: lastMessage === undefined ? state.status : `${state.status}: ${lastMessage}`,
    });
  };
  report(task);
  let ended = false;
  let cancelPoll: () => void = () => undefined;
  const poll = (interval: number | undefined) => {
    const wait = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, interval ?? DEFAULT_POLL_MS));
    cancelPoll = clock.setTimer(() => {
      void client
        .request({ method: 'tasks/get', params: { taskId } }, specTypeSchemas.GetTaskResult, request)
        .then((state) => {
          if (ended) return;
          report(state);
          poll((state as TaskState).pollInterval ?? interval);
        })
        // A failed status poll is not the task's failure: the result request says how the task ended.
        .catch(() => (ended ? undefined : poll(interval)));
    }, wait);
  };
  poll(task.pollInterval);
  const onAbort = () => {
    void client
      .request({ method: 'tasks/cancel', params: { taskId } }, specTypeSchemas.CancelTaskResult, {
        timeout: NO_SDK_TIMEOUT_MS,
      })
      .catch(() => undefined);
  };
  options.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await client.request(
      { method: 'tasks/result', params: { taskId } },
      specTypeSchemas.GetTaskPayloadResult,
      request,
    );
    return result as CallToolResult;
  } catch (error) {
    if (options.signal.aborted) throw error;
    throw new HostError(
      'task_failed',
      `server "${serverId}": the task ${taskId} of ${name} did not complete: ${(error as Error).message}`,
      { data: { serverId, taskId }, cause: error },
    );
  } finally {
    ended = true;
    cancelPoll();
    options.signal.removeEventListener('abort', onAbort);
  }
}

/** True when the server runs tool calls as tasks for this client: the 2025-11-25 era, with the tasks capability. */
export function offersTasks(client: Client): boolean {
  return (
    client.getProtocolEra() !== 'modern' && client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined
  );
}

/** True when a call of this tool must run as a task on this client. */
export function runsAsTask(client: Client, definition: ConnectionCallOptions['definition']): boolean {
  return definition.execution?.taskSupport === 'required' && offersTasks(client);
}

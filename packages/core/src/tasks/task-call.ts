import type { FollowTaskOptions } from './follow-task-options.js';
import { specTypeSchemas } from '@modelcontextprotocol/client';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import type { Clock } from '../clock.js';
import { HostError } from '../errors/host-error.js';
import type { ConnectionCallOptions } from '../mcp-client/connection-call-options.js';
import type { TaskSnapshot } from '../tools/tool-task.js';
import type { TaskEra } from '../store/invocation-task.js';
import { callWithTaskExtension, followExtensionTask } from './extension-task.js';
import { TaskExtensionClient } from './task-extension-client.js';
import { TaskPoller } from './task-poller.js';
import { NO_SDK_TIMEOUT_MS, sendToolCall } from '../mcp-client/tool-call-request.js';

/** How long the server keeps a task's result after it ends (asked for; the server may choose less). */
const TASK_TTL_MS = 60 * 60_000;
/** JSON-RPC "invalid params": what a server answers `tasks/get` or `tasks/result` for a task id it does not know. */
const INVALID_PARAMS = -32602;

/** The one poller of each client (a server connection): every task followed on it shares it. */
const pollers = new WeakMap<Client, TaskPoller>();

function pollerOf(client: Client, clock: Clock): TaskPoller {
  let poller = pollers.get(client);
  if (poller === undefined) {
    poller = new TaskPoller({
      clock,
      get: async (taskId) =>
        await client.request({ method: 'tasks/get', params: { taskId } }, specTypeSchemas.GetTaskResult, {
          timeout: NO_SDK_TIMEOUT_MS,
        }),
    });
    pollers.set(client, poller);
  }
  return poller;
}

/**
 * Sends one `tools/call` as the client's era and the server's task support want it: augmented with `task` for a
 * 2025-11-25 task tool ({@link callAsTask}); declaring the 2026-07-28 tasks extension when the server offers it and
 * the call path records tasks (`onTask`), so the server may answer with a task (extension-task.ts); plain otherwise.
 */
export function sendCall(
  client: Client,
  serverId: string,
  name: string,
  args: Readonly<Record<string, unknown>>,
  options: ConnectionCallOptions,
  clock: Clock,
): Promise<CallToolResult> {
  if (runsAsTask(client, options)) return callAsTask(client, serverId, name, args, options, clock);
  if (options.onTask !== undefined && client instanceof TaskExtensionClient && client.offersTaskExtension()) {
    return callWithTaskExtension(client, serverId, name, args, options, clock);
  }
  return sendToolCall(client, name, args, options);
}

/**
 * A call of a tool that runs as a task (2025-11-25, `execution.taskSupport` "required"): `tools/call` augmented with
 * `task` answers with a task handle (told through `onTask`, so the call path stores it), then the task is followed
 * to its end (`followTask`).
 */
export async function callAsTask(
  client: Client,
  serverId: string,
  name: string,
  args: Readonly<Record<string, unknown>>,
  options: ConnectionCallOptions,
  clock: Clock,
): Promise<CallToolResult> {
  const created = await client.request(
    { method: 'tools/call', params: { name, arguments: args, task: { ttl: TASK_TTL_MS } } },
    specTypeSchemas.CreateTaskResult,
    { signal: options.signal, timeout: NO_SDK_TIMEOUT_MS },
  );
  const task = created.task as TaskSnapshot;
  options.onTask?.({ era: '2025-11-25', task, created: true });
  return followTask({
    client,
    clock,
    serverId,
    tool: name,
    task,
    signal: options.signal,
    onProgress: options.onProgress,
    ...(options.onTask === undefined ? {} : { onTask: options.onTask }),
  });
}

/**
 * Follows a task to its end: `tasks/result` is asked at once and answers when the task ends, carrying the questions
 * the task asks meanwhile (they reach the elicitation broker like any question of a call in flight); the status is
 * asked with `tasks/get` by the connection's shared poller (task-poller.ts) at the server's interval, and each
 * status is told through `onTask` and as progress (which keeps the call's idle timeout from firing while the task
 * works). Aborting sends `tasks/cancel`. A task the server no longer knows (it answers -32602 to `tasks/get` or
 * `tasks/result`) rejects `task_lost`; one that fails or is cancelled by the server rejects `task_failed`; both name
 * the server, the tool and the task. Used by a live call and by a task resumed after a restart alike.
 */
export async function followTask(options: FollowTaskOptions): Promise<CallToolResult> {
  const { client, serverId, tool, signal } = options;
  const taskId = options.task.taskId;
  const era: TaskEra = client.getProtocolEra() === 'modern' ? '2026-07-28' : '2025-11-25';
  if (options.era !== undefined && options.era !== era) {
    throw new HostError(
      'task_lost',
      `server "${serverId}": the task ${taskId} of ${tool} was started in the ${options.era} era and the server now speaks ${era}`,
      { data: { serverId, taskId } },
    );
  }
  if (era === '2026-07-28' && client instanceof TaskExtensionClient) return followExtensionTask(client, options);
  let step = 0;
  let lastMessage: string | undefined;
  // Every status the server answers is progress: a task that works quietly (the same message, or none) is alive,
  // and only the ceiling bounds it; the idle timeout is for a server that stopped answering.
  const report = (state: TaskSnapshot) => {
    if (state.statusMessage !== undefined) lastMessage = state.statusMessage;
    step += 1;
    // The server's own words only: the status ("working", "input_required") is the call's state, which every
    // surface already shows in its words; "working: …" read as the protocol's, not a person's.
    options.onProgress({ progress: step, ...(lastMessage === undefined ? {} : { message: lastMessage }) });
  };
  report(options.task);
  let lost!: (error: unknown) => void;
  const lostTask = new Promise<never>((_resolve, reject) => (lost = reject));
  lostTask.catch(() => undefined);
  const stop = pollerOf(client, options.clock).watch(taskId, options.task.pollInterval, {
    state: (state) => {
      options.onTask?.({ era: '2025-11-25', task: state, created: false });
      report(state);
    },
    // A failed status poll is not the task's failure (the result request says how it ended), unless the server
    // says it does not know the task at all.
    failed: (error) => {
      if (isUnknownTask(error)) lost(error);
    },
  });
  const onAbort = () => {
    void client
      .request({ method: 'tasks/cancel', params: { taskId } }, specTypeSchemas.CancelTaskResult, {
        timeout: NO_SDK_TIMEOUT_MS,
      })
      .catch(() => undefined);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  const ended = new AbortController();
  try {
    const result = client.request(
      { method: 'tasks/result', params: { taskId } },
      specTypeSchemas.GetTaskPayloadResult,
      {
        signal: AbortSignal.any([signal, ended.signal]),
        timeout: NO_SDK_TIMEOUT_MS,
      },
    );
    return (await Promise.race([result, lostTask])) as CallToolResult;
  } catch (error) {
    if (signal.aborted) throw error;
    if (isUnknownTask(error)) {
      throw new HostError('task_lost', `server "${serverId}" no longer knows the task ${taskId} of ${tool}`, {
        data: { serverId, taskId },
        cause: error,
      });
    }
    throw new HostError(
      'task_failed',
      `server "${serverId}": the task ${taskId} of ${tool} did not complete: ${(error as Error).message}`,
      { data: { serverId, taskId }, cause: error },
    );
  } finally {
    ended.abort();
    stop();
    signal.removeEventListener('abort', onAbort);
  }
}

/** True for the server's answer to a task id it does not know: JSON-RPC -32602, as both task specifications say. */
function isUnknownTask(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === INVALID_PARAMS;
}

/**
 * The era in which the server runs tool calls as tasks for this client, if it does: 2025-11-25 with the tasks
 * capability for `tools/call`, or 2026-07-28 with the tasks extension declared in `server/discover`.
 */
export function offersTasks(client: Client): TaskEra | false {
  if (client instanceof TaskExtensionClient && client.offersTaskExtension()) return '2026-07-28';
  return client.getProtocolEra() !== 'modern' &&
    client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined
    ? '2025-11-25'
    : false;
}

/** True when a call runs as a task on this client: the tool requires it, or allows it and the call asks for it. */
export function runsAsTask(client: Client, call: Pick<ConnectionCallOptions, 'definition' | 'asTask'>): boolean {
  const support = call.definition.execution?.taskSupport;
  return (
    (support === 'required' || (support === 'optional' && call.asTask === true)) && offersTasks(client) === '2025-11-25'
  );
}

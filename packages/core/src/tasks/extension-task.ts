import { specTypeSchemas } from '@modelcontextprotocol/client';
import type { CallToolResult, StandardSchemaV1 } from '@modelcontextprotocol/client';
import type { Clock } from '../clock.js';
import { HostError } from '../errors/host-error.js';
import type { TaskSnapshot } from '../tools/tool-task.js';
import type { TaskStatus } from '../store/invocation-task.js';
import type { ConnectionCallOptions } from '../mcp-client/connection-call-options.js';
import type { TaskExtensionClient } from './task-extension-client.js';
import { TaskPoller } from './task-poller.js';
import type { FollowTaskOptions } from './follow-task-options.js';
import { NO_SDK_TIMEOUT_MS } from '../mcp-client/tool-call-request.js';

/** JSON-RPC "invalid params": what a server answers `tasks/get` for a task id it does not know. */
const INVALID_PARAMS = -32602;
const STATUSES: ReadonlySet<string> = new Set<TaskStatus>([
  'working',
  'input_required',
  'completed',
  'failed',
  'cancelled',
]);

/** A task as one 2026-07-28 `tasks/get` describes it: its status, and the result, error or input it carries. */
interface DetailedTask extends TaskSnapshot {
  readonly result?: unknown;
  readonly error?: { readonly message?: unknown };
  readonly inputRequests?: Readonly<Record<string, unknown>>;
}

/** A task object of the extension (`CreateTaskResult`, `tasks/get`) as the host reads it; undefined when malformed. */
function detailedTask(raw: unknown): DetailedTask | undefined {
  const task = raw as Record<string, unknown> | null;
  if (typeof task?.['taskId'] !== 'string' || typeof task['status'] !== 'string' || !STATUSES.has(task['status'])) {
    return undefined;
  }
  const message = task['statusMessage'];
  const interval = task['pollIntervalMs'];
  const ttl = task['ttlMs'];
  const inputs = task['inputRequests'];
  return {
    taskId: task['taskId'],
    status: task['status'] as TaskStatus,
    ...(typeof message === 'string' ? { statusMessage: message } : {}),
    ...(typeof interval === 'number' ? { pollInterval: interval } : {}),
    // The extension names it ttlMs (null: kept without limit); the host's record checks and keeps it.
    ...(typeof ttl === 'number' || ttl === null ? { ttl } : {}),
    ...('result' in task ? { result: task['result'] } : {}),
    ...(typeof task['error'] === 'object' && task['error'] !== null ? { error: task['error'] } : {}),
    ...(typeof inputs === 'object' && inputs !== null ? { inputRequests: inputs as Record<string, unknown> } : {}),
  };
}

const TASK_SCHEMA: StandardSchemaV1<unknown, DetailedTask> = {
  '~standard': {
    version: 1,
    vendor: 'airlock',
    validate: (value) => {
      const task = detailedTask(value);
      return task === undefined ? { issues: [{ message: 'not a task (taskId and a known status)' }] } : { value: task };
    },
  },
};
const ACK_SCHEMA: StandardSchemaV1<unknown, unknown> = {
  '~standard': { version: 1, vendor: 'airlock', validate: (value) => ({ value }) },
};

/** The one poller of each 2026-era client (a server connection): every task followed on it shares it. */
const pollers = new WeakMap<TaskExtensionClient, TaskPoller<DetailedTask>>();

function pollerOf(client: TaskExtensionClient, clock: Clock): TaskPoller<DetailedTask> {
  let poller = pollers.get(client);
  if (poller === undefined) {
    poller = new TaskPoller<DetailedTask>({
      clock,
      get: (taskId) =>
        client.request({ method: 'tasks/get', params: { taskId, _meta: client.taskMeta() } }, TASK_SCHEMA, {
          timeout: NO_SDK_TIMEOUT_MS,
        }),
    });
    pollers.set(client, poller);
  }
  return poller;
}

/**
 * A `tools/call` on a 2026-07-28 server that declared the tasks extension: the request declares it (in its own
 * `_meta` capabilities), and the server decides whether to answer with the result or with a task (`resultType:
 * "task"`). A task is told through `onTask` (so the call path stores its handle, era `2026-07-28`) and followed to
 * its end ({@link followExtensionTask}).
 */
export async function callWithTaskExtension(
  client: TaskExtensionClient,
  serverId: string,
  name: string,
  args: Readonly<Record<string, unknown>>,
  options: ConnectionCallOptions,
  clock: Clock,
): Promise<CallToolResult> {
  try {
    return await client.callTool(
      { name, arguments: args, _meta: client.taskMeta() },
      {
        signal: options.signal,
        onprogress: (p) =>
          options.onProgress({
            progress: p.progress,
            ...(p.total === undefined ? {} : { total: p.total }),
            ...(p.message === undefined ? {} : { message: p.message }),
          }),
        timeout: NO_SDK_TIMEOUT_MS,
        toolDefinition: options.definition,
      },
    );
  } catch (error) {
    const answer = client.taskOf(error);
    if (answer === undefined) throw error;
    const task = detailedTask(answer);
    if (task === undefined) {
      throw new HostError('protocol_error', `server "${serverId}" answered ${name} with a malformed task`, {
        data: { serverId },
        cause: error,
      });
    }
    options.onTask?.({ era: '2026-07-28', task: snapshotOf(task), created: true });
    return followExtensionTask(client, {
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
}

function snapshotOf(task: DetailedTask): TaskSnapshot {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    ...(task.pollInterval === undefined ? {} : { pollInterval: task.pollInterval }),
    ...(task.ttl === undefined ? {} : { ttl: task.ttl }),
  };
}

/**
 * Follows a 2026-07-28 task to its end. The connection's shared poller asks `tasks/get` at the server's
 * `pollIntervalMs` (bounded); each status is told through `onTask` and as progress. The task's end comes with the
 * last `tasks/get`: `completed` carries the tool's result; `failed` (its JSON-RPC error) and `cancelled` by the
 * server reject `task_failed`. While it is `input_required`, each input request not seen before is answered through
 * the client's own handler (the elicitation broker: the question is tied to this call, so to its tenant) in this
 * call's async context, and the answer goes back with `tasks/update`. Aborting sends `tasks/cancel`. A task the
 * server no longer knows (-32602 to `tasks/get`) rejects `task_lost`. Used by a live call and a resumed task alike.
 */
export async function followExtensionTask(
  client: TaskExtensionClient,
  options: FollowTaskOptions,
): Promise<CallToolResult> {
  const { serverId, tool, signal } = options;
  const taskId = options.task.taskId;
  let step = 0;
  let lastMessage: string | undefined;
  const report = (state: TaskSnapshot) => {
    if (state.statusMessage !== undefined) lastMessage = state.statusMessage;
    step += 1;
    // The server's own words only: the status ("working", "input_required") is the call's state, which every
    // surface already shows in its words; "working: …" read as the protocol's, not a person's.
    options.onProgress({ progress: step, ...(lastMessage === undefined ? {} : { message: lastMessage }) });
  };
  report(options.task);
  // The poller's answers are handed to the loop below, which runs in the call's async context (the broker ties a
  // question to the call whose context asks): the poller's own callbacks may run in another call's.
  let latest: DetailedTask | undefined;
  let lost: unknown;
  let closed: unknown;
  let wake: (() => void) | undefined;
  const tell = () => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  const stop = pollerOf(client, options.clock).watch(taskId, options.task.pollInterval, {
    state: (state) => {
      options.onTask?.({ era: '2026-07-28', task: snapshotOf(state), created: false });
      report(state);
      latest = state;
      tell();
    },
    failed: (error) => {
      if ((error as { code?: unknown } | null)?.code === INVALID_PARAMS) lost = error;
      // A closed connection's polls can only fail: the call ends, as a 2025 task's pending tasks/result does (a
      // closing host then leaves the task open in history for the next one), rather than polling with back-off for
      // ever and holding the process open.
      else if (client.transport === undefined) closed = error;
      else return;
      tell();
    },
  });
  const onAbort = () => {
    tell();
    void client
      .request({ method: 'tasks/cancel', params: { taskId, _meta: client.taskMeta() } }, ACK_SCHEMA, {
        timeout: NO_SDK_TIMEOUT_MS,
      })
      .catch(() => undefined);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  const answered = new Set<string>();
  const failed = (why: string, cause?: unknown) =>
    new HostError('task_failed', `server "${serverId}": the task ${taskId} of ${tool} ${why}`, {
      data: { serverId, taskId },
      ...(cause === undefined ? {} : { cause }),
    });
  try {
    for (;;) {
      if (latest === undefined && lost === undefined && closed === undefined && !signal.aborted) {
        await new Promise<void>((resolve) => (wake = resolve));
      }
      if (signal.aborted) throw signal.reason ?? new Error('cancelled');
      if (lost !== undefined) {
        throw new HostError('task_lost', `server "${serverId}" no longer knows the task ${taskId} of ${tool}`, {
          data: { serverId, taskId },
          cause: lost,
        });
      }
      if (closed !== undefined && latest === undefined) {
        throw failed('could not be followed: the connection to its server closed', closed);
      }
      const state = latest!;
      latest = undefined;
      if (state.status === 'completed')
        return toolResult(state.result, () => failed('completed without a tool result'));
      if (state.status === 'failed') {
        const message = typeof state.error?.message === 'string' ? state.error.message : state.statusMessage;
        throw failed(`did not complete: ${message ?? 'failed'}`, state.error);
      }
      if (state.status === 'cancelled')
        throw failed(`was cancelled by the server${lastMessage === undefined ? '' : `: ${lastMessage}`}`);
      if (state.status === 'input_required') {
        try {
          await answerInputs(client, state, answered, signal, taskId);
        } catch (error) {
          if (signal.aborted) continue;
          // Nobody will answer it: the task would wait for ever, so it is cancelled as the call ends.
          onAbort();
          throw failed(`asks for input this host could not give: ${(error as Error).message}`, error);
        }
      }
    }
  } finally {
    stop();
    signal.removeEventListener('abort', onAbort);
  }
}

/** Answers each input request of the task not answered before, one `tasks/update` per answer as it comes. */
async function answerInputs(
  client: TaskExtensionClient,
  state: DetailedTask,
  answered: Set<string>,
  signal: AbortSignal,
  taskId: string,
): Promise<void> {
  for (const [key, entry] of Object.entries(state.inputRequests ?? {})) {
    if (answered.has(key) || signal.aborted) continue;
    answered.add(key);
    const answer = await client.answerInput(key, entry, signal);
    if (signal.aborted) return;
    await client.request(
      { method: 'tasks/update', params: { taskId, inputResponses: { [key]: answer }, _meta: client.taskMeta() } },
      ACK_SCHEMA,
      { signal, timeout: NO_SDK_TIMEOUT_MS },
    );
  }
}

/** A completed task's result, checked as the tool's result (`CallToolResult`). */
function toolResult(result: unknown, missing: () => Error): CallToolResult {
  if (result === undefined) throw missing();
  const checked = specTypeSchemas.CallToolResult['~standard'].validate(result);
  if (checked.issues !== undefined) {
    throw new HostError(
      'protocol_error',
      `the task's result is not a tool result: ${checked.issues[0]?.message ?? ''}`,
    );
  }
  return checked.value;
}

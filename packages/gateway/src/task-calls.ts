import type { Caller, Host, InvocationTask, Scope } from '@airlock/core';
import { ProtocolError, ProtocolErrorCode, RELATED_TASK_META_KEY } from '@modelcontextprotocol/server';
import type {
  CallToolResult,
  CreateTaskResult,
  Server,
  ServerCapabilities,
  StandardSchemaV1,
  Task,
} from '@modelcontextprotocol/server';
import type { ClientAsker, GatewaySurface } from './gateway-surface.js';
import { findTask, taskIdOf } from './task-ids.js';

const MODEL: Caller = { kind: 'model' };

/** A call's states that are its end: its result (or its failure) is in history. */
const ENDED: ReadonlySet<string> = new Set(['success', 'error', 'cancelled']);

/** The poll interval the gateway suggests when the server behind named none. */
const POLL_MS = 1_000;

/** The capability the gateway declares to a 2025-11-25 client: task-augmented `tools/call`, listed and cancelled. */
export const TASKS_CAPABILITY: NonNullable<ServerCapabilities['tasks']> = {
  list: {},
  cancel: {},
  requests: { tools: { call: {} } },
};

/** A task-augmented call as the client sent it. */
interface TaskCallRequest {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** Where the gate's question goes while the `tools/call` request is open (its own stream). */
  readonly callAsker: ClientAsker;
  readonly signal: AbortSignal;
}

/** A call that ended before it became a task (a denial, a failure): kept so `tasks/get` and `tasks/result` answer. */
interface EndedEarly {
  readonly task: Task;
  readonly result: CallToolResult;
}

/**
 * The gateway's tasks (2025-11-25, experimental) for one session: a task-augmented `tools/call` of a tool that can run
 * as a task is `host.tasks.start`, answered with the task the host keeps (its id names the call and its
 * conversation), and `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` read and steer the host's tasks of
 * the session's tenant only. The host keeps a task across its restarts, so a client may ask for it again from another
 * session of the same tenant. Questions the task asks once the request that made it has ended go to the session's
 * client. A call that ends before it becomes a task (a denial) is answered as a task already ended, kept in memory.
 */
export class TaskCalls {
  readonly #host: Host;
  readonly #surface: GatewaySurface;
  readonly #scope: Scope;
  readonly #sessionAsker: ClientAsker;
  readonly #ended = new Map<string, EndedEarly>();
  readonly #detach = new Set<() => void>();

  constructor(options: { host: Host; surface: GatewaySurface; scope: Scope; sessionAsker: ClientAsker }) {
    this.#host = options.host;
    this.#surface = options.surface;
    this.#scope = options.scope;
    this.#sessionAsker = options.sessionAsker;
  }

  /** Whether a tool of the host can be called as a task: its server runs it as one (`required` or `optional`). */
  canRunAsTask(tool: string): boolean {
    const listed = this.#host.tools.list({ audience: 'model', scope: this.#scope }).find((t) => t.name === tool);
    return listed?.taskSupport === 'required' || listed?.taskSupport === 'optional';
  }

  /** Starts the call as a task and answers with it once the server made one (or the call ended without one). */
  async start(request: TaskCallRequest): Promise<CreateTaskResult> {
    const { name, args, callAsker } = request;
    let invocationId: string | undefined;
    let detach: (() => void) | undefined;
    const started = await this.#host.tasks.start({
      scope: this.#scope,
      caller: MODEL,
      tool: name,
      args,
      asTask: true,
      signal: request.signal,
      onRecorded: (invocation) => {
        invocationId = invocation.id;
        detach = this.#surface.attachCall(invocation.id, callAsker);
      },
    });
    detach?.();
    if ('result' in started) {
      const result: CallToolResult = {
        content: [...started.result.content],
        ...(started.result.isError ? { isError: true } : {}),
      };
      // Refused before it was recorded (an unknown tool, arguments its schema refuses): no call, so no task.
      if (invocationId === undefined) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, result.content.map(textOf).join('\n'));
      }
      const now = new Date().toISOString();
      const task: Task = {
        taskId: taskIdOf(this.#scope, invocationId),
        status: result.isError === true ? 'failed' : 'completed',
        createdAt: now,
        lastUpdatedAt: now,
        ttl: null,
      };
      this.#ended.set(task.taskId, { task, result });
      return { task };
    }
    // From here the request that made the task is over: the task's questions go to the session's client.
    const id = started.task.invocationId;
    const stop = this.#surface.attachCall(id, this.#sessionAsker);
    const stopWhenEnded = this.#host.on('invocation.transition', ({ invocation }) => {
      if (invocation.id !== id || !ENDED.has(invocation.state)) return;
      end();
    });
    const end = () => {
      stop();
      stopWhenEnded();
      this.#detach.delete(end);
    };
    this.#detach.add(end);
    return { task: taskOf(started.task) };
  }

  /** Serves `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` on `server`. */
  serve(server: Server): void {
    // This SDK line has no handlers of its own for the 2025-11-25 task methods: each is served as a method of ours.
    server.setRequestHandler('tasks/get', TASK_ID, async ({ taskId }) => {
      const ended = this.#ended.get(taskId);
      if (ended !== undefined) return ended.task;
      return taskOf(await this.#find(taskId));
    });
    server.setRequestHandler('tasks/result', TASK_ID, async ({ taskId }, ctx) => {
      const related = { _meta: { [RELATED_TASK_META_KEY]: { taskId } } };
      const ended = this.#ended.get(taskId);
      if (ended !== undefined) return { ...ended.result, ...related };
      const task = await this.#find(taskId);
      return { ...(await this.#resultOf(task.scope, task.invocationId, ctx.mcpReq.signal)), ...related };
    });
    server.setRequestHandler('tasks/list', ANY_PARAMS, async () => {
      const open = await this.#host.tasks.list({ scope: this.#scope });
      return { tasks: [...[...this.#ended.values()].map((e) => e.task), ...open.map(taskOf)] };
    });
    server.setRequestHandler('tasks/cancel', TASK_ID, async ({ taskId }) => {
      const ended = this.#ended.get(taskId);
      if (ended !== undefined) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task ${taskId} has already ended`);
      }
      const task = await this.#find(taskId);
      if (!this.#host.tasks.cancel({ scope: task.scope, invocationId: task.invocationId })) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task ${taskId} cannot be cancelled (${task.status})`);
      }
      return { ...taskOf(task), status: 'cancelled' as const, lastUpdatedAt: new Date().toISOString() };
    });
  }

  /** Stops routing the session's tasks' questions to it (the session closed; the tasks go on in the host). */
  close(): void {
    for (const end of [...this.#detach]) end();
  }

  /** The task `taskId` names, of the session's tenant only ({@link findTask}). */
  async #find(taskId: string): Promise<InvocationTask> {
    return findTask(this.#host, this.#scope, taskId);
  }

  /** Waits for the call to end, then reads its result (the model's share) from history. */
  async #resultOf(scope: Scope, invocationId: string, signal: AbortSignal): Promise<CallToolResult> {
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        stop();
        signal.removeEventListener('abort', aborted);
        resolve();
      };
      const aborted = () => {
        stop();
        reject(new ProtocolError(ProtocolErrorCode.InvalidRequest, 'tasks/result was cancelled'));
      };
      const stop = this.#host.on('invocation.transition', ({ invocation }) => {
        if (invocation.id === invocationId && ENDED.has(invocation.state)) done();
      });
      signal.addEventListener('abort', aborted, { once: true });
      void this.#host.history.get({ scope, invocationId }).then((entry) => {
        if (entry !== undefined && ENDED.has(entry.invocation.state)) done();
      }, reject);
    });
    const entry = await this.#host.history.get({ scope, invocationId });
    const model = entry?.result?.model;
    if (model !== undefined) return { content: [...model.content], ...(model.isError ? { isError: true } : {}) };
    const error = entry?.invocation.error;
    const text =
      error === null || error === undefined ? 'the call ended without a result' : `${error.code}: ${error.message}`;
    return { content: [{ type: 'text', text }], isError: true };
  }
}

/** The params of `tasks/get`, `tasks/result` and `tasks/cancel`: a task id, which is all the gateway reads. */
const TASK_ID_PARAMS: StandardSchemaV1<unknown, { taskId: string }> = {
  '~standard': {
    version: 1,
    vendor: 'airlock',
    validate: (value: unknown) => {
      const taskId = (value as { taskId?: unknown } | undefined)?.taskId;
      return typeof taskId === 'string'
        ? { value: { taskId } }
        : { issues: [{ message: 'taskId must be a string', path: ['taskId'] }] };
    },
  },
};
const TASK_ID = { params: TASK_ID_PARAMS };

/** The params of `tasks/list`: a cursor the gateway does not page by (it lists every open task at once). */
const ANY_PARAMS = {
  params: {
    '~standard': { version: 1, vendor: 'airlock', validate: (value: unknown) => ({ value }) },
  } satisfies StandardSchemaV1,
};

/** A host task as the protocol shows it. */
function taskOf(task: InvocationTask): Task {
  return {
    taskId: taskIdOf(task.scope, task.invocationId),
    status: task.status,
    ...(task.statusMessage === null ? {} : { statusMessage: task.statusMessage }),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.updatedAt).toISOString(),
    // The ttl the server gave its task (not the one asked of it): past it, the server may forget the task.
    ttl: task.ttlMs,
    pollInterval: task.pollIntervalMs ?? POLL_MS,
  };
}

function textOf(block: CallToolResult['content'][number]): string {
  return block.type === 'text' ? block.text : `[${block.type}]`;
}

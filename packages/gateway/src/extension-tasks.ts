import type { Caller, Host, InvocationRecord, InvocationTask, Scope } from '@airlock/core';
import { CLIENT_CAPABILITIES_META_KEY, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type {
  CallToolResult,
  ClientCapabilities,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  InputRequest,
  Result,
  Server,
  ServerContext,
  StandardSchemaV1,
} from '@modelcontextprotocol/server';
import type { ClientAsker, GatewaySurface } from './gateway-surface.js';
import { elicitResultOf, embedded } from './round-trips.js';
import type { CallAnswer, TaskAnswer } from './round-trips.js';
import { findTask, taskIdOf } from './task-ids.js';

/** The identifier of the 2026-07-28 tasks extension (SEP-2663). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

const MODEL: Caller = { kind: 'model' };

/** A call's states that are its end: its result (or its failure) is in history. */
const ENDED: ReadonlySet<string> = new Set(['success', 'error', 'cancelled']);

/** The poll interval the gateway suggests when the server behind named none. */
const POLL_MS = 1_000;

/** The extension's "Missing required client capability" error (-32021), naming the extension, as it specifies. */
function undeclared(method: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: ${method} needs the ${TASKS_EXTENSION} extension declared on the request`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/** True when the capabilities a request carries declare the tasks extension. */
export function declaresTaskExtension(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return extensions?.[TASKS_EXTENSION] !== undefined;
}

/** The capabilities the request being served declares in its envelope (2026-07-28 has no session to keep them). */
export function requestCapabilities(ctx: ServerContext): ClientCapabilities | undefined {
  // The SDK types the envelope as `{}`; its client-capabilities key holds what this request's client declares.
  const envelope = ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}

/** A question of a task to the client: outstanding in `tasks/get` until a `tasks/update` answers its key. */
interface Question {
  readonly params: ElicitRequestFormParams | ElicitRequestURLParams;
  readonly answer: (result: ElicitResult) => void;
}

/**
 * The questions one task asks its client once the call was answered with the task: each is outstanding (in
 * `tasks/get`'s `inputRequests`) until a `tasks/update` answers its key. Keys are never reused within the task, as the
 * extension requires.
 */
class TaskQuestions {
  readonly #pending = new Map<string, Question>();
  #asked = 0;
  /** The elicitation modes the client declared on its latest request about the task. */
  modes: { readonly form: boolean; readonly url: boolean };

  constructor(modes: { readonly form: boolean; readonly url: boolean }) {
    this.modes = modes;
  }

  readonly asker: ClientAsker = {
    modes: () => this.modes,
    elicit: (params, signal) =>
      new Promise<ElicitResult>((resolve, reject) => {
        const key = `input-${++this.#asked}`;
        const onAbort = () => {
          this.#pending.delete(key);
          reject(signal.reason instanceof Error ? signal.reason : new Error('the question was withdrawn'));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        this.#pending.set(key, {
          params,
          answer: (result) => {
            this.#pending.delete(key);
            signal.removeEventListener('abort', onAbort);
            resolve(result);
          },
        });
      }),
  };

  /** Every question not answered yet, keyed as `tasks/update` answers them. */
  outstanding(): Record<string, InputRequest> | undefined {
    if (this.#pending.size === 0) return undefined;
    return Object.fromEntries([...this.#pending].map(([key, question]) => [key, embedded(question.params)]));
  }

  /** Takes a `tasks/update`'s answers; a key not outstanding is ignored, as the extension says. */
  answer(responses: Readonly<Record<string, unknown>>): void {
    const answers: [Question, ElicitResult][] = [];
    for (const [key, response] of Object.entries(responses)) {
      const question = this.#pending.get(key);
      if (question !== undefined) answers.push([question, elicitResultOf(key, response)]);
    }
    for (const [question, result] of answers) question.answer(result);
  }
}

/** A 2026-07-28 `tools/call` of a client that declared the extension: what `ExtensionTasks.call` needs. */
export interface ExtensionCall {
  readonly scope: Scope;
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly signal: AbortSignal;
  /** Where the call's questions go until it becomes a task (the round trips of its `tools/call`). */
  readonly callAsker: ClientAsker;
  /** Told once the call is recorded (the gateway relays its progress from then on). */
  readonly onRecorded?: (invocation: InvocationRecord) => void;
}

/**
 * The gateway's side of the 2026-07-28 tasks extension, shared by every request of an entry (HTTP serves each
 * request with a server of its own). A `tools/call` of a client that declared the extension is `host.tasks.start`:
 * when the server behind answers with a task (either era), the call is answered with the extension's task handle, its
 * id the call's conversation and invocation id (as the 2025-11-25 tasks'), found again only for the caller's tenant.
 * `tasks/get` reads the host's task record (status, the server's ttl and poll interval) and history (the model's share
 * of the result once done); a question the task asks after its handle was given waits in `inputRequests` until a
 * `tasks/update` answers it; `tasks/cancel` cancels through the host. Each refuses a request that does not declare
 * the extension (-32021). Status pushes (`notifications/tasks` on `subscriptions/listen`) are not served: a client
 * polls.
 */
export class ExtensionTasks {
  readonly #host: Host;
  readonly #surface: GatewaySurface;
  /** The questions of each task the gateway answered a call with, by invocation id, while the task runs here. */
  readonly #questions = new Map<string, TaskQuestions>();
  readonly #ends = new Set<() => void>();

  constructor(options: { readonly host: Host; readonly surface: GatewaySurface }) {
    this.#host = options.host;
    this.#surface = options.surface;
  }

  /** Makes the call; answers with its result, or with the task handle once the server made a task. */
  async call(call: ExtensionCall): Promise<CallAnswer> {
    const { scope, tool } = call;
    let target: ClientAsker = call.callAsker;
    // One asker for the call's whole life: its questions go to the call's round trips, then to its task's client.
    const asker: ClientAsker = {
      modes: () => target.modes(),
      elicit: (params, signal) => target.elicit(params, signal),
    };
    let detach: (() => void) | undefined;
    const listed = this.#host.tools.list({ audience: 'model', scope }).find((t) => t.name === tool);
    const started = await this.#host.tasks.start({
      scope,
      caller: MODEL,
      tool,
      args: call.args,
      // A 2025-11-25 server's task tool is asked for a task; a 2026-07-28 server decides on its own.
      ...(listed?.taskSupport === 'optional' ? { asTask: true } : {}),
      signal: call.signal,
      onRecorded: (invocation) => {
        detach = this.#surface.attachCall(invocation.id, asker);
        call.onRecorded?.(invocation);
      },
    });
    if ('result' in started) {
      detach?.();
      return { content: [...started.result.content], ...(started.result.isError ? { isError: true } : {}) };
    }
    const id = started.task.invocationId;
    const questions = new TaskQuestions(call.callAsker.modes());
    target = questions.asker;
    this.#questions.set(id, questions);
    const stopWhenEnded = this.#host.on('invocation.transition', ({ invocation }) => {
      if (invocation.id === id && ENDED.has(invocation.state)) end();
    });
    const end = () => {
      detach?.();
      stopWhenEnded();
      this.#questions.delete(id);
      this.#ends.delete(end);
    };
    this.#ends.add(end);
    const handle = await this.#detailed(started.task);
    // A task that ended before the listener above was on has no transition left to end its routing.
    if (handle['status'] !== 'working' && handle['status'] !== 'input_required') end();
    return { resultType: 'task', ...handle } as TaskAnswer;
  }

  /** Serves `tasks/get`, `tasks/update` and `tasks/cancel` on `server`, a 2026-07-28 server of `scope`'s tenant. */
  serve(server: Server, scope: Scope): void {
    const declared = (method: string, ctx: ServerContext) => {
      const capabilities = requestCapabilities(ctx);
      if (!declaresTaskExtension(capabilities)) throw undeclared(method);
      return capabilities;
    };
    server.setRequestHandler('tasks/get', TASK_ID, async ({ taskId }, ctx) => {
      const capabilities = declared('tasks/get', ctx);
      const task = await findTask(this.#host, scope, taskId);
      const questions = this.#questions.get(task.invocationId);
      if (questions !== undefined) questions.modes = modesOf(capabilities);
      return this.#detailed(task);
    });
    server.setRequestHandler('tasks/update', TASK_ID, async ({ taskId }, ctx) => {
      declared('tasks/update', ctx);
      // The SDK lifts `inputResponses` off the params of every 2026-07-28 request, as it does for a retried call.
      const inputResponses = ctx.mcpReq.inputResponses as unknown;
      if (typeof inputResponses !== 'object' || inputResponses === null || Array.isArray(inputResponses)) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          'tasks/update needs inputResponses: an object keyed as the task inputRequests',
        );
      }
      const task = await findTask(this.#host, scope, taskId);
      this.#questions.get(task.invocationId)?.answer(inputResponses as Record<string, unknown>);
      return {};
    });
    server.setRequestHandler('tasks/cancel', TASK_ID, async ({ taskId }, ctx) => {
      declared('tasks/cancel', ctx);
      const task = await findTask(this.#host, scope, taskId);
      // Cancellation is cooperative: acknowledged even when the task has already ended or runs elsewhere.
      this.#host.tasks.cancel({ scope: task.scope, invocationId: task.invocationId });
      return {};
    });
  }

  /** Stops routing the tasks' questions here (the entry closes; the tasks go on in the host). */
  close(): void {
    for (const end of [...this.#ends]) end();
  }

  /** A host task as the extension's `DetailedTask`: its status with what that status carries. */
  async #detailed(task: InvocationTask): Promise<Result> {
    const base = {
      taskId: taskIdOf(task.scope, task.invocationId),
      ...(task.statusMessage === null ? {} : { statusMessage: task.statusMessage }),
      createdAt: new Date(task.createdAt).toISOString(),
      lastUpdatedAt: new Date(task.updatedAt).toISOString(),
      // The ttl the server gave its task, as the host keeps it: past it, the server may forget the task.
      ttlMs: task.ttlMs,
      pollIntervalMs: task.pollIntervalMs ?? POLL_MS,
    };
    const entry = await this.#host.history.get({ scope: task.scope, invocationId: task.invocationId });
    const state = entry?.invocation.state;
    if (entry !== undefined && state !== undefined && ENDED.has(state)) {
      if (state === 'cancelled') return { ...base, status: 'cancelled' };
      const model = entry.result?.model;
      const error = entry.invocation.error;
      // A tool's own error is a completed task with an isError result; only a fault of the call itself fails it.
      if (model !== undefined && (error === null || error === undefined || error.code === 'tool_error')) {
        // The tool's result as a 2026-07-28 result: it carries its own resultType.
        const result: CallToolResult & { resultType: 'complete' } = {
          resultType: 'complete',
          content: [...model.content],
          ...(model.isError ? { isError: true } : {}),
        };
        return { ...base, status: 'completed', result };
      }
      const message = error === null || error === undefined ? 'the call ended without a result' : error.message;
      return {
        ...base,
        status: 'failed',
        ...(base.statusMessage === undefined ? { statusMessage: message } : {}),
        error: { code: ProtocolErrorCode.InternalError, message, data: { outcome: error?.code ?? 'error' } },
      };
    }
    const inputRequests = this.#questions.get(task.invocationId)?.outstanding();
    if (inputRequests !== undefined) return { ...base, status: 'input_required', inputRequests };
    // The host answering a question of the server itself (or asking elsewhere) is work in progress to this client.
    return { ...base, status: 'working' };
  }
}

function modesOf(capabilities: ClientCapabilities | undefined): { form: boolean; url: boolean } {
  const declared = capabilities?.elicitation as { form?: object; url?: object } | undefined;
  if (declared === undefined) return { form: false, url: false };
  const url = declared.url !== undefined;
  return { form: declared.form !== undefined || !url, url };
}

function schema<T>(validate: (value: unknown) => T | string): StandardSchemaV1<unknown, T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'airlock',
      validate: (value: unknown) => {
        const checked = validate(value);
        return typeof checked === 'string' ? { issues: [{ message: checked }] } : { value: checked };
      },
    },
  };
}

/** The params of `tasks/get`, `tasks/update` and `tasks/cancel`: the task id (the only one the SDK leaves there). */
const TASK_ID = {
  params: schema((value) => {
    const taskId = (value as { taskId?: unknown } | undefined)?.taskId;
    return typeof taskId === 'string' ? { taskId } : 'taskId must be a string';
  }),
};

// A 2026-07-28 MCP server with the tasks extension (io.modelcontextprotocol/tasks, SEP-2663), for the tests of
// 2026-era tasks: the v2 SDK's `createMcpHandler` (2026 only) serves server/discover and tools/list, declaring the
// extension; the v2 SDK has no support for the extension itself (its tools/call results may only be "complete"), so
// a tools/call of the task tool, tasks/get, tasks/update and tasks/cancel are answered here, before the SDK sees
// them, as the extension's specification says. Each of them is refused (-32021) unless the request declares the
// extension in its own capabilities. Tasks live in memory across requests and hosts (the protocol is stateless), so a
// host that dies and a new host on the same store find the same task; closing the server forgets them all.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';

/** The task tool: a report on a topic, always answered with a task. */
export const REVIEW_TOOL = 'reviewed_report';
/** The key of the input request the task asks when it needs a reviewer. */
export const REVIEWER_KEY = 'reviewer-1';

const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

type Status = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

interface HeldTask {
  readonly taskId: string;
  readonly topic: string;
  status: Status;
  statusMessage: string;
  readonly createdAt: string;
  lastUpdatedAt: string;
  polls: number;
  result?: { content: { type: 'text'; text: string }[]; isError?: boolean };
}

/** How to start the server. */
export interface ModernTaskServerOptions {
  /** The poll interval the server asks for, in milliseconds. Default 250. */
  readonly pollIntervalMs?: number;
  /** A task asks for a reviewer (input_required, an elicitation form) at its first tasks/get. */
  readonly askReviewer?: boolean;
  /** A task completes on its own at this many tasks/get; unset, only `finish` (or an answer) completes it. */
  readonly completeAfterPolls?: number;
}

/** A running 2026-era task server. */
export interface ModernTaskServer {
  readonly url: string;
  /** Task ids created, in order. */
  readonly created: string[];
  /** tasks/get received, per task id. */
  readonly polls: Map<string, number>;
  /** The inputResponses of each tasks/update, in order. */
  readonly updates: { taskId: string; inputResponses: Record<string, unknown> }[];
  /** Task ids tasks/cancel was received for, in order. */
  readonly cancels: string[];
  /** Requests refused because they did not declare the extension (method names). */
  readonly undeclared: string[];
  /** Resolves with the id of the first task created (now or later). */
  taskCreated(): Promise<string>;
  /** Resolves with the id of the first task tasks/cancel is received for (now or later). */
  taskCancelled(): Promise<string>;
  /** Completes a task (every open one when no id is given) with the report as its result. */
  finish(taskId?: string): void;
  close(): Promise<void>;
}

interface RpcRequest {
  readonly id?: unknown;
  readonly method?: string;
  readonly params?: Record<string, unknown> & { _meta?: Record<string, unknown> };
}

function now(): string {
  return new Date().toISOString();
}

function declaresTasks(request: RpcRequest): boolean {
  const capabilities = request.params?._meta?.[CAPABILITIES_KEY] as
    { extensions?: Record<string, unknown> } | undefined;
  return capabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
}

const REVIEWER_FORM = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Who reviews the report?',
    requestedSchema: { type: 'object', properties: { reviewer: { type: 'string' } }, required: ['reviewer'] },
  },
};

/** Starts the server on 127.0.0.1 at `/mcp`. */
export async function startModernTaskServer(options: ModernTaskServerOptions = {}): Promise<ModernTaskServer> {
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const tasks = new Map<string, HeldTask>();
  const polls = new Map<string, number>();
  const created: string[] = [];
  const updates: ModernTaskServer['updates'] = [];
  const cancels: string[] = [];
  const undeclared: string[] = [];
  const createdWaiters: ((taskId: string) => void)[] = [];
  const cancelWaiters: ((taskId: string) => void)[] = [];

  const wire = (task: HeldTask) => ({
    taskId: task.taskId,
    status: task.status,
    statusMessage: task.statusMessage,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: 3_600_000,
    pollIntervalMs,
    ...(task.status === 'input_required' ? { inputRequests: { [REVIEWER_KEY]: REVIEWER_FORM } } : {}),
    ...(task.status === 'completed' && task.result !== undefined ? { result: task.result } : {}),
  });
  const move = (task: HeldTask, status: Status, message: string) => {
    if (task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled') return;
    task.status = status;
    task.statusMessage = message;
    task.lastUpdatedAt = now();
  };
  const complete = (task: HeldTask, text: string, isError = false) => {
    if (task.status === 'completed' || task.status === 'cancelled') return;
    task.result = { content: [{ type: 'text', text }], ...(isError ? { isError: true } : {}) };
    move(task, 'completed', 'Done');
  };

  /** The answer to a request the extension owns, or undefined to let the SDK serve it. */
  function answer(request: RpcRequest): Record<string, unknown> | undefined {
    const method = request.method ?? '';
    const ours =
      (method === 'tools/call' && request.params?.['name'] === REVIEW_TOOL) ||
      method === 'tasks/get' ||
      method === 'tasks/update' ||
      method === 'tasks/cancel';
    if (!ours) return undefined;
    const error = (code: number, message: string, data?: unknown) => ({
      error: { code, message, ...(data === undefined ? {} : { data }) },
    });
    if (!declaresTasks(request)) {
      undeclared.push(method);
      return error(-32021, 'Missing required client capability', {
        requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
      });
    }
    if (method === 'tools/call') {
      const at = now();
      const args = request.params?.['arguments'] as { topic?: unknown } | undefined;
      const task: HeldTask = {
        taskId: randomUUID(),
        topic: typeof args?.topic === 'string' ? args.topic : '',
        status: 'working',
        statusMessage: 'Gathering sources',
        createdAt: at,
        lastUpdatedAt: at,
        polls: 0,
      };
      tasks.set(task.taskId, task);
      created.push(task.taskId);
      for (const tell of createdWaiters.splice(0)) tell(task.taskId);
      return { result: { resultType: 'task', ...wire(task) } };
    }
    const taskId = String(request.params?.['taskId']);
    const task = tasks.get(taskId);
    if (task === undefined) return error(-32602, `Failed to retrieve task: Task not found: ${taskId}`);
    if (method === 'tasks/get') {
      polls.set(taskId, (polls.get(taskId) ?? 0) + 1);
      task.polls += 1;
      if (task.polls === 1 && options.askReviewer === true) move(task, 'input_required', 'Waiting for a reviewer');
      else if (task.polls === 1) move(task, 'working', 'Writing the report');
      if (options.completeAfterPolls !== undefined && task.polls >= options.completeAfterPolls) {
        complete(task, `Report on ${task.topic}: all sources read.`);
      }
      return { result: { resultType: 'complete', ...wire(task) } };
    }
    if (method === 'tasks/update') {
      const inputResponses = (request.params?.['inputResponses'] ?? {}) as Record<string, unknown>;
      updates.push({ taskId, inputResponses });
      const reply = inputResponses[REVIEWER_KEY] as { action?: string; content?: { reviewer?: unknown } } | undefined;
      if (task.status === 'input_required' && reply !== undefined) {
        if (reply.action === 'accept' && typeof reply.content?.reviewer === 'string') {
          complete(task, `Report on ${task.topic}, reviewed by ${reply.content.reviewer}.`);
        } else {
          complete(task, `Report on ${task.topic} left unreviewed (${reply.action ?? 'no answer'}).`, true);
        }
      }
      return { result: { resultType: 'complete' } };
    }
    cancels.push(taskId);
    for (const tell of cancelWaiters.splice(0)) tell(taskId);
    move(task, 'cancelled', 'Cancelled by the client');
    return { result: { resultType: 'complete' } };
  }

  const build = () => {
    const server = new Server(
      { name: 'modern-task-server', version: '1.0.0' },
      { capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } } },
    );
    server.setRequestHandler('tools/list', () => ({
      tools: [
        {
          name: REVIEW_TOOL,
          description: 'Writes a report on a topic and has it reviewed; long work, answered with a task',
          inputSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
        },
      ],
    }));
    return server;
  };
  const modern = createMcpHandler(() => build(), { legacy: 'reject' });

  async function handle(request: Request): Promise<Response> {
    if (new URL(request.url).pathname !== '/mcp') return new Response('not found', { status: 404 });
    if (request.method === 'POST') {
      const body = (await request
        .clone()
        .json()
        .catch(() => undefined)) as RpcRequest | undefined;
      const answered = body === undefined ? undefined : answer(body);
      if (answered !== undefined) return Response.json({ jsonrpc: '2.0', id: body?.id ?? null, ...answered });
    }
    return modern.fetch(request);
  }

  const http = createServer();
  const listener = getRequestListener(handle, { overrideGlobalObjects: false });
  http.on('request', (req, res) => void listener(req, res));
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    created,
    polls,
    updates,
    cancels,
    undeclared,
    taskCreated: () =>
      created[0] !== undefined ? Promise.resolve(created[0]) : new Promise((resolve) => createdWaiters.push(resolve)),
    taskCancelled: () =>
      cancels[0] !== undefined ? Promise.resolve(cancels[0]) : new Promise((resolve) => cancelWaiters.push(resolve)),
    finish: (taskId) => {
      for (const task of tasks.values()) {
        if (taskId === undefined || task.taskId === taskId)
          complete(task, `Report on ${task.topic}: all sources read.`);
      }
    },
    close: async () => {
      await modern.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

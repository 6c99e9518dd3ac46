// A 2025-11-25 MCP server with a task tool, for the tests of tasks that outlive a host: built on the v2 SDK's
// low-level Server over Streamable HTTP (a sessionful transport per initialize), it keeps its tasks in memory across
// client sessions, so a host that dies and a new host on the same store find the same task. It counts what it is
// asked (tasks/get per task, the most tasks/get in flight at once, tasks/cancel), so a test can assert the poll load.
// Closing it and starting it again on the same port is a server restart that forgets every task.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { ProtocolError, Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

/** The task tool: a report on a topic, always run as a task. */
export const REPORT_TOOL = 'slow_report';
/** The same report, as a task only when the client asks (`taskSupport: "optional"`); at once otherwise. */
export const OPTIONAL_TOOL = 'quick_report';
/**
 * A report that needs a reviewer: once `ask` is called, its task moves to input_required and asks "Who reviews the
 * report?" over each `tasks/result` request waiting on it (the SDK's elicitation tied to that request), then completes
 * with the first answer in its result.
 */
export const REVIEW_TOOL = 'reviewed_report';

type Status = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

interface HeldTask {
  readonly taskId: string;
  readonly topic: string;
  status: Status;
  statusMessage: string;
  readonly createdAt: string;
  lastUpdatedAt: string;
  polls: number;
  /** For a task of REVIEW_TOOL: resolves when `ask` is called; each tasks/result then asks the question. */
  readonly asked?: Promise<void>;
  readonly ended: Promise<void>;
  end: () => void;
}

/** How to start the server. */
export interface TaskServerOptions {
  /** 0 (default) picks a free port; a port given again restarts the server there. */
  readonly port?: number;
  /** The poll interval the server asks for, in milliseconds. Default 250. */
  readonly pollInterval?: number;
  /** A task completes on its own at this many tasks/get; unset, only `finish` completes it. */
  readonly completeAfterPolls?: number;
  /** How long each tasks/get takes to answer (the server's own latency). Default 0. */
  readonly getLatencyMs?: number;
}

/** A running task server. */
export interface TaskServer {
  readonly url: string;
  readonly port: number;
  /** tasks/get received, per task id. */
  readonly polls: Map<string, number>;
  /** The most tasks/get the server was answering at once. */
  readonly maxGetsInFlight: () => number;
  /** Task ids tasks/cancel was received for, in order. */
  readonly cancels: string[];
  /** Resolves with the id of the first task tasks/cancel is (or was) received for. */
  taskCancelled(): Promise<string>;
  /** Task ids created, in order. */
  readonly created: string[];
  /** Resolves with the id of the next task created (or the first one, if one was created already). */
  taskCreated(): Promise<string>;
  /** While true, every request is answered HTTP 503 (a server not ready), its tasks kept. */
  refuse(refusing: boolean): void;
  /** Lets a task of REVIEW_TOOL ask for its reviewer, over each tasks/result request waiting on it or still to come. */
  ask(taskId: string): void;
  /** Completes a task (every working task when no id is given) with the report as its result. */
  finish(taskId?: string): void;
  close(): Promise<void>;
}

/** The task id a tasks/* request names (the SDK's 2025 request types do not reach its handler's parameter). */
function idOf(request: unknown): string {
  return String((request as { params: { taskId: string } }).params.taskId);
}

/** What a request handler is given that a task asks its question through: the elicitation tied to the request. */
interface AskingContext {
  readonly mcpReq: { readonly elicitInput: Server['elicitInput'] };
}

function now(): string {
  return new Date().toISOString();
}

function wire(task: HeldTask, pollInterval: number) {
  return {
    taskId: task.taskId,
    status: task.status,
    statusMessage: task.statusMessage,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttl: 3_600_000,
    pollInterval,
  };
}

/** Starts the server on 127.0.0.1 at `/mcp`. */
export async function startTaskServer(options: TaskServerOptions = {}): Promise<TaskServer> {
  const pollInterval = options.pollInterval ?? 250;
  const tasks = new Map<string, HeldTask>();
  const polls = new Map<string, number>();
  const cancels: string[] = [];
  const created: string[] = [];
  const waiting: ((taskId: string) => void)[] = [];
  const cancelWaiters: ((taskId: string) => void)[] = [];
  const askers = new Map<string, () => void>();
  let refusing = false;
  let inFlight = 0;
  let maxInFlight = 0;

  const end = (task: HeldTask, status: Status, message: string) => {
    if (task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled') return;
    task.status = status;
    task.statusMessage = message;
    task.lastUpdatedAt = now();
    task.end();
  };
  const find = (taskId: string): HeldTask => {
    const task = tasks.get(taskId);
    if (task === undefined) throw new ProtocolError(-32602, `Task not found: ${taskId}`);
    return task;
  };

  // The v2 SDK server validates every tools/call result as a CallToolResult and keeps no tasks, so a task-augmented
  // tools/call is answered here, before the SDK sees it: a JSON response with the task handle (CreateTaskResult).
  function createTask(request: { id: unknown; params?: { name?: string; arguments?: Record<string, unknown> } }) {
    const name = request.params?.name;
    if (name !== REPORT_TOOL && name !== OPTIONAL_TOOL && name !== REVIEW_TOOL) {
      return {
        jsonrpc: '2.0',
        id: request.id,
        error: { code: -32602, message: `unknown tool ${request.params?.name}` },
      };
    }
    let endTask!: () => void;
    const ended = new Promise<void>((resolve) => (endTask = resolve));
    const at = now();
    const taskId = randomUUID();
    const asked = name === REVIEW_TOOL ? new Promise<void>((resolve) => askers.set(taskId, resolve)) : undefined;
    const task: HeldTask = {
      taskId,
      ...(asked === undefined ? {} : { asked }),
      topic: JSON.stringify(request.params?.arguments?.['topic'] ?? ''),
      status: 'working',
      statusMessage: 'Gathering sources',
      createdAt: at,
      lastUpdatedAt: at,
      polls: 0,
      ended,
      end: endTask,
    };
    tasks.set(task.taskId, task);
    created.push(task.taskId);
    for (const tell of waiting.splice(0)) tell(task.taskId);
    return { jsonrpc: '2.0', id: request.id, result: { task: wire(task, pollInterval) } };
  }

  // A task of REVIEW_TOOL: once asked to, it moves to input_required and asks its question over every tasks/result
  // request waiting on it or arriving while it waits (one per host that follows it), and completes with the first
  // answer.
  async function reviewed(task: HeldTask, ctx: AskingContext) {
    await Promise.race([task.asked, task.ended]);
    if (task.status === 'working' || task.status === 'input_required') {
      task.status = 'input_required';
      task.statusMessage = 'Waiting for a reviewer';
      task.lastUpdatedAt = now();
      const question = ctx.mcpReq.elicitInput({
        mode: 'form',
        message: 'Who reviews the report?',
        requestedSchema: { type: 'object', properties: { reviewer: { type: 'string' } }, required: ['reviewer'] },
      });
      // A question sent over a dead host's request fails or is never answered: the task ends with the first answer.
      const answer = await Promise.race([question.catch(() => undefined), task.ended.then(() => undefined)]);
      if (answer !== undefined) {
        const reviewer = answer.action === 'accept' ? String(answer.content?.['reviewer']) : 'nobody';
        end(task, 'completed', `Reviewed by ${reviewer}`);
      }
    }
    await task.ended;
    if (task.status === 'cancelled') throw new ProtocolError(-32603, `Task ${task.taskId} was cancelled`);
    return {
      content: [{ type: 'text', text: `Report on ${JSON.parse(task.topic) as string}: ${task.statusMessage}.` }],
      _meta: { 'io.modelcontextprotocol/related-task': { taskId: task.taskId } },
    };
  }

  function build(): Server {
    const server = new Server(
      { name: 'task-server', version: '1.0.0' },
      { capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } },
    );
    server.setRequestHandler('tools/list', () => ({
      tools: [
        {
          name: REPORT_TOOL,
          description: 'Writes a report on a topic; long work, always a task',
          inputSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
          execution: { taskSupport: 'required' },
        },
        {
          name: REVIEW_TOOL,
          description: 'Writes a report on a topic and asks who reviews it; always a task',
          inputSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
          execution: { taskSupport: 'required' },
        },
        {
          name: OPTIONAL_TOOL,
          description: 'Writes a report on a topic; a task when the client asks for one',
          inputSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
          execution: { taskSupport: 'optional' },
        },
      ],
    }));
    // The SDK types its request handlers by the methods it knows, and the 2025-11-25 task methods are not among them.
    const onTaskRequest = server.setRequestHandler.bind(server) as unknown as (
      method: 'tasks/get' | 'tasks/result' | 'tasks/cancel',
      handler: (request: unknown) => unknown,
    ) => void;
    // A tools/call without `task` (the task-augmented ones are answered by `createTask`, before the SDK sees them).
    server.setRequestHandler('tools/call', (request) => {
      if (request.params.name !== OPTIONAL_TOOL) {
        throw new ProtocolError(-32601, `${request.params.name} requires task augmentation`);
      }
      const topic = JSON.stringify(request.params.arguments?.['topic'] ?? '');
      return { content: [{ type: 'text', text: `Quick report on ${JSON.parse(topic) as string}.` }] };
    });
    onTaskRequest('tasks/get', async (request) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        const taskId = idOf(request);
        polls.set(taskId, (polls.get(taskId) ?? 0) + 1);
        if (options.getLatencyMs !== undefined) await new Promise((r) => setTimeout(r, options.getLatencyMs));
        const task = find(taskId);
        task.polls += 1;
        if (task.status === 'working' && task.polls === 1) {
          task.statusMessage = 'Writing the report';
          task.lastUpdatedAt = now();
        }
        if (options.completeAfterPolls !== undefined && task.polls >= options.completeAfterPolls) {
          end(task, 'completed', 'Done');
        }
        return wire(task, pollInterval);
      } finally {
        inFlight -= 1;
      }
    });
    onTaskRequest('tasks/result', (async (request: unknown, ctx: AskingContext) => {
      const task = find(idOf(request));
      if (task.asked !== undefined) return await reviewed(task, ctx);
      await task.ended;
      if (task.status === 'cancelled') throw new ProtocolError(-32603, `Task ${task.taskId} was cancelled`);
      return {
        content: [{ type: 'text', text: `Report on ${JSON.parse(task.topic) as string}: all sources read.` }],
        _meta: { 'io.modelcontextprotocol/related-task': { taskId: task.taskId } },
      };
    }) as (request: unknown) => unknown);
    onTaskRequest('tasks/cancel', (request) => {
      const task = find(idOf(request));
      cancels.push(task.taskId);
      for (const tell of cancelWaiters.splice(0)) tell(task.taskId);
      end(task, 'cancelled', 'Cancelled by the client');
      return wire(task, pollInterval);
    });
    return server;
  }

  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  async function handle(request: Request): Promise<Response> {
    if (new URL(request.url).pathname !== '/mcp') return new Response('not found', { status: 404 });
    if (refusing) return new Response('starting up', { status: 503 });
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const transport = sessions.get(sessionId);
      if (transport === undefined)
        return Response.json(
          { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null },
          { status: 404 },
        );
      if (request.method === 'POST') {
        const body = (await request
          .clone()
          .json()
          .catch(() => undefined)) as { method?: string; id?: unknown; params?: { task?: unknown } } | undefined;
        if (body?.method === 'tools/call' && body.params?.task !== undefined) {
          return Response.json(createTask(body as Parameters<typeof createTask>[0]), {
            headers: { 'mcp-session-id': sessionId },
          });
        }
      }
      return transport.handleRequest(request);
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    await build().connect(transport);
    return transport.handleRequest(request);
  }

  const http = createServer();
  const listener = getRequestListener(handle, { overrideGlobalObjects: false });
  http.on('request', (req, res) => void listener(req, res));
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    polls,
    maxGetsInFlight: () => maxInFlight,
    cancels,
    created,
    taskCreated: () =>
      created[0] !== undefined ? Promise.resolve(created[0]) : new Promise((resolve) => waiting.push(resolve)),
    taskCancelled: () =>
      cancels[0] !== undefined ? Promise.resolve(cancels[0]) : new Promise((resolve) => cancelWaiters.push(resolve)),
    refuse: (on) => void (refusing = on),
    ask: (taskId) => askers.get(taskId)?.(),
    finish: (taskId) => {
      for (const task of tasks.values()) {
        if (taskId === undefined || task.taskId === taskId) end(task, 'completed', 'Done');
      }
    },
    close: async () => {
      for (const transport of sessions.values()) await transport.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

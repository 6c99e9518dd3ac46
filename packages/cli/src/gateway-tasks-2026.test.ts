import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createTaskSessionFromClient, resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import type { JsonRpcResponse } from '@modelcontextprotocol/ext-tasks/client';
import { afterEach, describe, expect, it } from 'vitest';
import { REVIEW_TOOL, startModernTaskServer } from '../../../test/support/tasks/modern-task-server.js';
import type { ModernTaskServer, ModernTaskServerOptions } from '../../../test/support/tasks/modern-task-server.js';
import { stopGateway } from '../../../test/support/gateway/cli-gateways.js';

// The 2026-07-28 tasks extension (io.modelcontextprotocol/tasks) served by `airlock gateway` to a client that is not
// ours: the official helper @modelcontextprotocol/ext-tasks on a v2 SDK client negotiating 2026-07-28, over stdio and
// Streamable HTTP. Behind the gateway, the 2026 task fixture server (it answers its tool with a task) and
// server-everything's research tool (a 2025-11-25 task).
const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../dist/bin.js');
const EVERYTHING = resolve(here, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const REVIEW = `reviews__${REVIEW_TOOL}`;
const RESEARCH = 'everything__simulate-research-query';
/** How long server-everything keeps a research task (its own choice). */
const EVERYTHING_TTL_MS = 300_000;
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const GRACE = 'grace-ext-tasks-token-0123456789abcdef';
const HOPPER = 'hopper-ext-tasks-token-0123456789abcdef';
/** The envelope of a raw request that declares the extension. */
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
};
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const dirs: string[] = [];
const closers: (() => Promise<unknown>)[] = [];
const gateways: ChildProcess[] = [];
afterEach(async () => {
  await Promise.allSettled(closers.splice(0).map((close) => close()));
  for (const gateway of gateways.splice(0)) await stopGateway(gateway);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function reviews(options: ModernTaskServerOptions): Promise<ModernTaskServer> {
  const server = await startModernTaskServer(options);
  closers.push(() => server.close());
  return server;
}

/** The gateway's arguments for a config with the task servers, their tools allowed, and the gateway's users. */
function workspace(servers: { reviews?: string; everything?: boolean; ask?: boolean }): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-gateway-ext-tasks-'));
  dirs.push(dir);
  const config = join(dir, 'airlock.config.json');
  const mcpServers = {
    ...(servers.reviews === undefined ? {} : { reviews: { url: servers.reviews, negotiation: 'auto' } }),
    ...(servers.everything === true ? { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } : {}),
  };
  const rules = [
    ...(servers.ask === true ? [] : [{ effect: 'allow', server: 'reviews', tool: REVIEW_TOOL }]),
    { effect: 'allow', server: 'everything', tool: 'simulate-research-query' },
  ];
  const users = { grace: { tokenSha256: sha256(GRACE) }, hopper: { tokenSha256: sha256(HOPPER) } };
  writeFileSync(config, JSON.stringify({ mcpServers, permissions: { rules }, gateway: { users } }));
  return ['gateway', '--config', config, '--store', join(dir, 'airlock.db'), '--user', 'grace'];
}

async function httpGateway(args: string[]): Promise<URL> {
  const gateway = spawn(process.execPath, [BIN, ...args, '--http', '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  gateways.push(gateway);
  let stderr = '';
  gateway.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  while (!/listening on (\S+)/.test(stderr)) await once(gateway.stderr, 'data');
  return new URL(/listening on (\S+)/.exec(stderr)![1]!);
}

/**
 * A transport that lets raw JSON-RPC requests through beside the client's own: the SDK client refuses a `tools/call`
 * answered with a task, so ext-tasks sends its task requests raw (`rawDispatch`), on the client's own connection.
 */
class RawTap implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #inner: Transport;
  readonly #waiting = new Map<string, (message: JSONRPCMessage) => void>();
  #next = 0;

  constructor(inner: Transport) {
    this.#inner = inner;
    inner.onmessage = (message, extra) => {
      const id = (message as { id?: unknown }).id;
      const waiting = typeof id === 'string' ? this.#waiting.get(id) : undefined;
      if (waiting === undefined) return this.onmessage?.(message, extra);
      this.#waiting.delete(id as string);
      waiting(message);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  start = () => this.#inner.start();
  send: Transport['send'] = (message, options) => this.#inner.send(message, options);
  close = () => this.#inner.close();
  setProtocolVersion = (version: string) => this.#inner.setProtocolVersion?.(version);

  /** Sends one request as it is (plus an id) and answers with its response. */
  dispatch = async (request: unknown): Promise<JsonRpcResponse> => {
    const id = `raw-${++this.#next}`;
    const answered = new Promise<JSONRPCMessage>((done) => this.#waiting.set(id, done));
    await this.#inner.send({ ...(request as object), jsonrpc: '2.0', id } as JSONRPCMessage);
    const response = (await answered) as { result?: unknown; error?: { code: number; message: string } };
    return response.error === undefined
      ? { kind: 'result', result: response.result as never }
      : { kind: 'error', error: response.error };
  };
}

const transports: Record<string, (args: string[], token?: string) => Promise<Transport>> = {
  stdio: (args) => Promise.resolve(new StdioClientTransport({ command: process.execPath, args: [BIN, ...args] })),
  HTTP: async (args, token = GRACE) =>
    new StreamableHTTPClientTransport(await httpGateway(args), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
};

/** A v2 client negotiating 2026-07-28 with ext-tasks' session on it; questions are answered with `reviewer`. */
async function modernSession(transport: Transport, reviewer = 'Ada') {
  const tap = new RawTap(transport);
  const client = new Client(
    { name: 'ext-tasks-client', version: '1' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(tap);
  closers.push(() => client.close());
  const asked: unknown[] = [];
  const session = createTaskSessionFromClient(client, {
    endpointId: 'airlock-gateway',
    rawDispatch: (request) => tap.dispatch(request),
    v2RequestFraming: {
      protocolVersion: '2026-07-28',
      clientInfo: { name: 'ext-tasks-client', version: '1' },
      clientCapabilities: { elicitation: { form: {} } },
    },
    onInputRequest: (request) => {
      asked.push(request);
      // The gateway's consent form has a decision field; the fixture server's question, a reviewer.
      const fields = (request.params as { requestedSchema?: { properties?: object } }).requestedSchema?.properties;
      const content = fields !== undefined && 'decision' in fields ? { decision: 'allow_once' } : { reviewer };
      return Promise.resolve({ action: 'accept', content } as never);
    },
  });
  closers.push(() => session.close());
  return { client, tap, session, asked };
}

describe.each(Object.keys(transports))('airlock gateway serves the 2026-07-28 tasks extension over %s', (name) => {
  it('declares it, answers a task call with a handle, and serves its status and result', async () => {
    const server = await reviews({ completeAfterPolls: 3, pollIntervalMs: 200 });
    const { client, session } = await modernSession(await transports[name]!(workspace({ reviews: server.url })));
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getServerCapabilities()?.extensions).toEqual({ [TASKS_EXTENSION]: {} });

    const execution = await session.callTool(REVIEW, { topic: 'tide pools' });
    expect(execution.kind).toBe('task');
    const seen: { status: string; ttl: number | null; pollInterval?: number }[] = [];
    const { outcome } = await execution.settle({
      onEvent: (event) => void (event.type === 'task' ? seen.push(event.task) : undefined),
    });
    const result = resultFromTaskOutcome(outcome) as { content: { text: string }[] };
    expect(result.content[0]!.text).toContain('Report on tide pools: all sources read.');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((task) => task.pollInterval === 200)).toBe(true);
    // The fixture keeps each task an hour: the host keeps the 2026 server's ttlMs and the gateway reports it.
    expect(seen.every((task) => task.ttl === 3_600_000)).toBe(true);
    expect(server.created).toHaveLength(1);
  });

  it("reports a task's ttl as its server gave it", async () => {
    const { session } = await modernSession(await transports[name]!(workspace({ everything: true })));
    const execution = await session.callTool(RESEARCH, { topic: 'lifetimes' });
    expect(execution.kind).toBe('task');
    const { outcome, lastTask } = await execution.settle();
    expect(lastTask?.ttl).toBe(EVERYTHING_TTL_MS);
    expect(JSON.stringify(resultFromTaskOutcome(outcome))).toContain('Research Report: lifetimes');
  });

  it("asks the client the task's own question with input_required, and tasks/update takes the answer", async () => {
    const server = await reviews({ askReviewer: true, pollIntervalMs: 100 });
    const { session, asked } = await modernSession(await transports[name]!(workspace({ reviews: server.url })), 'Lin');
    const execution = await session.callTool(REVIEW, { topic: 'kelp' });
    expect(execution.kind).toBe('task');
    const { outcome } = await execution.settle();
    expect(JSON.stringify(resultFromTaskOutcome(outcome))).toContain('Report on kelp, reviewed by Lin.');
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(asked[0])).toContain('Who reviews the report?');
    expect(server.updates).toHaveLength(1);
  });

  it('asks for consent on the call itself (input_required), then answers the retry with the task handle', async () => {
    const server = await reviews({ completeAfterPolls: 2, pollIntervalMs: 100 });
    const args = workspace({ reviews: server.url, ask: true });
    const { session, asked } = await modernSession(await transports[name]!(args));
    const execution = await session.callTool(REVIEW, { topic: 'consent' });
    expect(execution.kind).toBe('task');
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(asked[0])).toMatch(/reviews__reviewed_report[\s\S]*decision/);
    expect(server.created).toHaveLength(1);
    const { outcome } = await execution.settle();
    expect(JSON.stringify(resultFromTaskOutcome(outcome))).toContain('Report on consent: all sources read.');
  });

  it('passes tasks/cancel on to the server', async () => {
    const server = await reviews({ pollIntervalMs: 100 });
    const { session, tap } = await modernSession(await transports[name]!(workspace({ reviews: server.url })));
    const execution = await session.callTool(REVIEW, { topic: 'to be dropped' });
    expect(execution.kind).toBe('task');
    const taskId = execution.kind === 'task' ? execution.handle.taskId : '';
    await execution.cancel();
    expect(await server.taskCancelled()).toBe(server.created[0]);
    const get = () => tap.dispatch({ method: 'tasks/get', params: { taskId, _meta: META } });
    await expect.poll(get).toMatchObject({ kind: 'result', result: { taskId, status: 'cancelled' } });
  });

  it('waits for the task and answers the call for a client that does not declare the extension', async () => {
    const server = await reviews({ completeAfterPolls: 2, pollIntervalMs: 100 });
    const client = new Client({ name: 'plain', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(await transports[name]!(workspace({ reviews: server.url })));
    closers.push(() => client.close());
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const result = await client.callTool({ name: REVIEW, arguments: { topic: 'waiting' } });
    expect(JSON.stringify(result.content)).toContain('Report on waiting: all sources read.');
    await expect(
      client.request({ method: 'tasks/get', params: { taskId: 'x:y' } } as never, {
        '~standard': { version: 1, vendor: 't', validate: (value: unknown) => ({ value }) },
      }),
    ).rejects.toMatchObject({ code: -32021 });
  });
});

describe('airlock gateway: 2026-07-28 task ids over HTTP', () => {
  it("refuses another user's task id as not found, and serves it to its own user", async () => {
    const server = await reviews({ pollIntervalMs: 100 });
    const args = workspace({ reviews: server.url });
    const url = await httpGateway(args);
    const http = (token: string) =>
      new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } });
    const grace = await modernSession(http(GRACE));
    const execution = await grace.session.callTool(REVIEW, { topic: 'private' });
    expect(execution.kind).toBe('task');
    const taskId = execution.kind === 'task' ? execution.handle.taskId : '';

    const hopper = await modernSession(http(HOPPER));
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update']) {
      const params = { taskId, ...(method === 'tasks/update' ? { inputResponses: {} } : {}), _meta: META };
      expect(await hopper.tap.dispatch({ method, params })).toMatchObject({ kind: 'error', error: { code: -32602 } });
    }
    expect(server.cancels).toEqual([]);
    expect(await grace.tap.dispatch({ method: 'tasks/get', params: { taskId, _meta: META } })).toMatchObject({
      kind: 'result',
      result: { taskId, status: 'working', pollIntervalMs: 100 },
    });
    server.finish();
    const { outcome } = await execution.settle();
    expect(JSON.stringify(resultFromTaskOutcome(outcome))).toContain('Report on private: all sources read.');
  });

  it('finds a task again after the gateway is killed and started on the same store, and serves its end', async () => {
    const server = await reviews({ pollIntervalMs: 100 });
    const args = workspace({ reviews: server.url });
    const http = (url: URL) =>
      new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${GRACE}` } } });
    const before = await modernSession(http(await httpGateway(args)));
    const execution = await before.session.callTool(REVIEW, { topic: 'restarts' });
    expect(execution.kind).toBe('task');
    const taskId = execution.kind === 'task' ? execution.handle.taskId : '';
    await execution.detach();
    // A crash: the host finds the open task in its store at start and follows it again.
    const first = gateways.pop()!;
    first.kill('SIGKILL');
    await once(first, 'exit');

    const after = await modernSession(http(await httpGateway(args)));
    expect(await after.tap.dispatch({ method: 'tasks/get', params: { taskId, _meta: META } })).toMatchObject({
      kind: 'result',
      result: { taskId, status: 'working' },
    });
    server.finish();
    const get = () => after.tap.dispatch({ method: 'tasks/get', params: { taskId, _meta: META } });
    await expect.poll(get, { timeout: 15_000 }).toMatchObject({ kind: 'result', result: { status: 'completed' } });
    expect(JSON.stringify(await get())).toContain('Report on restarts: all sources read.');
    expect(server.created).toHaveLength(1);
  });
});

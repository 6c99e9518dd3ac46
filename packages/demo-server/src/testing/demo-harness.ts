// Test-only helpers (excluded from the build): spawn the BUILT demo server and talk to it as a host would.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, watch } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ClientCapabilities, JSONRPCResponse, ListChangedHandlers } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** The built bin, resolved from this file: the tests exercise what ships, not the sources. */
export const DEMO_BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
if (!existsSync(DEMO_BIN)) throw new Error(`${DEMO_BIN} is missing: run "npx tsc -b packages/demo-server" first`);

/** How a client picks its era: `legacy` speaks 2025-11-25, `auto` probes and lands on 2026-07-28. */
export type Negotiation = 'legacy' | 'auto';

/** Every tool the demo serves; the host's tests depend on these names. */
export const TOOL_NAMES = [
  'echo',
  'search_notes',
  'write_note',
  'delete_note',
  'run_command',
  'fetch_url',
  'rich_content',
  'huge_output',
  'slow_task',
  'hang',
  'fail_tool',
  'protocol_error',
  'bad_structured',
  'ask_user',
  'connect_account',
  'ask_briefly',
  'connect_required',
  'show_dashboard',
  'app_refresh',
  'model_summary',
  'shape_shifter',
  'change_definition',
  'stats',
  'crash',
] as const;

/** What `--legacy-forms` adds: the deprecated `_meta` forms a host must still read. */
export const LEGACY_FORM_TOOL_NAMES = ['legacy_view', 'old_app_tool'] as const;

const cleanups: (() => Promise<unknown>)[] = [];
const logDirs: string[] = [];

/**
 * Closes every client and child process the helpers opened, then removes the call logs' directories (after: a server
 * still running would write its log again); call it from afterEach.
 */
export async function closeAll(): Promise<void> {
  const pending = cleanups.splice(0).reverse();
  await Promise.allSettled(pending.map((close) => close()));
  await Promise.allSettled(logDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** A fresh, empty call-log path in its own directory (so watching the directory sees only this log). */
export function freshLogPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-demo-test-'));
  logDirs.push(dir);
  return join(dir, 'calls.ndjson');
}

/** A line of the call log. */
export interface LogLine {
  event: string;
  tool: string;
  args?: unknown;
}

/** Every line of a call log so far. */
export function readCallLog(path: string): LogLine[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LogLine);
}

/** Resolves once the call log holds a matching line, woken by file-system events rather than polling. */
export function waitForLogLine(path: string, match: (line: LogLine) => boolean, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const found = () => readCallLog(path).some(match);
    // Watch first, then look: a line written between a first look and the watch would otherwise go unseen.
    const watcher = watch(dirname(path), () => {
      if (found()) finish();
    });
    const timer = setTimeout(() => {
      watcher.close();
      reject(new Error(`no matching line in ${path} within ${timeoutMs} ms: ${JSON.stringify(readCallLog(path))}`));
    }, timeoutMs);
    function finish() {
      clearTimeout(timer);
      watcher.close();
      resolve();
    }
    if (found()) finish();
  });
}

/** What a test client declares and how it negotiates. */
export interface TestClientOptions {
  negotiation: Negotiation;
  capabilities?: ClientCapabilities;
  listChanged?: ListChangedHandlers;
}

/**
 * The v2 client, with one fix: it handles a response one microtask later.
 *
 * The SDK client (2.4.0) dispatches notifications on a microtask but responses synchronously, so when the last
 * `notifications/progress` and the response arrive in one read (the server writes them back to back), the response
 * drops the progress handler first and that progress is lost ("unknown token"). Deferring the response queues it
 * behind the notification.
 */
export class OrderedClient extends Client {
  protected override _onresponse(response: JSONRPCResponse): void {
    queueMicrotask(() => super._onresponse(response));
  }
}

function newClient(options: TestClientOptions): Client {
  return new OrderedClient(
    { name: 'demo-server-tests', version: '0.0.0' },
    {
      capabilities: options.capabilities ?? {},
      versionNegotiation: { mode: options.negotiation },
      ...(options.listChanged !== undefined && { listChanged: options.listChanged }),
    },
  );
}

/** Spawns `node dist/bin.js ARGS` over stdio and connects a v2 client to it. */
export async function connectStdio(
  options: TestClientOptions & { args?: string[]; log?: string },
): Promise<{ client: Client; transport: StdioClientTransport }> {
  const client = newClient(options);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [DEMO_BIN, ...(options.args ?? [])],
    env: { ...getDefaultEnvironment(), ...(options.log !== undefined && { AIRLOCK_DEMO_CALL_LOG: options.log }) },
    stderr: 'inherit',
  });
  cleanups.push(() => client.close());
  await client.connect(transport);
  return { client, transport };
}

/** Spawns `node dist/bin.js --http ARGS` and resolves with the URL it prints once it listens. */
export async function startHttpServer(options: { args?: string[]; log?: string } = {}): Promise<{
  url: URL;
  /** Everything the server wrote to stderr so far. */
  stderr: () => string;
  child: ChildProcessWithoutNullStreams;
}> {
  const child = spawn(process.execPath, [DEMO_BIN, '--http', ...(options.args ?? [])], {
    env: { ...process.env, ...(options.log !== undefined && { AIRLOCK_DEMO_CALL_LOG: options.log }) },
  });
  cleanups.push(() => stopChild(child));
  let stderr = '';
  const line = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const [first, rest] = stderr.split('\n', 2);
      if (rest !== undefined && first !== undefined) resolve(first);
    });
    child.once('exit', (code) => reject(new Error(`the HTTP demo server exited with ${code}: ${stderr}`)));
  });
  const url = /^listening (\S+)$/.exec(line)?.[1];
  if (url === undefined) throw new Error(`unexpected first stderr line: ${line}`);
  return { url: new URL(url), stderr: () => stderr, child };
}

/** Connects a v2 client over Streamable HTTP. */
export async function connectHttp(url: URL, options: TestClientOptions): Promise<Client> {
  const client = newClient(options);
  cleanups.push(() => client.close());
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

/** Resolves with the exit code once the child has exited. */
export function exitCode(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function stopChild(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = exitCode(child);
  child.kill();
  await exited;
}

/** A JSON-RPC response as it came over the wire. */
export interface WireResponse {
  id: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * A raw 2025-11-25 client over stdio, no SDK in the way: it proves what the server actually wrote on the wire
 * (a client SDK may validate, wrap or reject what it receives).
 */
export class RawStdioPeer {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every notification received so far, in wire order. */
  readonly notifications: { method: string; params?: Record<string, unknown> }[] = [];
  readonly #waiting = new Map<number, (response: WireResponse) => void>();
  #nextId = 1;

  constructor(options: { args?: string[]; log?: string } = {}) {
    this.child = spawn(process.execPath, [DEMO_BIN, ...(options.args ?? [])], {
      env: { ...process.env, ...(options.log !== undefined && { AIRLOCK_DEMO_CALL_LOG: options.log }) },
    });
    cleanups.push(() => stopChild(this.child));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as Partial<WireResponse> & { method?: string; params?: Record<string, unknown> };
      if (message.method !== undefined && message.id === undefined) {
        this.notifications.push({
          method: message.method,
          ...(message.params !== undefined && { params: message.params }),
        });
      }
      if (typeof message.id !== 'number') return;
      this.#waiting.get(message.id)?.(message as WireResponse);
      this.#waiting.delete(message.id);
    });
  }

  /** Sends a request and resolves with its response, whatever it is. */
  request(method: string, params: Record<string, unknown> = {}): Promise<WireResponse> {
    const id = this.#nextId++;
    const response = new Promise<WireResponse>((resolve) => this.#waiting.set(id, resolve));
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return response;
  }

  /** The 2025 handshake: initialize, then notifications/initialized. */
  async initialize(): Promise<WireResponse> {
    const response = await this.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw-peer', version: '0.0.0' },
    });
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    return response;
  }
}

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { parseJSONRPCMessage, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, JSONRPCRequest, Transport } from '@modelcontextprotocol/client';
import { DirectRequests } from '../mcp-client/direct-requests.js';
import type { DirectHandlers, DirectTransport } from '../mcp-client/direct-requests.js';
import { plainJsonRpcMessage } from './json-rpc-check.js';
import { readMessageHead } from './json-rpc-head.js';
import { LineReader } from './line-reader.js';
import type { OversizeLine } from './line-reader.js';
import { describeRefusal, makeRefusal, previewOf, StreamFault } from './stream-fault.js';
import type { MessageRefusal } from './stream-fault.js';

/**
 * How to start a stdio server: the fields of the SDK's `StdioServerParameters` this transport uses, kept as given so
 * the SDK's version negotiation can start a throwaway sibling from them (see {@link StdioTransport}).
 */
export interface StdioTransportParams {
  readonly command: string;
  readonly args: readonly string[];
  /** The whole environment of the process (the caller adds `getDefaultEnvironment()`). */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** `pipe` (the default) exposes stderr through `stderr`; the SDK's probe sibling asks for `ignore`. */
  readonly stderr?: 'pipe' | 'ignore';
  /** The largest message accepted, in bytes: `limits.maxMessageBytes`. */
  readonly maxBufferSize: number;
}

/** How long a closing server gets after end of input, and then after SIGTERM, before the next step. */
const CLOSE_GRACE_MS = 2_000;
/** How much of a server's stderr is kept for failure messages. */
const STDERR_TAIL_CHARS = 2_000;

/**
 * The stdio transport the host's client speaks through, in place of the SDK's `StdioClientTransport`, which skips a
 * line that is not JSON without a word (a server that prints garbage mid-call left the call to its idle timeout) and
 * buffers a message whole before it looks at its size (see {@link LineReader}).
 *
 * - A line that is not a JSON-RPC message, once the server has sent its first message, is a protocol fault: the
 *   transport reports a fatal {@link StreamFault} quoting the line, stops the process and closes at once, so every
 *   call in flight fails now and the owner reconnects. Lines before the first message are reported and skipped:
 *   servers that print a banner on stdout still start.
 * - A message over `maxBufferSize` is refused the moment it passes the cap, without holding it: the request it answers
 *   (by its id, or the only request in flight) gets a JSON-RPC error carrying a {@link MessageRefusal}; when neither
 *   tells, every request in flight does. The stream goes on after the message's newline.
 *
 * It spawns as the SDK does (no shell, the given environment only). It keeps the shape the SDK's version negotiation
 * looks for (`stderr` and `pid`, `_serverParams`, an own `_dispose`), so `negotiation: 'auto'` probes on a throwaway
 * sibling process as with the SDK's transport. Not the SDK's `cross-spawn`: on Windows a `.cmd` shim must be named
 * with its extension.
 */
export class StdioTransport implements Transport, DirectTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Read by the SDK's negotiation to start a probe sibling; the same object this transport was built with. */
  readonly _serverParams: StdioTransportParams;
  readonly #stderr: PassThrough | null;
  readonly #reader: LineReader;
  /** Requests sent and not yet answered: id to method. */
  readonly #pending = new Map<string | number, string>();
  /** Requests sent directly (`sendDirect`) and not answered yet. */
  readonly #direct = new DirectRequests();
  /** Requests already failed by a refusal; their late answers are dropped. */
  readonly #refused = new Set<string | number>();
  #process: ChildProcess | undefined;
  #startedPid: number | undefined;
  /** The process started, kept after it ends: `kill` signals it through Node, never by a pid that may be reused. */
  #started: ChildProcess | undefined;
  /** One decoder for the whole stream, so a character split across two chunks is not garbled. */
  readonly #stderrDecoder = new StringDecoder('utf8');
  #stderrTail = '';
  #spoke = false;
  #closed = false;

  constructor(params: StdioTransportParams) {
    this._serverParams = params;
    this.#stderr = params.stderr === 'ignore' ? null : new PassThrough();
    this.#stderr?.on('data', (chunk: Buffer) => {
      this.#stderrTail = (this.#stderrTail + this.#stderrDecoder.write(chunk)).slice(-STDERR_TAIL_CHARS);
    });
    this.#reader = new LineReader({
      maxLineBytes: params.maxBufferSize,
      onLine: (line) => this.#onLine(line),
      onOversize: (line) => this.#onOversize(line),
    });
  }

  /** The server's stderr, readable before `start` so no early output is lost; null when it is ignored. */
  get stderr(): PassThrough | null {
    return this.#stderr;
  }

  /** The server's process id, once started. */
  get pid(): number | null {
    return this.#process?.pid ?? null;
  }

  /** The pid the process started with, kept once closed: a failed connect stops the process by it. */
  get startedPid(): number | undefined {
    return this.#startedPid;
  }

  /** The last 2,000 characters the server wrote to stderr, for failure messages. */
  get stderrTail(): string {
    return this.#stderrTail;
  }

  start(): Promise<void> {
    if (this.#process !== undefined) throw new Error('StdioTransport already started');
    const params = this._serverParams;
    return new Promise((resolve, reject) => {
      const child = spawn(params.command, [...params.args], {
        env: { ...params.env },
        stdio: ['pipe', 'pipe', this.#stderr === null ? 'ignore' : 'pipe'],
        shell: false,
        windowsHide: true,
        ...(params.cwd === undefined ? {} : { cwd: params.cwd }),
      });
      this.#process = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => {
        this.#startedPid = child.pid;
        this.#started = child;
        resolve();
      });
      child.on('close', () => {
        if (this.#process === child) this.#ended();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        if (this.#process === child) this.#reader.push(chunk);
      });
      child.stdout?.on('error', (error) => this.onerror?.(error));
      if (this.#stderr !== null) child.stderr?.pipe(this.#stderr);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#process?.stdin;
    if (stdin === undefined || stdin === null || this.#closed) {
      return Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'));
    }
    if ('method' in message) {
      if ('id' in message) this.#pending.set(message.id, message.method);
      else if (message.method === 'notifications/cancelled') {
        const id = (message.params as { requestId?: string | number } | undefined)?.requestId;
        if (id !== undefined) this.#pending.delete(id);
      }
    }
    return new Promise((resolve) => {
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /**
   * Sends a request whose answer and progress notifications (its id as their token) go to `handlers` instead of the
   * client: the host's own `tools/call` (direct-tool-call.ts). Everything else about the stream is as for `send`.
   */
  sendDirect(
    build: (id: number) => JSONRPCRequest,
    handlers: DirectHandlers,
  ): { readonly id: number; readonly sent: Promise<void> } | undefined {
    const id = this.#direct.open(handlers);
    if (id === undefined) return undefined;
    const sent = this.send(build(id));
    sent.catch(() => this.#direct.take(id));
    return { id, sent };
  }

  /**
   * Stops waiting for a direct request's answer and tells the server, as the SDK cancels its own requests: an answer
   * already read in the same turn is dropped quietly (the SDK's handler stays until its request settles), a later one
   * goes to the client as an unknown id, and a cancel that cannot be sent is reported.
   */
  cancelDirect(id: number, reason: string): void {
    if (!this.#direct.quiet(id)) return;
    queueMicrotask(() => this.#direct.take(id));
    this.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } }).catch(
      (error: unknown) => this.onerror?.(new Error(`Failed to send cancellation: ${String(error)}`)),
    );
  }

  /** Ends input, then waits for the process to leave (SIGTERM, then SIGKILL, after a grace each). */
  async close(): Promise<void> {
    const child = this.#process;
    this.#ended();
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    try {
      child.stdin?.end();
    } catch {
      // the pipe is already gone
    }
    if (await within(exited, CLOSE_GRACE_MS)) return;
    signal(child, 'SIGTERM');
    if (await within(exited, CLOSE_GRACE_MS)) return;
    signal(child, 'SIGKILL');
  }

  /** Sends SIGTERM to the process now (a server that failed to connect), without waiting for it. */
  kill(): void {
    try {
      // A no-op once Node has seen the process exit, so a reused pid is never signalled.
      this.#started?.kill('SIGTERM');
    } catch {
      // already gone
    }
  }

  /** Stops a probe sibling at once (the SDK's negotiation calls it, with no close event wanted). */
  async _dispose(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    this.#closed = true;
    this.#reader.clear();
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    signal(child, 'SIGTERM');
    if (!(await within(exited, CLOSE_GRACE_MS))) signal(child, 'SIGKILL');
  }

  #onLine(line: string): void {
    // Blank lines are harmless padding; only a short line is checked (trimming a long one would copy it).
    if (this.#closed || (line.length < 16 && line.trim() === '')) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.#fault(`wrote a line that is not JSON to stdout: ${previewOf(line)}`);
      return;
    }
    let message: JSONRPCMessage;
    try {
      // The common shapes are checked by hand (json-rpc-check.ts); anything else goes through the SDK's schema.
      message = plainJsonRpcMessage(value) ?? parseJSONRPCMessage(value);
    } catch {
      this.#fault(`wrote JSON that is not a JSON-RPC message to stdout: ${previewOf(line)}`);
      return;
    }
    this.#spoke = true;
    if ('method' in message) {
      if (message.method === 'notifications/progress' && this.#progressed(message.params)) return;
    } else if (message.id !== undefined) {
      if (this.#refused.delete(message.id)) return;
      this.#pending.delete(message.id);
    }
    this.#deliver(message);
  }

  /** Hands a message to the direct request it answers, or else to the client. */
  #deliver(message: JSONRPCMessage): void {
    const direct = 'method' in message ? undefined : this.#direct.take(message.id);
    if (direct === undefined) this.onmessage?.(message);
    else this.#guard('response', () => direct.answer(message as Parameters<DirectHandlers['answer']>[0]));
  }

  /** Runs a direct request's handler; what it throws is reported as the SDK reports its handlers', never raised here. */
  #guard(what: string, run: () => void): void {
    try {
      run();
    } catch (error) {
      this.onerror?.(new Error(`Uncaught error in ${what} handler: ${String(error)}`));
    }
  }

  /**
   * True when a progress notification went to the direct request whose id is its token. One whose params the wire
   * schema would refuse goes to the client, which reports it as it always has.
   */
  #progressed(params: unknown): boolean {
    const p = params as Record<string, unknown> | undefined;
    const direct = this.#direct.find(p?.['progressToken']);
    if (direct === undefined || p === undefined) return false;
    const { progressToken: _token, ...rest } = p;
    const { progress, total, message } = rest;
    // The wire schema's numbers are finite (JSON's 1e999 parses to Infinity): anything else is the client's to refuse.
    if (!Number.isFinite(progress) || !(total === undefined || Number.isFinite(total))) return false;
    if (!(message === undefined || typeof message === 'string')) return false;
    this.#guard('notification', () => direct.progress(rest));
    return true;
  }

  #onOversize(line: OversizeLine): void {
    if (this.#closed) return;
    const head = readMessageHead(line.head);
    if (head.shape === 'not_json') {
      this.#fault(`wrote a line that is not JSON to stdout: ${previewOf(line.head)} (${line.bytes}+ bytes)`);
      return;
    }
    const cap = this._serverParams.maxBufferSize;
    if (head.shape === 'request') {
      this.onerror?.(
        new StreamFault(
          'too_large',
          `sent a request of ${line.bytes}+ bytes, over the ${cap}-byte cap: dropped`,
          false,
        ),
      );
      return;
    }
    const known = head.id !== undefined && this.#pending.has(head.id);
    const only = this.#pending.size === 1 ? [...this.#pending.keys()] : undefined;
    const ids = known ? [head.id] : (only ?? [...this.#pending.keys()]);
    const matched = known ? 'by_id' : only !== undefined ? 'only_request' : 'all_in_flight';
    for (const id of ids) {
      const refusal = makeRefusal({ method: this.#pending.get(id), bytes: line.bytes, cap, matched });
      this.#pending.delete(id);
      // Which request the refused message answered is unknown: the others' late answers are dropped when they come.
      if (matched === 'all_in_flight') this.#refused.add(id);
      this.#answer(id, refusal);
    }
    if (ids.length === 0) {
      this.onerror?.(
        new StreamFault(
          'too_large',
          `sent ${line.bytes}+ bytes, over the ${cap}-byte cap, that answered no request`,
          false,
        ),
      );
    }
  }

  #answer(id: string | number, refusal: MessageRefusal): void {
    this.#deliver({ jsonrpc: '2.0', id, error: { code: -32603, message: describeRefusal(refusal), data: refusal } });
  }

  /**
   * A line that is not JSON-RPC. Before the server's first message it is reported and skipped (a banner); after it,
   * the stream cannot be trusted: report, stop the process, and close now so calls in flight fail at once.
   */
  #fault(message: string): void {
    if (!this.#spoke) {
      this.onerror?.(new StreamFault('not_json_rpc', `${message} (skipped: the server has not spoken yet)`, false));
      return;
    }
    const child = this.#process;
    this.onerror?.(new StreamFault('not_json_rpc', message, true));
    this.#ended();
    if (child !== undefined) {
      signal(child, 'SIGTERM');
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      void within(exited, CLOSE_GRACE_MS).then((gone) => {
        if (!gone) signal(child, 'SIGKILL');
      });
    }
  }

  /** Closes this transport once: later output and the process's own close are ignored. */
  #ended(): void {
    if (this.#closed && this.#process === undefined) return;
    this.#process = undefined;
    this.#closed = true;
    this.#reader.clear();
    this.#pending.clear();
    this.#refused.clear();
    try {
      this.onclose?.();
    } finally {
      // After the client's own close, as the SDK fails its requests: each direct request in flight fails too.
      for (const direct of this.#direct.takeAll()) direct.closed();
    }
  }
}

function signal(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    child.kill(name);
  } catch {
    // already gone
  }
}

/** Whether `done` settles within `ms` (a real, unreferenced timer: process teardown is not the host's time). */
function within(done: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    timer.unref();
    void done.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

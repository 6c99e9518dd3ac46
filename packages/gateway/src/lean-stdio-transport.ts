import type { Readable, Writable } from 'node:stream';
import { parseJSONRPCMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/server';
import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/server';

/**
 * The gateway's stdio server transport: newline-delimited JSON-RPC on stdin and stdout, as the SDK's
 * `StdioServerTransport` reads and writes it (a line that is not JSON is skipped, one that is not a JSON-RPC message
 * is reported; more than 10 MB without a newline closes the transport; stdin's end closes it), minus the schema
 * parse of the hot messages: a `tools/call` or `tools/list` request and a cancellation are checked by hand for the
 * JSON-RPC shape, since the gateway's fast path reads their params itself and the SDK server checks them again when
 * they reach it. Every other message gets the SDK's full check.
 */
export class LeanStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly #stdin: Readable;
  readonly #stdout: Writable;
  #pending: Buffer | undefined;
  #started = false;
  #closed = false;

  constructor(stdin: Readable = process.stdin, stdout: Writable = process.stdout) {
    this.#stdin = stdin;
    this.#stdout = stdout;
  }

  start(): Promise<void> {
    if (this.#started) return Promise.reject(new Error('LeanStdioTransport already started'));
    this.#started = true;
    if (this.#stdin.readableEnded || this.#stdin.destroyed) setImmediate(this.#onEnd);
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('error', this.#onError);
    this.#stdin.on('end', this.#onEnd);
    this.#stdin.on('close', this.#onEnd);
    this.#stdout.on('error', this.#onOutputError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('LeanStdioTransport is closed'));
    if (this.#stdout.write(`${JSON.stringify(message)}\n`)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const settle = (error?: Error) => {
        this.#stdout.off('drain', settle);
        this.#stdout.off('error', settle);
        if (error === undefined) resolve();
        else reject(error);
      };
      this.#stdout.once('drain', settle);
      this.#stdout.once('error', settle);
    });
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('error', this.#onError);
    this.#stdin.off('end', this.#onEnd);
    this.#stdin.off('close', this.#onEnd);
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
    this.#pending = undefined;
    this.onclose?.();
    return Promise.resolve();
  }

  readonly #onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let buffer = this.#pending === undefined ? bytes : Buffer.concat([this.#pending, bytes]);
    let newline = buffer.indexOf(10);
    while (newline !== -1) {
      const end = newline > 0 && buffer[newline - 1] === 13 ? newline - 1 : newline;
      this.#line(buffer.toString('utf8', 0, end));
      if (this.#closed) return;
      buffer = buffer.subarray(newline + 1);
      newline = buffer.indexOf(10);
    }
    if (buffer.length > STDIO_DEFAULT_MAX_BUFFER_SIZE) {
      this.#pending = undefined;
      this.onerror?.(new Error(`ReadBuffer exceeded maximum size of ${STDIO_DEFAULT_MAX_BUFFER_SIZE} bytes`));
      void this.close();
      return;
    }
    this.#pending = buffer.length === 0 ? undefined : buffer;
  };

  #line(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return; // not JSON: skipped, as the SDK's reader does
    }
    let message: JSONRPCMessage;
    try {
      message = isHotMessage(value) ? value : parseJSONRPCMessage(value);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.onmessage?.(message);
  }

  readonly #onError = (error: Error): void => this.onerror?.(error);

  readonly #onOutputError = (error: Error): void => {
    if (this.#closed) return;
    this.onerror?.(error);
    void this.close();
  };

  readonly #onEnd = (): void => void this.close();
}

/** A `tools/call` or `tools/list` request, or a cancellation, in the JSON-RPC shape the SDK's schema asks for. */
function isHotMessage(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null) return false;
  const { jsonrpc, id, method, params } = value as Record<string, unknown>;
  if (jsonrpc !== '2.0') return false;
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) return false;
  if (method === 'notifications/cancelled') return id === undefined;
  if (method !== 'tools/call' && method !== 'tools/list') return false;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
}

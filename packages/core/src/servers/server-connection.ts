import { Client, ProtocolError, SdkError } from '@modelcontextprotocol/client';
import type {
  CallToolResult,
  ClientCapabilities,
  JSONRPCResponse,
  Tool as McpToolDefinition,
  Transport,
} from '@modelcontextprotocol/client';
import type { Clock } from '../clock.js';
import { HostError } from '../errors/host-error.js';
import type { ServerConfig } from './server-config.js';
import { serverIdentity } from './server-config.js';
import type { ServerState } from './server-state.js';
import { serverTransition } from './server-state.js';
import type { ToolProgress } from '../tools/tool.js';

/** Connection tuning; every field has a default that suits a desktop host. */
export interface ConnectionLimits {
  /** How long connecting (spawn, handshake, first tools/list) may take. Default 20 s. */
  readonly connectTimeoutMs: number;
  /** Largest single message accepted from a stdio server. Default 72 MB (the 64 MB result cap plus framing). */
  readonly maxMessageBytes: number;
  /** First reconnect delay; doubles per attempt up to `reconnectMaxDelayMs`. Default 250 ms. */
  readonly reconnectBaseDelayMs: number;
  readonly reconnectMaxDelayMs: number;
  /** Reconnect attempts after a ready server is lost before it is marked failed. Default 6. */
  readonly reconnectAttempts: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  connectTimeoutMs: 20_000,
  maxMessageBytes: 72 * 1024 * 1024,
  reconnectBaseDelayMs: 250,
  reconnectMaxDelayMs: 10_000,
  reconnectAttempts: 6,
};

/** What a connection tells its owner. */
export interface ConnectionListener {
  state(state: ServerState, error?: string): void;
  tools(tools: readonly McpToolDefinition[]): void;
  warning(message: string): void;
}

/** Options of one `tools/call`. Timeouts are the pipeline's; the connection only forwards the signal. */
export interface ConnectionCallOptions {
  readonly signal: AbortSignal;
  readonly onProgress: (progress: ToolProgress) => void;
  /** The definition as listed (without its outputSchema), so the SDK needs no tools/list of its own. */
  readonly definition: McpToolDefinition;
}

/**
 * The v2 client handles notifications a microtask later than responses, so a progress notification sent just before
 * the result reaches a handler the result already removed: the last progress step is lost. Handling responses one
 * microtask later keeps the wire order.
 */
class OrderedClient extends Client {
  protected override _onresponse(response: JSONRPCResponse): void {
    queueMicrotask(() => super._onresponse(response));
  }
}

const STDERR_TAIL_CHARS = 2_000;
const URL_ELICITATION_REQUIRED = -32042;
const NO_SDK_TIMEOUT_MS = 2_147_483_647;

/**
 * One MCP server connection: connects with the v2 client (stdio or Streamable HTTP), lists every page of tools and
 * relists on list_changed, keeps a state with events, and reconnects with capped backoff when a ready server is lost.
 * A call in flight when the server dies fails at once (the SDK rejects pending requests on close).
 */
export class ServerConnection {
  readonly config: ServerConfig;
  readonly identity: string;
  #state: ServerState = 'connecting';
  #client: Client | undefined;
  #lastError: string | undefined;
  /** What the transport last reported before the connection closed (e.g. a message over the buffer limit). */
  #transportError: string | undefined;
  #stderrTail = '';
  /** The pid of the stdio server process, kept from its start: the SDK forgets it when a connect is aborted. */
  #childPid: number | undefined;
  /** Cancels the reconnect that waits for its backoff, if one does. */
  #cancelReconnect: (() => void) | undefined;
  #attempt = 0;
  #generation = 0;
  readonly #limits: ConnectionLimits;
  readonly #clock: Clock;
  readonly #listener: ConnectionListener;
  readonly #clientName: { name: string; version: string };
  readonly #capabilities: () => ClientCapabilities;
  readonly #configure: (client: Client) => void;
  readonly #onUrlRequired: ((elicitations: readonly unknown[], signal: AbortSignal) => Promise<boolean>) | undefined;

  constructor(options: {
    config: ServerConfig;
    limits?: Partial<ConnectionLimits>;
    /** The host's clock: the connect timeout and the reconnect backoff wait on it. */
    clock: Clock;
    listener: ConnectionListener;
    clientInfo?: { name: string; version: string };
    /** What the client declares, read at each (re)connect: elicitation only while a surface can answer. */
    capabilities?: () => ClientCapabilities;
    /** Installs request and notification handlers (elicitation) on each new client. */
    configure?: (client: Client) => void;
    /**
     * A call refused with -32042 (URL elicitation required): show the URLs, wait for completion; true means retry.
     */
    onUrlElicitationRequired?: (elicitations: readonly unknown[], signal: AbortSignal) => Promise<boolean>;
  }) {
    this.#onUrlRequired = options.onUrlElicitationRequired;
    this.#capabilities = options.capabilities ?? (() => ({}));
    this.#configure = options.configure ?? (() => undefined);
    this.config = options.config;
    this.identity = serverIdentity(options.config);
    this.#limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.limits };
    this.#clock = options.clock;
    this.#listener = options.listener;
    this.#clientName = options.clientInfo ?? { name: 'airlock', version: '0.1.0' };
  }

  get state(): ServerState {
    return this.#state;
  }

  /** The last error this connection met, for display (stderr tail included for stdio servers). */
  get lastError(): string | undefined {
    return this.#lastError;
  }

  /** The protocol version the server agreed to, once ready. */
  get protocolVersion(): string | undefined {
    return this.#client?.getNegotiatedProtocolVersion?.();
  }

  /**
   * True when a question the server asks during a call can arrive in that call's async context: the 2026 era's
   * rounds retry the call's own request, and over HTTP a 2025 question comes on the call's own response stream. Over
   * stdio a 2025 question is a request of its own, read from the pipe with no link to any call.
   */
  get questionsInCallContext(): boolean {
    return this.config.transport === 'http' || this.#client?.getProtocolEra() === 'modern';
  }

  /** First connection. Resolves when the server is ready or has failed; never rejects. */
  async start(): Promise<void> {
    await this.#connect();
  }

  async #connect(): Promise<void> {
    const generation = ++this.#generation;
    if (this.#state !== 'connecting') this.#setState('connecting');
    const client = new OrderedClient(this.#clientName, {
      capabilities: this.#capabilities(),
      versionNegotiation: { mode: this.config.negotiation ?? 'legacy' },
      listChanged: {
        tools: {
          onChanged: (error, tools) => {
            if (generation !== this.#generation) return;
            if (error) this.#listener.warning(`server "${this.config.id}": refreshing tools failed: ${error.message}`);
            else if (tools) this.#listener.tools(tools);
          },
        },
      },
    });
    this.#configure(client);
    client.onerror = (error) => {
      if (generation !== this.#generation) return;
      this.#lastError = error.message;
      this.#transportError = error.message;
      this.#listener.warning(`server "${this.config.id}": ${error.message}`);
    };
    client.onclose = () => {
      if (generation !== this.#generation) return;
      this.#onLost();
    };
    // The connect timeout is on the host's clock alone: the SDK's own request timeouts are set out of reach.
    const timer = new AbortController();
    const cancelTimeout = this.#clock.setTimer(() => timer.abort(), this.#limits.connectTimeoutMs);
    let transport: Transport | undefined;
    try {
      transport = await this.#transport();
      await client.connect(transport, { signal: timer.signal, timeout: NO_SDK_TIMEOUT_MS });
      const { tools } = await client.listTools(undefined, { signal: timer.signal, timeout: NO_SDK_TIMEOUT_MS });
      if (generation !== this.#generation || this.#state === 'closed') {
        await client.close().catch(() => undefined);
        return;
      }
      this.#client = client;
      this.#attempt = 0;
      this.#transportError = undefined;
      this.#listener.tools(tools);
      this.#setState('ready');
    } catch (error) {
      // A server that failed to connect is misbehaving: stop its process now rather than after the SDK's polite
      // stdin-close grace period, which a process that ignores end-of-input would outlive if the host exits.
      if (this.#childPid !== undefined) killQuietly(this.#childPid);
      await client.close().catch(() => undefined);
      await transport?.close().catch(() => undefined);
      if (generation !== this.#generation || this.#state === 'closed') return;
      this.#lastError = this.#describeFailure(error, timer.signal.aborted);
      const retrying = this.#attempt > 0 && this.#attempt < this.#limits.reconnectAttempts;
      this.#setState(retrying ? 'degraded' : 'failed', this.#lastError);
      if (retrying) this.#scheduleReconnect();
    } finally {
      cancelTimeout();
    }
  }

  async #transport(): Promise<Transport> {
    const config = this.config;
    if (config.transport === 'http') {
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
      return new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: { ...config.headers } },
      });
    }
    const { StdioClientTransport, getDefaultEnvironment } = await import('@modelcontextprotocol/client/stdio');
    const transport = new StdioClientTransport({
      command: config.command,
      args: [...config.args],
      env: { ...getDefaultEnvironment(), ...config.env },
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
      stderr: 'pipe',
      maxBufferSize: this.#limits.maxMessageBytes,
    });
    this.#stderrTail = '';
    this.#childPid = undefined;
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      this.#childPid = transport.pid ?? undefined;
    };
    transport.stderr?.on('data', (chunk: Buffer) => {
      this.#stderrTail = (this.#stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    return transport;
  }

  #describeFailure(error: unknown, timedOut: boolean): string {
    const id = this.config.id;
    const stderr = this.#stderrTail.trim();
    const tail = stderr === '' ? '' : ` (stderr: ${stderr.split('\n').slice(-5).join(' | ')})`;
    if (timedOut) {
      const last = this.#lastError === undefined ? '' : `; last error: ${this.#lastError}`;
      return `server "${id}" did not answer within ${this.#limits.connectTimeoutMs} ms${last}${tail}`;
    }
    const message = error instanceof Error ? error.message : String(error);
    if (this.config.transport === 'stdio' && /ENOENT/.test(message)) {
      return `server "${id}": command not found: ${this.config.command}`;
    }
    return `server "${id}" failed to connect: ${message}${tail}`;
  }

  #onLost(): void {
    if (this.#state !== 'ready') return;
    this.#client = undefined;
    const stderr = this.#stderrTail.trim();
    const why = this.#transportError === undefined ? '' : ` after: ${this.#transportError}`;
    this.#lastError = `server "${this.config.id}" closed the connection${why}${stderr === '' ? '' : ` (stderr: ${stderr.split('\n').slice(-3).join(' | ')})`}`;
    this.#setState('degraded', this.#lastError);
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#attempt >= this.#limits.reconnectAttempts) {
      if (this.#state !== 'failed') this.#setState('failed', this.#lastError);
      return;
    }
    const delay = Math.min(this.#limits.reconnectMaxDelayMs, this.#limits.reconnectBaseDelayMs * 2 ** this.#attempt);
    this.#attempt += 1;
    this.#cancelReconnect = this.#clock.setTimer(() => {
      this.#cancelReconnect = undefined;
      void this.#connect();
    }, delay);
  }

  #stopReconnect(): void {
    this.#cancelReconnect?.();
    this.#cancelReconnect = undefined;
  }

  /** Starts a fresh connection now (a user's "retry" on a failed server). */
  async restart(): Promise<void> {
    if (this.#state === 'closed') throw new HostError('closed', `server "${this.config.id}" is closed`);
    this.#stopReconnect();
    const client = this.#client;
    this.#client = undefined;
    this.#attempt = 0;
    this.#generation += 1;
    await client?.close().catch(() => undefined);
    await this.#connect();
  }

  /**
   * Sends `tools/call`. Rejects with the SDK's `ProtocolError` (JSON-RPC error from the server) or `SdkError`
   * (connection closed, aborted), which the pipeline classifies.
   */
  callTool(
    name: string,
    args: Readonly<Record<string, unknown>>,
    options: ConnectionCallOptions,
  ): Promise<CallToolResult> {
    const client = this.#client;
    if (client === undefined || this.#state !== 'ready') {
      return Promise.reject(
        new HostError('server_unavailable', `server "${this.config.id}" is ${this.#state}; the call was not sent`, {
          data: { serverId: this.config.id, state: this.#state },
        }),
      );
    }
    const requestOptions = {
      signal: options.signal,
      onprogress: (p: { progress: number; total?: number; message?: string }) => options.onProgress(progressOf(p)),
      timeout: NO_SDK_TIMEOUT_MS,
    };
    const params = { name, arguments: args as Record<string, unknown> };
    // The legacy era needs nothing of callTool but the request itself: the host validates structuredContent on its
    // own (the definition it passes has no outputSchema), so it sends tools/call directly and saves callTool's extra
    // await on every call. The 2026 era goes through callTool, which mirrors declared arguments into headers.
    const send = (): Promise<CallToolResult> =>
      client.getProtocolEra() === 'modern'
        ? client.callTool(params, { ...requestOptions, toolDefinition: options.definition })
        : client.request({ method: 'tools/call', params }, requestOptions);
    return send().catch(async (error: unknown) => {
      // -32042: the server needs the user to complete URL flows first. Once they are done, the call is retried once.
      if (
        error instanceof ProtocolError &&
        error.code === URL_ELICITATION_REQUIRED &&
        this.#onUrlRequired !== undefined
      ) {
        const elicitations = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
        if (Array.isArray(elicitations) && (await this.#onUrlRequired(elicitations, options.signal))) {
          return send().catch((retryError: unknown) => {
            throw this.#named(retryError, options.signal);
          });
        }
      }
      throw this.#named(error, options.signal);
    });
  }

  /**
   * Names the server in a connection failure, and says why the connection broke when the transport told us (e.g. a
   * message over the buffer limit), so the card and the model see more than "Connection closed".
   */
  #named(error: unknown, signal: AbortSignal): unknown {
    if (!(error instanceof SdkError) || signal.aborted) return error;
    const last = this.#lastError !== undefined && this.#lastError !== error.message ? ` (${this.#lastError})` : '';
    return new SdkError(error.code, `server "${this.config.id}": ${error.message}${last}`, error.data, {
      cause: error,
    });
  }

  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#stopReconnect();
    this.#generation += 1;
    this.#setState('closed');
    const client = this.#client;
    this.#client = undefined;
    await client?.close().catch(() => undefined);
  }

  #setState(state: ServerState, error?: string): void {
    this.#state = serverTransition(this.#state, state);
    this.#listener.state(state, error);
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

function progressOf(p: { progress: number; total?: number; message?: string }): ToolProgress {
  return {
    progress: p.progress,
    ...(p.total === undefined ? {} : { total: p.total }),
    ...(p.message === undefined ? {} : { message: p.message }),
  };
}

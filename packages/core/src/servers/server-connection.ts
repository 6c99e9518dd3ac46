import type {
  CallToolResult,
  Client,
  ClientCapabilities,
  Tool as McpToolDefinition,
  Transport,
} from '@modelcontextprotocol/client';
import type { Clock } from '../clock.js';
import { HostError } from '../errors/host-error.js';
import { describeCallFailure, unavailableError } from './call-failure.js';
import type { ConnectionLimits } from './connection-limits.js';
import { DEFAULT_CONNECTION_LIMITS } from './connection-limits.js';
import { describeConnectFailure, describeSseFallback, httpStatusOf } from './connection-failure.js';
import type { HttpTransport } from './http-transport.js';
import { openTransport } from './open-transport.js';
import { traceMcpRequest } from '../otel/mcp-request-trace.js';
import { TaskExtensionClient } from '../tasks/task-extension-client.js';
import type { ServerConfig } from './server-config.js';
import { serverIdentity } from './server-config.js';
import type { ConnectionListener, ServerConnectionOptions } from './server-connection-options.js';
import type { ConnectionCallOptions } from '../mcp-client/connection-call-options.js';
import type { ServerState } from './server-state.js';
import { serverTransition } from './server-state.js';
import type { StdioTransport } from './stdio-transport.js';
import { StreamFault } from './stream-fault.js';
import { NO_SDK_TIMEOUT_MS } from '../mcp-client/tool-call-request.js';
import type { TaskEra } from '../store/invocation-task.js';
import { retryClient } from './call-retry.js';
import { offersTasks, sendCall } from '../tasks/task-call.js';
import { ReconnectSchedule } from './reconnect-schedule.js';
import { ServerLog } from './server-log.js';

/** How long `close()` waits for the server to answer the session DELETE. */
const SESSION_DELETE_TIMEOUT_MS = 2_000;

/**
 * One MCP server connection: connects with the v2 client (stdio or Streamable HTTP), lists every page of tools and
 * relists on list_changed, keeps a state with events, and reconnects with capped backoff on the host's clock when a
 * ready server is lost. A call fails at once when the server dies or its stdout stops being JSON-RPC, and while it
 * streams past the message cap. Over HTTP a forgotten session (404) is replaced and the call retried once (call-retry);
 * a 401 makes the server `needs_auth`; `close()` ends the session with DELETE. Task tools run as tasks (task-call).
 */
export class ServerConnection {
  readonly config: ServerConfig;
  readonly identity: string;
  #state: ServerState = 'connecting';
  #client: Client | undefined;
  #lastError: string | undefined;
  /** What the transport last reported before the connection closed (e.g. a line that is not JSON-RPC). */
  #transportError: string | undefined;
  /** The fatal stream fault each client met: what calls in flight on it are failed with. */
  readonly #faults = new WeakMap<Client, StreamFault>();
  readonly #http = new WeakMap<Client, HttpTransport>();
  /** The stdio transport of the last attempt: its stderr tail and pid. */
  #stdio: StdioTransport | undefined;
  /** What the last 401 asked for (`WWW-Authenticate`). */
  #challenge: string | undefined;
  /** When the next reconnect runs, and how many were tried. */
  readonly #reconnect: ReconnectSchedule;
  /** The newest lines of the server's stderr and log notifications, across this connection's attempts. */
  readonly log: ServerLog;
  /** A new session being started after a 404; every call that met the 404 waits for the same one. */
  #renewing: Promise<Client | undefined> | undefined;
  /** The tools of the last listing, by name. */
  #tools = new Map<string, McpToolDefinition>();
  #generation = 0;
  readonly #limits: ConnectionLimits;
  readonly #clock: Clock;
  readonly #listener: ConnectionListener;
  readonly #clientName: { name: string; version: string };
  readonly #capabilities: () => ClientCapabilities;
  readonly #configure: (client: Client) => void;
  readonly #onUrlRequired: ((elicitations: readonly unknown[], signal: AbortSignal) => Promise<boolean>) | undefined;
  /** What each attempt's transport is opened with: the user's OAuth client and fetch, the inputs, the tenant. */
  readonly #open: Pick<ServerConnectionOptions, 'authProvider' | 'fetch' | 'inputs' | 'tenant'>;
  readonly #stepUp: ServerConnectionOptions['onInsufficientScope'];

  constructor(options: ServerConnectionOptions) {
    this.#onUrlRequired = options.onUrlElicitationRequired;
    const { authProvider, fetch, inputs, tenant } = options;
    this.#open = { authProvider, fetch, inputs, tenant };
    this.#stepUp = options.onInsufficientScope;
    this.#capabilities = options.capabilities ?? (() => ({}));
    this.#configure = options.configure ?? (() => undefined);
    this.config = options.config;
    this.identity = serverIdentity(options.config);
    this.#limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.limits };
    this.#clock = options.clock;
    this.#reconnect = new ReconnectSchedule(options.clock, this.#limits);
    this.log = new ServerLog({ now: () => options.clock.now(), onLine: (line) => options.listener.log?.(line) });
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

  /** When the next reconnect attempt runs (wall time, ms), while one waits. */
  get retryAt(): number | undefined {
    return this.#reconnect.retryAt;
  }

  /** The `WWW-Authenticate` challenge of the last HTTP 401, while the server needs sign-in. */
  get authChallenge(): string | undefined {
    return this.#state === 'needs_auth' ? this.#challenge : undefined;
  }

  /** The Streamable HTTP session id the server gave, while ready (2025-11-25 over HTTP only). */
  get sessionId(): string | undefined {
    return this.#client?.transport?.sessionId;
  }

  /**
   * True when a question the server asks during a call arrives in that call's async context: the 2026 era's rounds
   * retry the call's own request, and over HTTP a 2025 question comes on the call's own response stream (over stdio
   * a 2025 question is a request of its own, with no link to any call).
   */
  get questionsInCallContext(): boolean {
    return this.config.transport === 'http' || this.#client?.getProtocolEra() === 'modern';
  }

  /** The era in which the server runs tools as tasks for this host, if it does (task-call.ts). */
  get offersTasks(): TaskEra | false {
    return this.#client !== undefined && offersTasks(this.#client);
  }

  /** First connection. Resolves when the server is ready or has failed; never rejects. */
  async start(): Promise<void> {
    await this.#connect(false);
  }

  /** One attempt. `reconnecting`: the server was ready before, so a failure is retried with backoff. */
  async #connect(reconnecting: boolean, why?: string): Promise<void> {
    const generation = ++this.#generation;
    if (this.#state !== 'connecting') this.#setState('connecting', why);
    const id = this.config.id;
    const client = new TaskExtensionClient(this.#clientName, {
      capabilities: this.#capabilities(),
      versionNegotiation: { mode: this.config.negotiation ?? 'legacy' },
      listChanged: {
        tools: {
          onChanged: (error, tools) => {
            if (generation !== this.#generation) return;
            if (error) this.#listener.warning(`server "${id}": refreshing tools failed: ${error.message}`);
            else if (tools) this.#listed(tools);
          },
        },
      },
    });
    this.#configure(client);
    this.log.listen(client);
    client.onerror = (error) => {
      if (generation !== this.#generation) return;
      const said =
        error instanceof StreamFault ? `server "${id}" ${error.message}` : `server "${id}": ${error.message}`;
      if (error instanceof StreamFault && error.fatal) this.#faults.set(client, error);
      this.#lastError = said;
      this.#transportError = error.message;
      // A 401 is told by the state (needs_auth, with the server's challenge), not as a warning of its own.
      if (httpStatusOf(error) !== 401) this.#listener.warning(said);
    };
    client.onclose = () => {
      if (generation !== this.#generation) return;
      const fault = this.#faults.get(client);
      this.#lose(
        client,
        fault === undefined ? undefined : `server "${id}" ${fault.message}; the connection was dropped`,
      );
    };
    // The connect timeout is on the host's clock alone: the SDK's own request timeouts are set out of reach.
    const timer = new AbortController();
    const cancelTimeout = this.#clock.setTimer(() => timer.abort(), this.#limits.connectTimeoutMs);
    let transport: Transport | undefined;
    try {
      transport = await this.#transport(client);
      await client.connect(transport, { signal: timer.signal, timeout: NO_SDK_TIMEOUT_MS });
      const { tools } = await client.listTools(undefined, { signal: timer.signal, timeout: NO_SDK_TIMEOUT_MS });
      if (generation !== this.#generation || this.#state === 'closed') {
        await client.close().catch(() => undefined);
        return;
      }
      this.#client = client;
      this.#reconnect.reset();
      this.#transportError = undefined;
      this.#listed(tools);
      this.#setState('ready');
    } catch (error) {
      // A server that failed to connect is misbehaving: stop its process now rather than after the polite
      // stdin-close grace period, which a process that ignores end-of-input would outlive if the host exits.
      this.#stdio?.kill();
      await client.close().catch(() => undefined);
      await transport?.close().catch(() => undefined);
      if (generation !== this.#generation || this.#state === 'closed') return;
      const failure = describeConnectFailure({
        config: this.config,
        error,
        timedOutAfterMs: timer.signal.aborted ? this.#limits.connectTimeoutMs : undefined,
        lastError: this.#lastError,
        stderrTail: this.#stdio?.stderrTail ?? '',
        fault: this.#faults.get(client),
        challenge: this.#http.get(client)?.challenge,
      });
      this.#lastError = failure.message;
      if (failure.state === 'needs_auth') {
        this.#challenge = this.#http.get(client)?.challenge?.wwwAuthenticate;
        this.#setState('needs_auth', failure.message);
        return;
      }
      const retrying = (reconnecting || this.#reconnect.attempt > 0) && this.#reconnect.canRetry;
      this.#setState(retrying ? 'degraded' : 'failed', this.#lastError);
      if (retrying) this.#scheduleReconnect();
    } finally {
      cancelTimeout();
    }
  }

  async #transport(client: Client): Promise<Transport> {
    const opened = await openTransport({
      config: this.config,
      clock: this.#clock,
      maxMessageBytes: this.#limits.maxMessageBytes,
      ...this.#open,
      onSseFallback: (status) => this.#listener.warning(describeSseFallback(this.config.id, status)),
    });
    if (opened.kind === 'http') {
      this.#http.set(client, opened.http);
      return opened.http.transport;
    }
    this.#stdio = opened.stdio;
    this.log.follow(opened.stdio.stderr);
    return opened.stdio;
  }

  /**
   * A ready server's connection is gone (its process ended, its stream broke, its HTTP server is unreachable): it is
   * `degraded` and reconnects with backoff; or it answered 401: it `needs_auth`, and waits. `why` is the whole sentence
   * when the host knows more than "closed".
   */
  #lose(client: Client, why?: string, becomes: 'degraded' | 'needs_auth' = 'degraded'): void {
    if (this.#state !== 'ready' || this.#client !== client) return;
    this.#client = undefined;
    this.#generation += 1;
    void client.close().catch(() => undefined);
    if (becomes === 'needs_auth') {
      this.#lastError = why;
      this.#challenge = this.#http.get(client)?.challenge?.wwwAuthenticate;
      return this.#setState('needs_auth', why);
    }
    const stderr = this.#stdio?.stderrTail.trim() ?? '';
    const after = this.#transportError === undefined ? '' : ` after: ${this.#transportError}`;
    const said = why ?? `server "${this.config.id}" closed the connection${after}`;
    this.#lastError = `${said}${stderr === '' ? '' : ` (stderr: ${stderr.split('\n').slice(-3).join(' | ')})`}`;
    this.#setState('degraded', this.#lastError);
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (!this.#reconnect.schedule(() => void this.#connect(true)) && this.#state !== 'failed')
      this.#setState('failed', this.#lastError);
  }

  /**
   * The server answered 404 (or a 400 saying so) for the session: it forgot it (a restart). Starts one new session for every call that
   * met the 404 (the spec: a new `initialize`, without the old id); resolves with its client, or undefined when the
   * server could not be reached (it is then `degraded`, reconnecting with backoff) or needs sign-in.
   */
  #renewSession(stale: Client, status: number): Promise<Client | undefined> {
    if (this.#renewing !== undefined) return this.#renewing;
    if (this.#client !== stale) return Promise.resolve(this.#state === 'ready' ? this.#client : undefined);
    this.#client = undefined;
    this.#generation += 1;
    void stale.close().catch(() => undefined);
    this.#renewing = this.#connect(
      true,
      `server "${this.config.id}" no longer knows the session (HTTP ${status}): starting a new one`,
    )
      .then(() => (this.#state === 'ready' ? this.#client : undefined))
      .finally(() => {
        this.#renewing = undefined;
      });
    return this.#renewing;
  }

  /** Starts a fresh connection now (a user's "retry" on a failed server, or after signing in). */
  async restart(): Promise<void> {
    if (this.#state === 'closed') throw new HostError('closed', `server "${this.config.id}" is closed`);
    this.#reconnect.stop();
    const client = this.#client;
    this.#client = undefined;
    this.#reconnect.reset();
    this.#generation += 1;
    if (client !== undefined) await this.#end(client);
    await this.#connect(false);
  }

  /**
   * Sends `tools/call`. Rejects with the SDK's `ProtocolError` (JSON-RPC error from the server) or `SdkError`
   * (aborted), or a `HostError` naming the server (`protocol_error`, `result_too_large`, `needs_auth`,
   * `server_unreachable`, `server_unavailable`), which the pipeline classifies.
   */
  callTool(
    name: string,
    args: Readonly<Record<string, unknown>>,
    options: ConnectionCallOptions,
  ): Promise<CallToolResult> {
    const client = this.#client;
    if (client === undefined || this.#state !== 'ready')
      return Promise.reject(unavailableError(this.config.id, this.#state, this.#lastError));
    // Traced and timed (when a tracer or meter is about): one span and one duration for the call, retries included.
    const traced = traceMcpRequest('tools/call', name, this.#clock, this);
    const call = traced === undefined ? options : { ...options, trace: traced };
    const send = (on: Client): Promise<CallToolResult> => sendCall(on, this.config.id, name, args, call, this.#clock);
    const sent = send(client).catch(async (error: unknown) => {
      const again = await retryClient(error, client, {
        serverId: this.config.id,
        name,
        options,
        urlRequired: this.#onUrlRequired,
        stepUp: this.#stepUp,
        renewSession: (status) => this.#renewSession(client, status),
        listed: (tool) => this.#tools.get(tool),
        unavailable: () => unavailableError(this.config.id, this.#state, this.#lastError),
      });
      if (again === undefined) throw this.#failure(error, client, options.signal);
      return send(again).catch((retryError: unknown) => {
        throw this.#failure(retryError, again, options.signal);
      });
    });
    return traced === undefined ? sent : traced.settle(sent);
  }

  /**
   * Runs a request other than `tools/call` (resources, prompts, completions) on the ready client; fails with the
   * same `server_unavailable` / `needs_auth` error a call would, naming the server, when it is not ready.
   */
  withClient<T>(run: (client: Client) => Promise<T>): Promise<T> {
    const client = this.#client;
    if (client === undefined || this.#state !== 'ready')
      return Promise.reject(unavailableError(this.config.id, this.#state, this.#lastError));
    return run(client);
  }

  /** What a failed call rejects with; a 401 puts the server in `needs_auth`, an unreachable one reconnects. */
  #failure(error: unknown, client: Client, signal: AbortSignal): unknown {
    const failure = describeCallFailure({
      id: this.config.id,
      transport: this.config.transport,
      error,
      aborted: signal.aborted,
      fault: this.#faults.get(client),
      challenge: this.#http.get(client)?.challenge,
      lastError: this.#lastError,
    });
    const server = failure.server;
    if (server !== undefined) this.#lose(client, server.message, server.becomes === 'lost' ? 'degraded' : 'needs_auth');
    return failure.error;
  }

  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#reconnect.stop();
    this.#generation += 1;
    this.#setState('closed');
    const client = this.#client;
    this.#client = undefined;
    if (client !== undefined) await this.#end(client);
  }

  /** Closes a client, ending its HTTP session first with DELETE (bounded, on the host's clock). */
  async #end(client: Client): Promise<void> {
    await this.#http.get(client)?.endSession(this.#clock, SESSION_DELETE_TIMEOUT_MS);
    await client.close().catch(() => undefined);
  }

  /** A listing of the server's tools: kept by name (a call resent on a new session checks it), and told on. */
  #listed(tools: readonly McpToolDefinition[]): void {
    this.#tools = new Map(tools.map((t) => [t.name, t]));
    this.#listener.tools(tools);
  }

  #setState(state: ServerState, error?: string): void {
    this.#state = serverTransition(this.#state, state);
    this.#listener.state(state, error);
  }
}

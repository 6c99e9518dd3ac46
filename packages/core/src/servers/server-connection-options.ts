import type {
  Client,
  ClientCapabilities,
  FetchLike,
  OAuthClientProvider,
  Tool as McpToolDefinition,
} from '@modelcontextprotocol/client';
import type { Clock } from '../clock.js';
import type { InputResolver } from '../config/config-inputs.js';
import type { ConnectionCallOptions } from '../mcp-client/connection-call-options.js';
import type { ConnectionLimits } from './connection-limits.js';
import type { ServerConfig } from './server-config.js';
import type { ServerLogLine } from './server-log.js';
import type { ServerState } from './server-state.js';

/** What a `ServerConnection` is built with: the server, the host's clock and limits, and the host's hooks. */
export interface ServerConnectionOptions {
  readonly config: ServerConfig;
  readonly limits?: Partial<ConnectionLimits>;
  /** The host's clock: the connect timeout, the reconnect backoff and the SSE reconnection wait on it. */
  readonly clock: Clock;
  readonly listener: ConnectionListener;
  readonly clientInfo?: { name: string; version: string };
  /** Fills the server's `${input:ID}` before each start; without one, a server that uses an input fails. */
  readonly inputs?: InputResolver;
  /** The tenant this connection is for (`userId/workspaceId`), when it is one tenant's. */
  readonly tenant?: string;
  /** What the client declares, read at each (re)connect: elicitation only while a surface can answer. */
  readonly capabilities?: () => ClientCapabilities;
  /** Installs request and notification handlers (elicitation) on each new client. */
  readonly configure?: (client: Client) => void;
  /** A call refused with -32042 (URL elicitation required): show the URLs, wait for completion; true means retry. */
  readonly onUrlElicitationRequired?: (elicitations: readonly unknown[], signal: AbortSignal) => Promise<boolean>;
  /** HTTP only: the OAuth client of the user this connection is for (a server per user that signs users in). */
  readonly authProvider?: OAuthClientProvider;
  /** HTTP only: the fetch requests go through (the OAuth client's guard: https only, but for loopback). */
  readonly fetch?: FetchLike;
  /**
   * HTTP only: a call refused with 403 `insufficient_scope`. The owner signs the user in again with the scope asked
   * for (through the surface) and resolves true to send the call once more; false (or any other error) lets it fail.
   */
  readonly onInsufficientScope?: (error: unknown, call: ConnectionCallOptions) => Promise<boolean>;
}

/** What a connection tells its owner. */
export interface ConnectionListener {
  state(state: ServerState, error?: string): void;
  tools(tools: readonly McpToolDefinition[]): void;
  warning(message: string): void;
  /** A line of the server's stderr or a log notification it sent (see `ServerLog`). */
  log?(line: ServerLogLine): void;
}

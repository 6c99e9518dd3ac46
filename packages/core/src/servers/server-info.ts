import type { ServerIsolation } from './server-config.js';
import type { ServerConnection } from './server-connection.js';
import { neutraliseControls } from './server-log.js';
import type { ServerState } from './server-state.js';

/** A server as surfaces list it. */
export interface ServerInfo {
  readonly id: string;
  /** The config's name for it, when that is not its id (`Brave Search` for `brave_search`): show it. */
  readonly name?: string;
  readonly state: ServerState;
  readonly transport: 'stdio' | 'http';
  readonly trusted: boolean;
  /** Who shares a connection: everyone, each user, or each workspace. */
  readonly isolation: ServerIsolation;
  /** True for a server users sign in to (an HTTP server with oauth, or one per user that asked for sign-in). */
  readonly signsIn: boolean;
  /**
   * Listed for one tenant of a server per tenant: whether that tenant's own connection is open. When it is not, the
   * state is the catalog's (the tenant's connection opens on their first call).
   */
  readonly tenantConnection?: boolean;
  /** `serverIdentity`: a hash of the command line or URL, env or headers, and trust: what permissions are bound to. */
  readonly identity: string;
  /** What the user sees as the server's origin: the command line or the URL. */
  readonly origin: string;
  readonly error?: string;
  /** While `degraded`: when the next reconnect attempt runs (wall time, ms). A `failed` server does not retry. */
  readonly retryAt?: number;
  /** Switched off by an administrator (or `disabled` in the config): not started, its tools not listed. */
  readonly disabled: boolean;
  /**
   * While the state is `needs_auth`: the `WWW-Authenticate` challenge of the server's 401, as sent (the scheme, and
   * for OAuth servers `resource_metadata` and `scope`, where a sign-in starts).
   */
  readonly authChallenge?: string;
  readonly protocolVersion?: string;
  readonly toolCount: number;
  /** How many resources and prompts it offered when its shared or catalog connection last listed them. */
  readonly resourceCount?: number;
  readonly promptCount?: number;
  /** What the server said of itself when it last connected (its name, version, capabilities, instructions). */
  readonly about?: ServerAbout;
}

/**
 * What a server says of itself at initialize. All of it is the server's own claim: `instructions` is untrusted text
 * (a surface shows it as text, and never gives it to the model as the host's words).
 */
export interface ServerAbout {
  readonly name?: string;
  readonly version?: string;
  /** The capabilities it declared (tools, resources, prompts, completions, logging, tasks …). */
  readonly capabilities: readonly string[];
  readonly instructions?: string;
}

/**
 * How a surface sees one connection now: a disabled server that never started reads as closed, the origin is the
 * command line or the URL the user recognises, and the last error shows only while the server is not ready.
 */
export function serverInfo(options: {
  readonly connection: ServerConnection;
  readonly isolation: ServerIsolation;
  readonly tenantConnection?: boolean;
  readonly toolCount: number;
  readonly about?: ServerAbout | undefined;
  readonly counts?: { readonly resources?: number; readonly prompts?: number } | undefined;
}): ServerInfo {
  const c = options.connection;
  const protocolVersion = c.protocolVersion;
  return {
    id: c.config.id,
    ...(c.config.name === undefined ? {} : { name: c.config.name }),
    state: c.config.disabled && c.state === 'connecting' ? 'closed' : c.state,
    transport: c.config.transport,
    trusted: c.config.trusted,
    isolation: options.isolation,
    signsIn:
      c.config.transport === 'http' &&
      c.config.oauth?.grant !== 'client_credentials' &&
      (c.config.oauth !== undefined || options.isolation === 'user'),
    ...(options.tenantConnection === undefined ? {} : { tenantConnection: options.tenantConnection }),
    identity: c.identity,
    origin: c.config.transport === 'http' ? c.config.url : [c.config.command, ...c.config.args].join(' '),
    // The error may quote the server's stderr: its control characters are shown as codes, never obeyed.
    ...(c.lastError === undefined || c.state === 'ready' ? {} : { error: neutraliseControls(c.lastError) }),
    ...(c.retryAt === undefined || c.state !== 'degraded' ? {} : { retryAt: c.retryAt }),
    disabled: c.config.disabled,
    ...(c.state === 'needs_auth' && c.authChallenge !== undefined ? { authChallenge: c.authChallenge } : {}),
    ...(protocolVersion === undefined ? {} : { protocolVersion }),
    toolCount: options.toolCount,
    ...(options.counts?.resources === undefined ? {} : { resourceCount: options.counts.resources }),
    ...(options.counts?.prompts === undefined ? {} : { promptCount: options.counts.prompts }),
    ...(options.about === undefined ? {} : { about: options.about }),
  };
}

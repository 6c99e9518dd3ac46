import type { CallToolResult, Tool as McpToolDefinition } from '@modelcontextprotocol/client';
import { hashJson } from '../audit/canonical-json.js';
import type { Clock } from '../clock.js';
import { HostError } from '../errors/host-error.js';
import type { Scope } from '../scope.js';
import type { ToolCaller } from '../tools/tool-registry.js';
import type { TaskEra } from '../store/invocation-task.js';
import type { ServerConfig, ServerIsolation } from './server-config.js';
import { isolationOf } from './server-config.js';
import type { ServerConnection } from './server-connection.js';
import type { ConnectionCallOptions } from '../mcp-client/connection-call-options.js';

/** How many tenant connections a server keeps, and for how long one may sit unused. */
export interface TenantConnectionLimits {
  /** Most connections open at once per server; the least recently used idle one is closed for a new one. Default 32. */
  readonly maxTenantConnections: number;
  /** An unused tenant connection closes after this long. Default 10 minutes. */
  readonly tenantIdleMs: number;
}

export const DEFAULT_TENANT_LIMITS: TenantConnectionLimits = { maxTenantConnections: 32, tenantIdleMs: 10 * 60_000 };

/** True when a tenant key (`user:ID` or `workspace:ID`) is the one of this user in this workspace. */
export function tenantMatches(tenant: string, who: { readonly userId: string; readonly workspaceId: string }): boolean {
  return tenant === `user:${who.userId}` || tenant === `workspace:${who.workspaceId}`;
}

/** The states of a tenant connection that a new call opens afresh. */
const STALE: ReadonlySet<string> = new Set(['failed', 'closed', 'needs_auth']);

/** What a pool tells its owner about one tenant connection. */
export interface PoolListener {
  /**
   * A tenant connection listed tools: `definitions` undefined when they are the catalog's; `tasks` the era in which
   * the server runs tools as tasks on that connection, if it does.
   */
  tenantTools(tenant: string, definitions: readonly McpToolDefinition[] | undefined, tasks: TaskEra | false): void;
  /** A tenant connection was closed (idle, evicted, or the host closed). */
  tenantClosed(tenant: string): void;
}

interface TenantEntry {
  readonly connection: ServerConnection;
  readonly started: Promise<void>;
  /** Calls running on it now: a busy connection is never closed for being idle or evicted. */
  busy: number;
  cancelIdle: (() => void) | undefined;
}

/**
 * The connections of one configured server. `shared`: one connection every call goes through. `user` or
 * `workspace`: a connection per tenant, opened on that tenant's first call, closed after an idle time, at most
 * `maxTenantConnections` at once (the least recently used idle one makes room); the `catalog` connection then only
 * lists the tools every tenant sees, and runs no calls. A question a server asks on a tenant's connection can only
 * belong to that tenant, so two users' questions on one configured server never meet.
 */
export class ServerPool implements ToolCaller {
  readonly config: ServerConfig;
  readonly catalog: ServerConnection;
  /** The configured or default isolation; `auto` turns `user` once the server asks for sign-in. */
  #isolation: ServerIsolation | 'auto';
  /** Insertion order is recency: a used entry is moved to the end. */
  readonly #tenants = new Map<string, TenantEntry>();
  readonly #open: (tenant: string) => ServerConnection;
  readonly #clock: Clock;
  readonly #limits: TenantConnectionLimits;
  readonly #listener: PoolListener;
  #catalogHash: string | undefined;
  #closed = false;

  constructor(options: {
    readonly config: ServerConfig;
    readonly clock: Clock;
    readonly limits?: Partial<TenantConnectionLimits>;
    /** Builds the connection every tenant shares, or the catalog's for a server per tenant. */
    readonly catalog: ServerConnection;
    /** Builds one tenant's connection (not started). */
    readonly open: (tenant: string) => ServerConnection;
    readonly listener: PoolListener;
  }) {
    this.config = options.config;
    this.#isolation = isolationOf(options.config);
    this.catalog = options.catalog;
    this.#open = options.open;
    this.#clock = options.clock;
    this.#limits = { ...DEFAULT_TENANT_LIMITS, ...options.limits };
    this.#listener = options.listener;
  }

  /** Who shares a connection now. */
  get isolation(): ServerIsolation {
    return this.#isolation === 'auto' ? 'shared' : this.#isolation;
  }

  /**
   * The catalog connection was asked to sign in (an HTTP 401 with a Bearer challenge): a server with no credentials
   * of its own is per user from now on, since whoever signs in signs in for themselves.
   */
  signInAsked(): void {
    if (this.#isolation === 'auto') this.#isolation = 'user';
  }

  /** The tenant key of a scope on this server; undefined when every tenant shares the one connection. */
  tenantOf(scope: Scope): string | undefined {
    const isolation = this.#isolation;
    if (isolation === 'shared' || isolation === 'auto') return undefined;
    return isolation === 'user' ? `user:${scope.userId}` : `workspace:${scope.workspaceId}`;
  }

  /** The connection a scope's calls go through, if it is open (never opens one). */
  peek(scope: Scope): ServerConnection | undefined {
    const tenant = this.tenantOf(scope);
    return tenant === undefined ? this.catalog : this.#tenants.get(tenant)?.connection;
  }

  /** The tenant connections open now. */
  get openTenants(): number {
    return this.#tenants.size;
  }

  /** The catalog connection listed tools: remembered, so a tenant whose listing is the same adds no view of its own. */
  catalogListed(definitions: readonly McpToolDefinition[]): void {
    this.#catalogHash = hashJson(definitions);
  }

  /** A tenant connection listed tools: its own view only where they differ from the catalog's. */
  tenantListed(tenant: string, definitions: readonly McpToolDefinition[]): void {
    const tasks = this.#tenants.get(tenant)?.connection.offersTasks ?? false;
    this.#listener.tenantTools(tenant, hashJson(definitions) === this.#catalogHash ? undefined : definitions, tasks);
  }

  callTool(
    name: string,
    args: Readonly<Record<string, unknown>>,
    options: ConnectionCallOptions & { readonly scope: Scope },
  ): Promise<CallToolResult> {
    const tenant = this.tenantOf(options.scope);
    if (tenant === undefined) return this.catalog.callTool(name, args, options);
    return this.#callAs(tenant, name, args, options);
  }

  #callAs(
    tenant: string,
    name: string,
    args: Readonly<Record<string, unknown>>,
    options: ConnectionCallOptions,
  ): Promise<CallToolResult> {
    return this.#on(tenant, (connection) => connection.callTool(name, args, options));
  }

  /**
   * Runs `run` on the connection a scope's requests go through (the shared one, or the tenant's own, opened on its
   * first use and kept from idling out while `run` is in flight), as `callTool` picks it.
   */
  withConnection<T>(scope: Scope, run: (connection: ServerConnection) => Promise<T>): Promise<T> {
    const tenant = this.tenantOf(scope);
    if (tenant === undefined) return run(this.catalog);
    return this.#on(tenant, run);
  }

  /**
   * Keeps the scope's own connection open (never closed for being idle, never evicted) until the returned release is
   * called: what a resource subscription needs, since a closed connection forgets it. Opens the connection if needed.
   */
  hold(scope: Scope): () => void {
    const tenant = this.tenantOf(scope);
    if (tenant === undefined) return () => undefined;
    const entry = this.#entry(tenant);
    entry.busy += 1;
    entry.cancelIdle?.();
    entry.cancelIdle = undefined;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      entry.busy -= 1;
      if (entry.busy === 0 && this.#tenants.get(tenant) === entry) this.#idle(tenant, entry);
    };
  }

  async #on<T>(tenant: string, run: (connection: ServerConnection) => Promise<T>): Promise<T> {
    const entry = this.#entry(tenant);
    entry.busy += 1;
    entry.cancelIdle?.();
    entry.cancelIdle = undefined;
    try {
      await entry.started;
      return await run(entry.connection);
    } finally {
      entry.busy -= 1;
      if (entry.busy === 0 && this.#tenants.get(tenant) === entry) this.#idle(tenant, entry);
    }
  }

  /** The tenant's connection, opened (and started) now if it is not open; the most recently used from now on. */
  #entry(tenant: string): TenantEntry {
    if (this.#closed) throw new HostError('closed', `server "${this.config.id}" is closed`);
    let known = this.#tenants.get(tenant);
    // A connection that failed, closed or waits for sign-in, with no call on it, is opened afresh: a start that failed
    // does not retry on its own, and the user may have signed in elsewhere (the CLI, another instance).
    if (known !== undefined && known.busy === 0 && STALE.has(known.connection.state)) {
      void this.#drop(tenant, known);
      known = undefined;
    }
    if (known !== undefined) {
      this.#tenants.delete(tenant);
      this.#tenants.set(tenant, known);
      return known;
    }
    if (this.#tenants.size >= this.#limits.maxTenantConnections) this.#evict();
    const connection = this.#open(tenant);
    const entry: TenantEntry = { connection, started: connection.start(), busy: 0, cancelIdle: undefined };
    this.#tenants.set(tenant, entry);
    return entry;
  }

  /** Closes the least recently used idle connection; when every one is busy, the new call is refused. */
  #evict(): void {
    for (const [tenant, entry] of this.#tenants) {
      if (entry.busy > 0) continue;
      void this.#drop(tenant, entry);
      return;
    }
    throw new HostError(
      'server_unavailable',
      `server "${this.config.id}" has all its ${this.#limits.maxTenantConnections} connections busy with other ` +
        "users' calls; the call was not sent",
      { data: { serverId: this.config.id } },
    );
  }

  #idle(tenant: string, entry: TenantEntry): void {
    entry.cancelIdle?.(); // one idle timer per connection, whoever armed it last
    entry.cancelIdle = this.#clock.setTimer(() => {
      entry.cancelIdle = undefined;
      if (entry.busy === 0 && this.#tenants.get(tenant) === entry) void this.#drop(tenant, entry);
    }, this.#limits.tenantIdleMs);
  }

  async #drop(tenant: string, entry: TenantEntry): Promise<void> {
    entry.cancelIdle?.();
    this.#tenants.delete(tenant);
    this.#listener.tenantClosed(tenant);
    await entry.connection.close();
  }

  /** Starts the tenant's connection afresh (after sign-in, or a user's retry); the catalog's for a shared server. */
  async restart(scope?: Scope): Promise<void> {
    const tenant = scope === undefined ? undefined : this.tenantOf(scope);
    if (tenant === undefined) return this.catalog.restart();
    const entry = this.#tenants.get(tenant);
    if (entry === undefined) {
      await this.#entry(tenant).started;
      const opened = this.#tenants.get(tenant);
      if (opened !== undefined && opened.busy === 0) this.#idle(tenant, opened);
      return;
    }
    await entry.connection.restart();
  }

  /** Closes the tenant's connection now (sign-out), if one is open. */
  async closeTenant(scope: Scope): Promise<void> {
    const tenant = this.tenantOf(scope);
    const entry = tenant === undefined ? undefined : this.#tenants.get(tenant);
    if (tenant !== undefined && entry !== undefined) await this.#drop(tenant, entry);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const entries = [...this.#tenants];
    await Promise.all([this.catalog.close(), ...entries.map(([tenant, entry]) => this.#drop(tenant, entry))]);
  }
}

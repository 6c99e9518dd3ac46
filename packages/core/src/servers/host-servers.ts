import type { Client, ClientCapabilities } from '@modelcontextprotocol/client';
import type { InputResolver } from '../config/config-inputs.js';
import type { Clock } from '../clock.js';
import type { ElicitationBroker } from '../elicitation/elicitation-broker.js';
import { HostError } from '../errors/host-error.js';
import type { ServerEvents } from './server-events.js';
import type { ConnectionLimits } from './connection-limits.js';
import type { TenantConnectionLimits } from './server-pool.js';
import type { Scope } from '../scope.js';
import type { ServerConfig } from './server-config.js';
import { ServerConnection } from './server-connection.js';
import type { ServerConnectionOptions } from './server-connection-options.js';
import { serverInfo } from './server-info.js';
import type { ServerAbout, ServerInfo } from './server-info.js';
import { ServerPool } from './server-pool.js';
import type { ServerLogLine } from './server-log.js';
import { countListed } from './server-counts.js';
import { toolTarget } from '../tools/tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { TaskConnection, TaskServers } from '../tasks/task-servers.js';

/** What the host's servers are wired to. */
export interface HostServersDeps {
  readonly servers: readonly ServerConfig[];
  /** The connection limits of the host's config (the rest of its limits are not this catalog's). */
  readonly limits: Partial<ConnectionLimits> & Partial<TenantConnectionLimits>;
  readonly clock: Clock;
  /** What every connection is built with: the client's name, and what fills the servers' `${input:ID}`. */
  readonly host: { readonly clientInfo?: { name: string; version: string }; readonly inputs?: InputResolver };
  readonly registry: ToolRegistry;
  readonly broker: ElicitationBroker;
  readonly events: ServerEvents;
  /** A server's catalog changed and it is ready: rules naming its tools are checked again. */
  readonly catalogReady: () => void;
  /** Extra options of an HTTP connection for a tenant (the OAuth provider of that user), when there are some. */
  readonly httpOptions?: (config: ServerConfig, tenant: string | undefined) => Partial<ServerConnectionOptions>;
  /** Client capabilities beyond elicitation (the MCP Apps extension, where a surface shows views). */
  readonly extraCapabilities?: ClientCapabilities;
  /** The servers an administrator switched off (from the store): not started. Servers start once it resolves. */
  readonly switchedOff?: Promise<ReadonlySet<string>>;
}

/**
 * The configured servers, each a pool of connections (one shared, or one per user or workspace): built from config,
 * wired to the registry (catalog and per-tenant views), to the elicitation broker (a question on a tenant's
 * connection belongs to that tenant) and to the host's events (a tenant connection's state and warnings carry its
 * tenant key, so a surface shows them to that tenant only).
 */
export class HostServers implements TaskServers {
  readonly pools = new Map<string, ServerPool>();
  readonly #deps: HostServersDeps;
  readonly settled: Promise<void>;

  constructor(deps: HostServersDeps) {
    this.#deps = deps;
    for (const server of deps.servers) {
      if (this.pools.has(server.id)) throw new HostError('config_invalid', `server "${server.id}" is configured twice`);
      this.pools.set(server.id, this.#pool(server));
    }
    // Counts of resources and prompts follow the server's own list_changed notifications.
    deps.events.on('resources.changed', (e) => void (e.tenant === undefined && this.#learnCounts(e.serverId)));
    deps.events.on('prompts.changed', (e) => void (e.tenant === undefined && this.#learnCounts(e.serverId)));
    this.settled = (deps.switchedOff ?? Promise.resolve(new Set<string>())).then((off) => {
      for (const id of off) {
        const pool = this.pools.get(id);
        if (pool !== undefined) this.pools.set(id, this.#pool({ ...pool.config, disabled: true }));
      }
      const starting = [...this.pools.values()].filter((p) => !p.config.disabled).map((p) => p.catalog.start());
      // Settled includes what each ready server says of itself and its counts, so a one-shot listing shows them.
      return Promise.all(starting).then(() => Promise.all([...this.#learning]).then(() => undefined));
    });
  }

  /**
   * Switches a server off (`on` false: its connections close, its tools leave every listing, calls and reads are
   * refused naming it) or on again (it connects afresh). Resolves once the change is made (on: once it is ready or
   * has failed). What the config says stays; the host keeps the switch (switches/tool-switches.ts).
   */
  async setEnabled(serverId: string, on: boolean): Promise<void> {
    const old = this.pool(serverId);
    if (old.config.disabled === !on) return;
    const next = this.#pool({ ...old.config, disabled: !on });
    if (on) {
      await old.close(); // a pool never started: closing it forgets nothing the new one will list
      this.pools.set(serverId, next);
      this.#deps.events.emit('tools.changed', { serverId });
      await next.catalog.start();
      return;
    }
    this.pools.set(serverId, next);
    await old.close();
    this.#about.delete(serverId);
    this.#counts.delete(serverId);
    this.#deps.events.emit('server.state', { serverId, state: 'closed' });
    this.#deps.events.emit('tools.changed', { serverId });
  }

  /**
   * The newest lines of a server's stderr and log notifications, of the connection the scope's calls go through (its
   * own on a server per tenant, once open) or the shared one. The server's own words: they may hold secrets, so a
   * surface shows them to administrators only.
   */
  logs(serverId: string, scope?: Scope, after?: number): ServerLogLine[] {
    const pool = this.pool(serverId);
    const connection = (scope === undefined ? undefined : pool.peek(scope)) ?? pool.catalog;
    return connection.log.lines(after);
  }

  /** The tenant key of a scope on a server (undefined: one connection for all, or no such server). */
  tenantOf(serverId: string, scope: Scope): string | undefined {
    return this.pools.get(serverId)?.tenantOf(scope);
  }

  /** Each server as a tenant sees it (its own connection's state where it has one), or the catalogs' without scope. */
  list(scope?: Scope): ServerInfo[] {
    return [...this.pools.values()].map((pool) => {
      const own = scope === undefined ? undefined : pool.peek(scope);
      const connection = own ?? pool.catalog;
      return serverInfo({
        connection,
        isolation: pool.isolation,
        ...(pool.isolation === 'shared' || scope === undefined ? {} : { tenantConnection: own !== undefined }),
        about: this.#about.get(pool.config.id),
        counts: this.#counts.get(pool.config.id),
        toolCount: this.#deps.registry
          .list({ audience: 'user', ...(scope === undefined ? {} : { scope }) })
          .filter((t) => toolTarget(t).serverId === pool.config.id).length,
      });
    });
  }

  /** What each server said of itself when its shared or catalog connection last became ready. */
  readonly #about = new Map<string, ServerAbout>();

  async #learnAbout(id: string, pool: ServerPool): Promise<void> {
    const about = await pool.catalog
      .withClient((client) => {
        const version = client.getServerVersion();
        const instructions = client.getInstructions();
        return Promise.resolve({
          ...(version?.name === undefined ? {} : { name: version.name }),
          ...(version?.version === undefined ? {} : { version: version.version }),
          capabilities: Object.keys(client.getServerCapabilities() ?? {}).sort(),
          ...(instructions === undefined || instructions === '' ? {} : { instructions }),
        });
      })
      .catch(() => undefined);
    if (about !== undefined) this.#about.set(id, about);
    await this.#learnCounts(id);
  }

  /** What is being learned of servers that just became ready (what they say of themselves, their counts). */
  readonly #learning = new Set<Promise<void>>();

  /** How many resources and prompts each server offered when its shared or catalog connection last listed them. */
  readonly #counts = new Map<string, { resources?: number; prompts?: number }>();

  async #learnCounts(id: string): Promise<void> {
    const pool = this.pools.get(id);
    const counts = await pool?.catalog.withClient((client) => countListed(client)).catch(() => undefined);
    if (counts !== undefined && this.pools.get(id) === pool) this.#counts.set(id, counts);
  }

  identity(serverId: string): string | undefined {
    return this.pools.get(serverId)?.catalog.identity;
  }

  switchedOff(): string[] {
    return [...this.pools.values()].filter((p) => p.config.disabled).map((p) => p.config.id);
  }

  withConnection<T>(serverId: string, scope: Scope, run: (connection: TaskConnection) => Promise<T>): Promise<T> {
    return this.pool(serverId).withConnection(scope, run);
  }

  pool(serverId: string): ServerPool {
    const pool = this.pools.get(serverId);
    if (pool === undefined) throw new HostError('server_not_found', `no server "${serverId}" is configured`);
    return pool;
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.close()));
  }

  #pool(server: ServerConfig): ServerPool {
    const { registry, events } = this.#deps;
    const id = server.id;
    const pool: ServerPool = new ServerPool({
      config: server,
      clock: this.#deps.clock,
      limits: this.#deps.limits,
      catalog: this.#connection(server, undefined, {
        state: (state, error) => {
          if (state === 'closed') registry.removeServer(id);
          if (state === 'ready') {
            const learning = this.#learnAbout(id, pool).finally(() => this.#learning.delete(learning));
            this.#learning.add(learning);
          }
          if (state === 'needs_auth' && /^\s*bearer\b/i.test(pool.catalog.authChallenge ?? '')) pool.signInAsked();
          events.emit('server.state', { serverId: id, state, ...(error === undefined ? {} : { error }) });
        },
        log: (line) => events.emit('server.log', { serverId: id, line }),
        tools: (definitions) => {
          pool.catalogListed(definitions);
          const warnings = registry.setServerTools(id, pool, definitions, undefined, pool.catalog.offersTasks);
          for (const message of warnings) events.emit('server.warning', { serverId: id, message });
          events.emit('tools.changed', { serverId: id });
          if (pool.catalog.state === 'ready') this.#deps.catalogReady();
        },
        warning: (message) => events.emit('server.warning', { serverId: id, message }),
      }),
      open: (tenant) =>
        this.#connection(server, tenant, {
          state: (state, error) =>
            events.emit('server.state', { serverId: id, tenant, state, ...(error === undefined ? {} : { error }) }),
          tools: (definitions) => pool.tenantListed(tenant, definitions),
          log: (line) => events.emit('server.log', { serverId: id, tenant, line }),
          warning: (message) => events.emit('server.warning', { serverId: id, tenant, message }),
        }),
      listener: {
        tenantTools: (tenant, definitions, tasks) => {
          // A tenant's own listing is that tenant's view only, never the catalog: a server that lists a user's own
          // tools (an account's admin tools) shows them to nobody else. A listing the same as the catalog adds none.
          if (definitions === undefined) {
            registry.removeTenantTools(id, tenant);
          } else {
            const warnings = registry.setServerTools(id, pool, definitions, tenant, tasks);
            for (const message of warnings) events.emit('server.warning', { serverId: id, tenant, message });
          }
          events.emit('tools.changed', { serverId: id, tenant });
        },
        // The tenant keeps its view when its connection closes (idle, signed out): its tools stay listed, and a call
        // opens the connection again (or tells the user to sign in).
        tenantClosed: (tenant) => events.emit('server.state', { serverId: id, tenant, state: 'closed' }),
      },
    });
    return pool;
  }

  #connection(
    server: ServerConfig,
    tenant: string | undefined,
    listener: ServerConnectionOptions['listener'],
  ): ServerConnection {
    const { broker, limits } = this.#deps;
    return new ServerConnection({
      config: server,
      limits,
      clock: this.#deps.clock,
      ...(this.#deps.host.clientInfo === undefined ? {} : { clientInfo: this.#deps.host.clientInfo }),
      ...(this.#deps.host.inputs === undefined ? {} : { inputs: this.#deps.host.inputs }),
      ...(tenant === undefined ? {} : { tenant }),
      capabilities: () => {
        const modes = broker.modes();
        const extra = this.#deps.extraCapabilities ?? {};
        if (modes.length === 0) return extra;
        return { ...extra, elicitation: Object.fromEntries(modes.map((mode) => [mode, {}])) };
      },
      onUrlElicitationRequired: (elicitations, signal) => broker.urlRequired(server.id, tenant, elicitations, signal),
      configure: (client: Client) => {
        // The SDK refuses the handler without the capability; with no surface to answer, neither is declared.
        if (broker.modes().length > 0)
          client.setRequestHandler('elicitation/create', broker.handler(server.id, tenant));
        client.setNotificationHandler('notifications/elicitation/complete', (notification) =>
          broker.completed(server.id, notification.params.elicitationId),
        );
        const about = { serverId: server.id, ...(tenant === undefined ? {} : { tenant }) };
        const { events } = this.#deps;
        client.setNotificationHandler('notifications/resources/list_changed', () =>
          events.emit('resources.changed', about),
        );
        client.setNotificationHandler('notifications/resources/updated', (notification) =>
          events.emit('resource.updated', { ...about, uri: notification.params.uri }),
        );
        client.setNotificationHandler('notifications/prompts/list_changed', () =>
          events.emit('prompts.changed', about),
        );
      },
      listener,
      ...(server.transport === 'http' ? this.#deps.httpOptions?.(server, tenant) : {}),
    });
  }
}

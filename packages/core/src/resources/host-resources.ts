import type { Client, Prompt, Resource, ResourceTemplateType } from '@modelcontextprotocol/client';
import { auditEvent } from '../audit/audit-event-builder.js';
import { sha256Hex } from '../audit/canonical-json.js';
import type { Clock } from '../clock.js';
import { HostError } from '../errors/host-error.js';
import type { ServerEvents } from '../servers/server-events.js';
import type { HostServers } from '../servers/host-servers.js';
import type { ServerPool } from '../servers/server-pool.js';
import type { HistoryWriter } from '../history/history-writer.js';
import type { BoundLimits } from '../invocations/bound-result.js';
import { boundPrompt } from './bound-prompt.js';
import { boundResource } from './bound-resource.js';
import { expandTemplate } from './expand-template.js';
import type { ReadGateDeps } from './read-gate.js';
import { gateRead, RESOURCE_READ } from './read-gate.js';
import { sendTraced } from '../otel/mcp-request-trace.js';
import { requestFailure } from './request-failure.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';
import type { WholeRead } from './kept-reads.js';
import { KeptReads } from './kept-reads.js';
import type { SharedKeptReads } from './kept-reads.js';
import type {
  CompleteOptions,
  Completions,
  FromServer,
  Listing,
  GetPromptOptions,
  PromptMessages,
  ReadResourceOptions,
  ResourceRead,
} from './resource-types.js';
import type { Scope } from '../scope.js';
import { assertScope } from '../scope.js';

/** What resources and prompts are wired to. */
export interface HostResourcesDeps {
  readonly servers: HostServers;
  readonly writes: HistoryWriter;
  readonly clock: Clock;
  readonly limits: Partial<BoundLimits>;
  readonly events: ServerEvents;
  /** The permission gate reads pass: rules of kind `resource`, stored decisions, the surface. */
  readonly gate: ReadGateDeps;
  /** Given when several hosts share the store: reads are kept there, so a handle opens on any of them. */
  readonly sharedReads?: SharedKeptReads;
}

/**
 * Everything a server offers besides tools, per tenant: each request goes through the connection the scope's calls
 * go through (a server per user or workspace: that tenant's own, opened on first use). Listings walk every page.
 * A read is bounded like a tool result and audited (the server and the URI's hash, never the contents).
 */
export class HostResources {
  readonly #deps: HostResourcesDeps;
  /** Who subscribed to each URI on each connection. */
  readonly #subscriptions: ResourceSubscriptions;
  /** The whole of recent reads, behind the handles their bounded payloads name. */
  readonly #kept: KeptReads;

  constructor(deps: HostResourcesDeps) {
    this.#deps = deps;
    this.#kept = new KeptReads({}, deps.sharedReads);
    this.#subscriptions = new ResourceSubscriptions({ events: deps.events, pool: (serverId) => this.#pool(serverId) });
  }

  list(options: { scope: Scope; serverId?: string }): Promise<Listing<Resource>> {
    return this.#listing(
      options,
      'the resource list',
      'resources',
      async (client) => (await client.listResources(undefined, FRESH)).resources,
    );
  }

  templates(options: { scope: Scope; serverId?: string }): Promise<Listing<ResourceTemplateType>> {
    return this.#listing(
      options,
      'the resource template list',
      'resources',
      async (client) => (await client.listResourceTemplates(undefined, FRESH)).resourceTemplates,
    );
  }

  prompts(options: { scope: Scope; serverId?: string }): Promise<Listing<Prompt>> {
    return this.#listing(
      options,
      'the prompt list',
      'prompts',
      async (client) => (await client.listPrompts(undefined, FRESH)).prompts,
    );
  }

  async read(options: ReadResourceOptions): Promise<ResourceRead> {
    const scope = assertScope(options.scope);
    const { serverId } = options;
    const caller = options.caller ?? 'user';
    if (caller !== 'user' && caller !== 'model') {
      throw new HostError('invalid_arguments', `caller must be "user" or "model", not ${JSON.stringify(caller)}`);
    }
    const uri = this.#uri(options);
    const pool = this.#pool(serverId);
    const what = `the read of resource ${JSON.stringify(uri)}`;
    let outcome = 'success';
    try {
      await gateRead(this.#deps.gate, { scope, caller, serverId, uri, ...signalOf(options.signal) });
      const result = await pool
        .withConnection(scope, (connection) =>
          connection.withClient((client) => {
            offers(client, serverId, 'resources', what);
            const read = { method: RESOURCE_READ, target: uri, clock: this.#deps.clock, peer: connection };
            return sendTraced(read, (meta) =>
              client.readResource({ uri, ...metaOf(meta) }, { cacheMode: 'bypass', ...signalOf(options.signal) }),
            );
          }),
        )
        .catch((error: unknown) => {
          throw requestFailure(serverId, what, error);
        });
      const handle = await this.#kept.keep(scope, { serverId, uri, contents: result.contents });
      const limits = this.#deps.limits;
      const bounded = boundResource({ serverId, uri, result, limits, ...(handle === undefined ? {} : { handle }) });
      return { serverId, uri, ...bounded, ...(options.full === true ? { contents: result.contents } : {}) };
    } catch (error) {
      outcome = error instanceof HostError ? error.code : 'error';
      throw error;
    } finally {
      this.#audit(scope, serverId, uri, caller, outcome);
    }
  }

  /** The whole of a recent read, by the handle it gave (`airlock:read/...`); only in the tenant that read it. */
  whole(options: { scope: Scope; handle: string }): Promise<WholeRead> {
    return this.#kept.whole(assertScope(options.scope), options.handle);
  }

  async subscribe(options: { scope: Scope; serverId: string; uri: string }): Promise<void> {
    await this.#subscriptions.change(options, true);
  }

  async unsubscribe(options: { scope: Scope; serverId: string; uri: string }): Promise<void> {
    await this.#subscriptions.change(options, false);
  }

  /** Who follows a URI on a server's connection: an update is told to them only (ResourceSubscriptions says why). */
  subscribers(options: { serverId: string; tenant?: string; uri: string }): { userId: string; workspaceId: string }[] {
    return this.#subscriptions.subscribers(options);
  }

  /** Suggestions for a template variable or prompt argument; none when the server does not offer completions. */
  async complete(options: CompleteOptions): Promise<Completions> {
    const scope = assertScope(options.scope);
    const { serverId, ref, argument } = options;
    const what = `completion of "${argument.name}"`;
    return this.#pool(serverId)
      .withConnection(scope, (connection) =>
        connection.withClient(async (client): Promise<Completions> => {
          if (client.getServerCapabilities()?.completions === undefined) return { values: [] };
          const { completion } = await client.complete(
            {
              ref:
                ref.type === 'ref/resource'
                  ? { type: 'ref/resource', uri: ref.uri }
                  : { type: 'ref/prompt', name: ref.name },
              argument: { name: argument.name, value: argument.value },
              ...(options.context === undefined ? {} : { context: { arguments: { ...options.context } } }),
            },
            signalOf(options.signal),
          );
          return {
            values: completion.values,
            ...(completion.total === undefined ? {} : { total: completion.total }),
            ...(completion.hasMore === undefined ? {} : { hasMore: completion.hasMore }),
          };
        }),
      )
      .catch((error: unknown) => {
        throw requestFailure(serverId, what, error);
      });
  }

  /** Fills a prompt with its arguments (text values); the server checks which it needs. */
  async getPrompt(options: GetPromptOptions): Promise<PromptMessages> {
    const scope = assertScope(options.scope);
    const { serverId, name } = options;
    const args = promptArguments(serverId, name, options.args);
    const what = `prompt "${name}"`;
    const result = await this.#pool(serverId)
      .withConnection(scope, (connection) =>
        connection.withClient((client) => {
          offers(client, serverId, 'prompts', what);
          const get = { method: 'prompts/get', target: name, clock: this.#deps.clock, peer: connection };
          return sendTraced(get, (meta) =>
            client.getPrompt({ name, arguments: args, ...metaOf(meta) }, signalOf(options.signal)),
          );
        }),
      )
      .catch((error: unknown) => {
        throw requestFailure(serverId, what, error);
      });
    return { ...result, serverId, name, ...boundPrompt({ serverId, name, result, limits: this.#deps.limits }) };
  }

  /** The configured server's pool; a disabled server is refused by name (it has no connection to ask). */
  #pool(serverId: string): ServerPool {
    const pool = this.#deps.servers.pool(serverId);
    if (pool.config.disabled) {
      throw new HostError('server_unavailable', `server "${serverId}" is disabled; nothing was asked of it`, {
        data: { serverId, state: 'disabled' },
      });
    }
    return pool;
  }

  #uri(options: ReadResourceOptions): string {
    if (options.template !== undefined) {
      if (options.uri !== undefined) throw new HostError('invalid_arguments', 'give either uri or template, not both');
      return expandTemplate(options.template, options.values ?? {});
    }
    if (typeof options.uri !== 'string' || options.uri === '') {
      throw new HostError('invalid_arguments', `a read of server "${options.serverId}" needs a resource uri`);
    }
    return options.uri;
  }

  async #listing<T extends object>(
    options: { scope: Scope; serverId?: string },
    what: string,
    capability: 'resources' | 'prompts',
    fetch: (client: Client) => Promise<readonly T[]>,
  ): Promise<Listing<T>> {
    // A server that does not declare the capability offers none: it is not asked (the SDK would warn and answer []).
    const ask = (client: Client) =>
      client.getServerCapabilities()?.[capability] === undefined ? Promise.resolve([]) : fetch(client);
    const scope = assertScope(options.scope);
    const { servers } = this.#deps;
    const ids =
      options.serverId === undefined
        ? [...servers.pools.values()].filter((p) => !p.config.disabled).map((p) => p.config.id)
        : [this.#pool(options.serverId).config.id];
    const items: FromServer<T>[] = [];
    const failures: { serverId: string; message: string }[] = [];
    const each = await Promise.allSettled(
      ids.map((id) =>
        servers
          .pool(id)
          .withConnection(scope, (connection) => connection.withClient(ask))
          .catch((error: unknown) => {
            throw requestFailure(id, what, error);
          }),
      ),
    );
    each.forEach((settled, i) => {
      const serverId = ids[i]!;
      if (settled.status === 'fulfilled') items.push(...settled.value.map((item) => ({ ...item, serverId })));
      else if (options.serverId !== undefined) throw settled.reason;
      else failures.push({ serverId, message: (settled.reason as Error).message });
    });
    return { items, failures };
  }

  #audit(scope: Scope, serverId: string, uri: string, caller: string, outcome: string): void {
    this.#deps.writes.write({
      kind: 'audit',
      audit: auditEvent({
        type: 'resource.read',
        at: this.#deps.clock.now(),
        scope,
        serverId,
        data: { uriHash: sha256Hex(uri), caller, outcome },
      }),
    });
  }
}

/**
 * Listings are fetched afresh every time: the SDK would serve a cached one while a server's `ttlMs` lasts, and its
 * eviction on `list_changed` is not relied on (the host owns those notifications, to tell surfaces).
 */
const FRESH = { cacheMode: 'refresh' } as const;

/** Refuses a request to a server that declares no such capability (a server that offers its files as tools only). */
function offers(client: Client, serverId: string, capability: 'resources' | 'prompts', what: string): void {
  if (client.getServerCapabilities()?.[capability] !== undefined) return;
  throw new HostError(
    'not_supported',
    `server "${serverId}" offers no ${capability} (it declares no "${capability}" capability); ${what} was not sent`,
    { data: { serverId, what } },
  );
}

function signalOf(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal === undefined ? {} : { signal };
}

/** A traced request's trace context, as its params' `_meta`. */
function metaOf(meta: Readonly<Record<string, string>> | undefined): { _meta?: Record<string, string> } {
  return meta === undefined ? {} : { _meta: { ...meta } };
}

/** A prompt's arguments as the protocol carries them: text by name. Anything else is refused, naming the argument. */
function promptArguments(
  serverId: string,
  name: string,
  args: Readonly<Record<string, unknown>> | undefined,
): Record<string, string> {
  if (args === undefined) return {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new HostError(
      'invalid_arguments',
      `the arguments of prompt "${name}" of server "${serverId}" must be an object`,
    );
  }
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string') {
      throw new HostError(
        'invalid_arguments',
        `argument "${key}" of prompt "${name}" of server "${serverId}" must be text, not ${value === null ? 'null' : typeof value}`,
        { data: { serverId, prompt: name, argument: key } },
      );
    }
    out[key] = value;
  }
  return out;
}

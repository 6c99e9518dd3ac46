import type { Host, Scope } from '@airlock/core';
import { tenantMatches } from '@airlock/core';
import type { ServerNotifier } from '@modelcontextprotocol/server';
import { followedBody } from './followed-body.js';
import { ResourceOwners } from './resource-owners.js';

/**
 * The resource URIs one user's 2026-07-28 clients listen to over HTTP, and the updates they are told. The SDK's
 * handler answers `subscriptions/listen` itself with a stream fed by its event bus; the gateway gives each user a
 * handler and bus of their own (see gateway-handler.ts) and, here, watches each listen response: while a stream
 * naming a URI is open the host holds the user's subscription to it upstream, and a server's update of it (from the
 * server that owns it, of the user's tenant) is published on the user's bus only.
 */
export class UserListens {
  readonly #host: Host;
  readonly #scope: Scope;
  readonly #notify: ServerNotifier;
  readonly #onerror: (error: Error) => void;
  readonly #owners: ResourceOwners;
  /** How many open streams name each URI. */
  readonly #counts = new Map<string, number>();
  /** The server each listened URI is subscribed on, once the host has subscribed it. */
  readonly #subscribed = new Map<string, string>();
  /** The URIs the host is subscribing now (a stream that ends and another that begins meanwhile share it). */
  readonly #subscribing = new Set<string>();
  /** What the host is being told now (subscriptions and their ends), for {@link UserListens.settled}. */
  readonly #telling = new Set<Promise<void>>();
  readonly #stopUpdates: () => void;
  #closed = false;

  constructor(options: {
    readonly host: Host;
    readonly scope: Scope;
    readonly notify: ServerNotifier;
    readonly onerror: (error: Error) => void;
  }) {
    this.#host = options.host;
    this.#scope = options.scope;
    this.#notify = options.notify;
    this.#onerror = options.onerror;
    this.#owners = new ResourceOwners(options.host, options.scope);
    this.#stopUpdates = options.host.on('resource.updated', ({ serverId, tenant, uri }) => {
      if (this.#subscribed.get(uri) !== serverId) return;
      if (tenant !== undefined && !tenantMatches(tenant, this.#scope)) return;
      this.#notify.resourceUpdated(uri);
    });
  }

  /**
   * Follows the response the SDK gave a `subscriptions/listen` request naming `uris`: when it is the listen stream,
   * the URIs count as listened until the stream ends (the client goes away, or the handler closes it). Returns the
   * response to send, whose body is the SDK's, passed through unchanged.
   */
  watch(uris: readonly string[], response: Response): Response {
    const body = response.body;
    const stream = response.headers.get('content-type')?.startsWith('text/event-stream') === true;
    const named = [...new Set(uris)];
    if (!stream || body === null || named.length === 0 || this.#closed) return response;
    for (const uri of named) this.#listen(uri);
    return followedBody(response, () => {
      for (const uri of named) this.#unlisten(uri);
    });
  }

  /** Settles once the host has been told of every listen begun or ended so far. */
  async settled(): Promise<void> {
    while (this.#telling.size > 0) await Promise.allSettled([...this.#telling]);
  }

  /** Ends the user's upstream subscriptions (the gateway is closing). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#stopUpdates();
    const held = [...this.#subscribed.entries()];
    this.#subscribed.clear();
    this.#counts.clear();
    await Promise.allSettled(
      held.map(([uri, serverId]) => this.#host.resources.unsubscribe({ scope: this.#scope, serverId, uri })),
    );
  }

  #listen(uri: string): void {
    const count = (this.#counts.get(uri) ?? 0) + 1;
    this.#counts.set(uri, count);
    if (count > 1 || this.#subscribed.has(uri) || this.#subscribing.has(uri)) return;
    this.#subscribing.add(uri);
    // The acknowledgement already went out: a URI no server lists is only left out, and the failure reported.
    this.#tell(
      async () => {
        const serverId = await this.#owners.ownerOf(uri);
        await this.#host.resources.subscribe({ scope: this.#scope, serverId, uri });
        // The last stream naming it may have ended while the server was told: then it ends at once, not never.
        if (this.#closed || !this.#counts.has(uri)) {
          await this.#host.resources.unsubscribe({ scope: this.#scope, serverId, uri });
        } else {
          this.#subscribed.set(uri, serverId);
        }
      },
      () => this.#subscribing.delete(uri),
    );
  }

  #unlisten(uri: string): void {
    const count = (this.#counts.get(uri) ?? 1) - 1;
    if (count > 0) {
      this.#counts.set(uri, count);
      return;
    }
    this.#counts.delete(uri);
    const serverId = this.#subscribed.get(uri);
    if (serverId === undefined) return;
    this.#subscribed.delete(uri);
    this.#tell(() => this.#host.resources.unsubscribe({ scope: this.#scope, serverId, uri }));
  }

  /** Runs one telling of the host, reporting its failure (nothing on the wire depends on it), then `done`. */
  #tell(telling: () => Promise<void>, done?: () => void): void {
    const told: Promise<void> = telling()
      .catch((error: unknown) => this.#onerror(error instanceof Error ? error : new Error(String(error))))
      .finally(() => {
        done?.();
        this.#telling.delete(told);
      });
    this.#telling.add(told);
  }
}

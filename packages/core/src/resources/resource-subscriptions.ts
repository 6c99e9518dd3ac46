import { HostError } from '../errors/host-error.js';
import type { ServerEvents } from '../servers/server-events.js';
import type { ServerPool } from '../servers/server-pool.js';
import { requestFailure } from './request-failure.js';
import type { Scope } from '../scope.js';
import { assertScope } from '../scope.js';

/** What resource subscriptions are wired to. */
export interface ResourceSubscriptionsDeps {
  readonly events: ServerEvents;
  /** The configured server's pool (a disabled server refused by name). */
  readonly pool: (serverId: string) => ServerPool;
}

/** One URI subscribed on one connection: who asked, and a scope that reaches that connection again. */
interface Subscription {
  readonly serverId: string;
  readonly tenant: string;
  readonly uri: string;
  readonly scope: Scope;
  /**
   * Who follows it: each conversation of a user in a workspace holds its own subscription (two sessions of one user
   * each subscribe and unsubscribe), by a key that cannot mix the three ids.
   */
  readonly who: Map<string, { readonly userId: string; readonly workspaceId: string }>;
  /** Lets the connection close again once nobody is subscribed (a subscribed tenant connection never idles out). */
  release?: () => void;
}

/**
 * Who subscribed to each URI on each connection (a tenant's own, for a server per user or workspace): the server is
 * told once, and told to stop after the last; a connection that came back is told again, one that closed ends them.
 */
export class ResourceSubscriptions {
  readonly #deps: ResourceSubscriptionsDeps;
  readonly #subscriptions = new Map<string, Subscription>();

  constructor(deps: ResourceSubscriptionsDeps) {
    this.#deps = deps;
    // A connection that came back (a reconnect, a restart) has forgotten its subscriptions: they are sent again. One
    // that closed (a tenant's, idle or signed out) ends them: a later subscribe sends afresh.
    deps.events.on('server.state', ({ serverId, tenant = '', state }) => {
      if (state !== 'ready' && state !== 'closed') return;
      for (const [key, sub] of this.#subscriptions) {
        if (sub.serverId !== serverId || sub.tenant !== tenant) continue;
        if (state === 'closed') this.#end(key, sub);
        else void this.#send(sub, true).catch((error: unknown) => this.#lost(sub, error));
      }
    });
  }

  /** Subscribes (`on`) or unsubscribes the scope's conversation; the server hears of the first and the last only. */
  async change(options: { scope: Scope; serverId: string; uri: string }, on: boolean): Promise<void> {
    const scope = assertScope(options.scope);
    const { serverId, uri } = options;
    const tenant = this.#deps.pool(serverId).tenantOf(scope) ?? '';
    const key = `${serverId}\n${tenant}\n${uri}`;
    const who = JSON.stringify([scope.userId, scope.workspaceId, scope.conversationId]);
    const known = this.#subscriptions.get(key);
    const sub: Subscription = known ?? { serverId, tenant, uri, scope, who: new Map() };
    const send = on ? sub.who.size === 0 : sub.who.size === 1 && sub.who.has(who);
    if (send) await this.#send({ ...sub, scope }, on);
    if (on) sub.who.set(who, { userId: scope.userId, workspaceId: scope.workspaceId });
    else sub.who.delete(who);
    if (sub.who.size === 0) return this.#end(key, sub);
    sub.release ??= this.#deps.pool(serverId).hold(scope);
    this.#subscriptions.set(key, sub);
  }

  /**
   * Who follows a URI on a server's connection (`tenant` as a `resource.updated` event names it): an update is told
   * to them only, since a URI built from a template may carry one user's data.
   */
  subscribers(options: { serverId: string; tenant?: string; uri: string }): { userId: string; workspaceId: string }[] {
    const sub = this.#subscriptions.get(`${options.serverId}\n${options.tenant ?? ''}\n${options.uri}`);
    if (sub === undefined) return [];
    const users = new Map([...sub.who.values()].map((u) => [JSON.stringify([u.userId, u.workspaceId]), u]));
    return [...users.values()];
  }

  /** A subscription nobody holds any more, or whose connection is gone: forgotten, its connection let go. */
  #end(key: string, sub: Subscription): void {
    this.#subscriptions.delete(key);
    sub.release?.();
  }

  /** Sends `resources/subscribe` (or unsubscribe) on the connection of `sub.scope`. */
  async #send(sub: Subscription, on: boolean): Promise<void> {
    const { serverId, uri } = sub;
    const what = `${on ? 'the subscription to' : 'the end of the subscription to'} resource ${JSON.stringify(uri)}`;
    await this.#deps
      .pool(serverId)
      .withConnection(sub.scope, (connection) =>
        connection.withClient(async (client) => {
          if (client.getServerCapabilities()?.resources?.subscribe !== true) {
            throw new HostError('not_supported', `server "${serverId}" does not offer resource subscriptions`, {
              data: { serverId, uri },
            });
          }
          await (on ? client.subscribeResource({ uri }) : client.unsubscribeResource({ uri }));
        }),
      )
      .catch((error: unknown) => {
        throw requestFailure(serverId, what, error);
      });
  }

  /** A subscription that could not be sent again after a reconnect: dropped, and said as a warning. */
  #lost(sub: Subscription, error: unknown): void {
    this.#end(`${sub.serverId}\n${sub.tenant}\n${sub.uri}`, sub);
    this.#deps.events.emit('server.warning', {
      serverId: sub.serverId,
      ...(sub.tenant === '' ? {} : { tenant: sub.tenant }),
      message: `the subscription to resource ${JSON.stringify(sub.uri)} was lost: ${(error as Error).message}`,
    });
  }
}

import { SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';

/** Told when a resource URI gains its first listening subscription (`true`) or loses its last (`false`). */
export type ListenedChange = (uri: string, listened: boolean) => void;

/**
 * The resource URIs a 2026-07-28 client listens to on one stdio connection. That revision has no
 * `resources/subscribe`: a `subscriptions/listen` request names the URIs in its filter, and the SDK's serving entry
 * answers it before the gateway's server sees it. So this reads the wire both ways: a subscription counts from the
 * acknowledgement the entry sends (the filter it honoured) until the client cancels it or the entry ends it, and the
 * gateway subscribes upstream to each URI while at least one subscription names it.
 */
export class ListenedResources {
  readonly #bySubscription = new Map<RequestId, readonly string[]>();
  readonly #counts = new Map<string, number>();
  #follower: ListenedChange | undefined;

  /** Reads one message from the client: the cancellation of a listen request ends its subscription. */
  inbound(message: JSONRPCMessage): void {
    // Every message passes here: a look at two fields, not a schema parse.
    if (!('method' in message) || 'id' in message || message.method !== 'notifications/cancelled') return;
    const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
    if (id !== undefined) this.#end(id);
  }

  /**
   * Reads one message to the client: an acknowledged listen starts a subscription of the URIs it honoured; the
   * listen request's (empty) result, the entry's graceful close, ends it.
   */
  outbound(message: JSONRPCMessage): void {
    if ('result' in message) {
      this.#end(message.id);
      return;
    }
    if (!('method' in message) || 'id' in message || message.method !== 'notifications/subscriptions/acknowledged') {
      return;
    }
    const params = message.params as
      { notifications?: { resourceSubscriptions?: unknown }; _meta?: Record<string, unknown> } | undefined;
    const id = params?._meta?.[SUBSCRIPTION_ID_META_KEY] as RequestId | undefined;
    const uris = params?.notifications?.resourceSubscriptions;
    if (id === undefined || !Array.isArray(uris)) return;
    const named = [...new Set(uris.filter((uri): uri is string => typeof uri === 'string'))];
    this.#end(id);
    this.#bySubscription.set(id, named);
    for (const uri of named) {
      const count = (this.#counts.get(uri) ?? 0) + 1;
      this.#counts.set(uri, count);
      if (count === 1) this.#follower?.(uri, true);
    }
  }

  /** Whether some subscription names `uri` now. */
  has(uri: string): boolean {
    return this.#counts.has(uri);
  }

  /** Follows the listened URIs (one follower: the connection's server), told at once of those listened already. */
  follow(follower: ListenedChange): () => void {
    this.#follower = follower;
    for (const uri of this.#counts.keys()) follower(uri, true);
    return () => {
      if (this.#follower === follower) this.#follower = undefined;
    };
  }

  #end(id: RequestId): void {
    const uris = this.#bySubscription.get(id);
    if (uris === undefined) return;
    this.#bySubscription.delete(id);
    for (const uri of uris) {
      const count = (this.#counts.get(uri) ?? 1) - 1;
      if (count > 0) {
        this.#counts.set(uri, count);
        continue;
      }
      this.#counts.delete(uri);
      this.#follower?.(uri, false);
    }
  }
}

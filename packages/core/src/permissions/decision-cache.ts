import type { Scope } from '../scope.js';
import type { DecisionTenant, HostStore } from '../store/host-store.js';
import type { DecisionLookup } from './resolve-permission.js';
import type { StoredDecision } from '../store/decision-record.js';
import { conversationKeySuffix, decisionKey } from '../store/decision-record.js';

/**
 * The stored decisions in memory, by lookup key, so the gate decides a call without waiting on the store or on a
 * server's tools/list. Filled once from the store at start (`load`); kept in step by the engine as decisions are
 * stored, changed and revoked.
 */
export class DecisionCache implements DecisionLookup {
  readonly #byKey = new Map<string, StoredDecision>();
  /** How many decisions hold for exact arguments only: while none does, a call's arguments need no hash. */
  #argsGrain = 0;
  /** How many decisions hold in one conversation only: while none does, a call needs no third lookup. */
  #conversationGrain = 0;
  /** Per tenant, server id and tool: how many decisions each server identity holds, to tell a changed server. */
  readonly #identities = new Map<string, Map<string, number>>();
  #loaded = false;

  /** False until `load` has finished: until then the gate asks every call rather than miss a deny. */
  get loaded(): boolean {
    return this.#loaded;
  }

  /** Takes in the decisions a store holds; resolves when they are all in memory. */
  load(decisions: Promise<readonly StoredDecision[]>): Promise<void> {
    return decisions.then((all) => {
      for (const decision of all) this.remember(decision);
      this.#loaded = true;
    });
  }

  find(prefix: string, argsHash: () => string, conversationId?: string): StoredDecision | undefined {
    // At most three lookups, the narrowest first: this runs before every call.
    return (
      (this.#argsGrain > 0 ? this.#byKey.get(prefix + argsHash()) : undefined) ??
      (this.#conversationGrain > 0 && conversationId !== undefined
        ? this.#byKey.get(prefix + conversationKeySuffix(conversationId))
        : undefined) ??
      this.#byKey.get(prefix)
    );
  }

  heldUnderOtherIdentity(
    scope: Pick<Scope, 'userId' | 'workspaceId'>,
    serverId: string,
    tool: string,
    identity: string,
  ): boolean {
    const held = this.#identities.get(serverToolKey(scope.userId, scope.workspaceId, serverId, tool));
    return held !== undefined && (held.size > 1 || !held.has(identity));
  }

  /** Adds a decision, or replaces the one with the same key. */
  remember(decision: StoredDecision): void {
    const key = decisionKey(decision);
    const replaced = this.#byKey.get(key);
    if (replaced !== undefined) this.#count(replaced, -1);
    this.#byKey.set(key, decision);
    this.#count(decision, 1);
  }

  /** Drops a decision (found by its key); one not held changes nothing. */
  forget(decision: StoredDecision): void {
    const key = decisionKey(decision);
    const held = this.#byKey.get(key);
    if (held === undefined) return;
    this.#byKey.delete(key);
    this.#count(held, -1);
  }

  /** Drops this very decision (by its id): one its key now holds in its place stays. */
  forgetExactly(decision: StoredDecision): void {
    if (this.#byKey.get(decisionKey(decision))?.id === decision.id) this.forget(decision);
  }

  #count(d: StoredDecision, by: 1 | -1): void {
    if (d.argsHash !== null) this.#argsGrain += by;
    if (d.conversationId !== undefined) this.#conversationGrain += by;
    const key = serverToolKey(d.userId, d.workspaceId, d.serverId, d.tool);
    let held = this.#identities.get(key);
    if (held === undefined) this.#identities.set(key, (held = new Map<string, number>()));
    const n = (held.get(d.serverIdentity) ?? 0) + by;
    if (n > 0) held.set(d.serverIdentity, n);
    else held.delete(d.serverIdentity);
    if (held.size === 0) this.#identities.delete(key);
  }

  /** Replaces the tenant's decisions (every tenant's when `tenant` is undefined) with those the store now holds. */
  replace(tenant: DecisionTenant | undefined, decisions: readonly StoredDecision[]): void {
    for (const held of [...this.#byKey.values()]) {
      if (tenant === undefined || (held.userId === tenant.userId && held.workspaceId === tenant.workspaceId)) {
        this.forget(held);
      }
    }
    for (const decision of decisions) this.remember(decision);
  }

  /** The tenant's decisions, newest first. Another tenant's are never in the list. */
  list(scope: Pick<Scope, 'userId' | 'workspaceId'>): StoredDecision[] {
    return [...this.#byKey.values()]
      .filter((d) => d.userId === scope.userId && d.workspaceId === scope.workspaceId)
      .sort((a, b) => b.grantedAt - a.grantedAt);
  }
}

function serverToolKey(userId: string, workspaceId: string, serverId: string, tool: string): string {
  return `${userId}\u0000${workspaceId}\u0000${serverId}\u0000${tool}`;
}

/**
 * Keeps `cache` in step with a store other hosts write too (`HostStore.watchDecisions`): each change the store tells
 * of reloads that tenant's decisions (all, when it names none), after the start-up load and one reload at a time, in
 * the order told. A store only this host writes tells nothing, and this does nothing.
 */
export function followStoreDecisions(cache: DecisionCache, store: HostStore, loaded: Promise<void>): void {
  let queue = loaded.catch(() => undefined);
  store.watchDecisions?.((tenant) => {
    queue = queue
      .then(() => store.listDecisions(tenant ?? {}))
      .then((decisions) => cache.replace(tenant, decisions))
      // A reload that fails leaves what is held; the next change tells again.
      .catch(() => undefined);
  });
}

import type { Scope } from '../scope.js';
import type { DecisionLookup } from './resolve-permission.js';
import type { StoredDecision } from './stored-decision.js';
import { decisionKey } from './stored-decision.js';

/**
 * The stored decisions in memory, by lookup key, so the gate decides a call without waiting on the store or on a
 * server's tools/list. Filled once from the store at start (`load`); kept in step by the engine as decisions are
 * stored, changed and revoked.
 */
export class DecisionCache implements DecisionLookup {
  readonly #byKey = new Map<string, StoredDecision>();
  /** How many decisions hold for exact arguments only: while none does, a call's arguments need no hash. */
  #argsGrain = 0;
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

  find(prefix: string, argsHash: () => string): StoredDecision | undefined {
    // Two lookups, these exact arguments first: this runs before every call.
    return (this.#argsGrain > 0 ? this.#byKey.get(prefix + argsHash()) : undefined) ?? this.#byKey.get(prefix);
  }

  /** Adds a decision, or replaces the one with the same key. */
  remember(decision: StoredDecision): void {
    const key = decisionKey(decision);
    if (this.#byKey.get(key)?.argsHash != null) this.#argsGrain -= 1;
    this.#byKey.set(key, decision);
    if (decision.argsHash !== null) this.#argsGrain += 1;
  }

  /** Drops a decision (found by its key); one not held changes nothing. */
  forget(decision: StoredDecision): void {
    const key = decisionKey(decision);
    const held = this.#byKey.get(key);
    if (held === undefined) return;
    this.#byKey.delete(key);
    if (held.argsHash !== null) this.#argsGrain -= 1;
  }

  /** The tenant's decisions, newest first. Another tenant's are never in the list. */
  list(scope: Pick<Scope, 'userId' | 'workspaceId'>): StoredDecision[] {
    return [...this.#byKey.values()]
      .filter((d) => d.userId === scope.userId && d.workspaceId === scope.workspaceId)
      .sort((a, b) => b.grantedAt - a.grantedAt);
  }
}

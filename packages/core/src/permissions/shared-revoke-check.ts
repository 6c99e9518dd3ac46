import type { PreCallVerdict } from '../invocations/pre-call-chain.js';
import type { HostStore } from '../store/host-store.js';
import type { DecisionCache } from './decision-cache.js';
import type { StoredDecision } from '../store/decision-record.js';

/**
 * Whether a stored allow held in memory still lets a call run, asked of the store: `true` when the store holds an
 * allow under the same key for the same tool definition that has not run out; `false` after the cache was brought in
 * line with what the store holds (the allow dropped, or replaced by the store's decision), so deciding again sees it.
 */
export type SharedRevokeCheck = (held: StoredDecision) => Promise<boolean>;

/**
 * The check of stored allows against a store several hosts share (one with `watchDecisions` and `findDecision`):
 * a revoke made on another host reaches this host's memory by a notification, and until it arrives the store is
 * authoritative, so a revoked allow never runs a call. `now` is the host clock's wall time. A store only this host writes gives undefined: memory is the
 * truth there, and calls stay on the synchronous path.
 */
export function sharedRevokeCheck(
  store: HostStore,
  cache: DecisionCache,
  now: () => number,
): SharedRevokeCheck | undefined {
  if (store.watchDecisions === undefined || store.findDecision === undefined) return undefined;
  const find = store.findDecision.bind(store);
  return async (held) => {
    const current = await find(held);
    if (
      current !== undefined &&
      current.effect === 'allow' &&
      current.definitionHash === held.definitionHash &&
      (current.expiresAt === null || current.expiresAt > now())
    ) {
      return true;
    }
    if (current === undefined) cache.forgetExactly(held);
    else cache.remember(current);
    return false;
  };
}

/** A stored allow to confirm before its call runs, and what confirms it. */
export interface StoreCheck {
  readonly held: StoredDecision;
  readonly by: SharedRevokeCheck;
}

/**
 * A call a stored allow lets run, once the store has confirmed the allow: `record` records it and `verdict` allows
 * it; else `again` decides it afresh from the corrected memory (now asked, denied, or decided by another stored
 * decision). A store that cannot be read denies the call rather than run it on an allow it could not confirm, and
 * `refuse` records that deny (audited like any other).
 */
export async function afterStoreCheck(
  check: StoreCheck,
  decided: {
    readonly verdict: PreCallVerdict;
    readonly record: () => void;
    readonly refuse: (reason: string) => void;
  },
  again: () => PreCallVerdict | undefined | Promise<PreCallVerdict | undefined>,
): Promise<PreCallVerdict | undefined> {
  const { held, by } = check;
  let confirmed: boolean;
  try {
    confirmed = await by(held);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const reason = `the stored allow of ${held.tool} could not be checked against the shared store (${why}); it was not run`;
    decided.refuse(reason);
    return { allow: false, reason };
  }
  if (!confirmed) return again();
  decided.record();
  return decided.verdict;
}

import { storedViewConsent, storedViewConsentKey } from '../view-consent-checks.js';
import type { DecisionTenant, StoreWrite } from '../../store/host-store.js';
import type { ViewConsentFilter, ViewConsentKey, ViewConsentRecord } from '../../store/view-consent-record.js';

const keyOf = (k: ViewConsentKey) => JSON.stringify([k.userId, k.workspaceId, k.serverId, k.uri, k.permission]);

/** Key order, as the databases sort a list. */
const byKey = (a: ViewConsentRecord, b: ViewConsentRecord) =>
  compare(a.serverId, b.serverId) || compare(a.uri, b.uri) || compare(a.permission, b.permission);
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The views' browser-permission consents of a `MemoryStore`, by key. Each change returns what takes it back, so a
 * refused batch leaves none of its writes.
 */
export class MemoryViewConsents {
  readonly #rows = new Map<string, ViewConsentRecord>();

  /** Applies a `viewConsent.put` or `viewConsent.delete` write; returns what takes it back. */
  apply(write: Extract<StoreWrite, { kind: 'viewConsent.put' | 'viewConsent.delete' }>): () => void {
    const record = write.kind === 'viewConsent.put' ? storedViewConsent(write.record) : undefined;
    const key = keyOf(record ?? storedViewConsentKey(write.kind === 'viewConsent.delete' ? write.key : write.record));
    const previous = this.#rows.get(key);
    if (record === undefined) this.#rows.delete(key);
    else this.#rows.set(key, record);
    return () => {
      if (previous === undefined) this.#rows.delete(key);
      else this.#rows.set(key, previous);
    };
  }

  list(tenant: DecisionTenant, filter?: ViewConsentFilter): ViewConsentRecord[] {
    return [...this.#rows.values()]
      .filter(
        (r) =>
          r.userId === tenant.userId &&
          r.workspaceId === tenant.workspaceId &&
          (filter?.serverId === undefined || r.serverId === filter.serverId) &&
          (filter?.uri === undefined || r.uri === filter.uri),
      )
      .sort(byKey)
      .map((r) => ({ ...r }));
  }
}

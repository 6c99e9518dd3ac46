import type { HostStore } from '../storage/host-store.js';
import { describeAuditContract } from './host-store-audit-contract.js';
import { describeCredentialContract } from './host-store-credential-contract.js';
import { describeDecisionContract } from './host-store-decision-contract.js';
import { describeGroupContract } from './host-store-group-contract.js';
import { describeHistoryContract } from './host-store-history-contract.js';
import { describePruneContract } from './host-store-prune-contract.js';
import { describeRetentionContract } from './host-store-retention-contract.js';
import { describeTaskContract } from './host-store-task-contract.js';
import { describeWriteContract } from './host-store-write-contract.js';

/** What a backend's test hands the contract: a fresh, empty store, and how to reopen and dispose of it. */
export interface OpenedStore {
  readonly store: HostStore;
  /** Closes the store and opens the same data again; given only by stores that persist. */
  readonly reopen?: () => Promise<HostStore>;
  /** Releases everything `open` made (closed or not). */
  readonly cleanup: () => Promise<void>;
}

/** What `describeHostStoreContract` runs over: a backend's name and how to open a fresh, empty store of it. */
export interface HostStoreContractOptions {
  /** Names the `describe` blocks, e.g. 'SqliteStore'. */
  readonly name: string;
  /** Opens a fresh, empty store for one case; the case disposes of it with `cleanup`. */
  readonly open: () => Promise<OpenedStore>;
}

/**
 * Declares the one contract every `HostStore` keeps, as vitest `describe` blocks named after the backend: history,
 * the store's one write (batches: order, atomicity, every kind of write), the audit chain, permission decisions and
 * credentials. Each case gets a fresh store from `open` and disposes of it afterwards. Ship a store only when it passes
 * all of them: the host relies on nothing else.
 *
 * @example
 * ```ts
 * import { describeHostStoreContract } from '@airlock/core/testing';
 * describeHostStoreContract({ name: 'PostgresStore', open: async () => ({ store, cleanup }) });
 * ```
 */
export function describeHostStoreContract(options: HostStoreContractOptions): void {
  describeHistoryContract(options);
  describeWriteContract(options);
  describeGroupContract(options);
  describeAuditContract(options);
  describeDecisionContract(options);
  describePruneContract(options);
  describeRetentionContract(options);
  describeCredentialContract(options);
  describeTaskContract(options);
}

import type { HostStore } from '../store/host-store.js';

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

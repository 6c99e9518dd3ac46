import { afterEach, beforeEach } from 'vitest';
import type { OpenedStore } from './store-contract-options.js';

/**
 * Opens a fresh store before each test of the enclosing `describe` and cleans it up after: every part of the
 * contract starts from an empty store. `use` receives the store just opened (awaited, so it may write a fixture).
 */
export function openStorePerTest(options: {
  readonly open: () => Promise<OpenedStore>;
  readonly use: (opened: OpenedStore) => void | Promise<void>;
}): void {
  let opened: OpenedStore | undefined;
  beforeEach(async () => {
    opened = await options.open();
    await options.use(opened);
  });
  afterEach(async () => {
    await opened?.cleanup();
    opened = undefined;
  });
}

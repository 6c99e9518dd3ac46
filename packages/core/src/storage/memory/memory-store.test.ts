// The contract comes through the shipped entry (the built package), as a third-party store would take it.
import { describeHostStoreContract } from '@airlock/core/testing';
import { MemoryStore } from './memory-store.js';

describeHostStoreContract({
  name: 'MemoryStore',
  open: () => {
    const store = new MemoryStore();
    return Promise.resolve({ store, cleanup: () => store.close() });
  },
});

import { MemoryStore } from './memory-store.js';
import { describeHostStoreContract } from './testing/host-store-contract.js';

describeHostStoreContract('MemoryStore', () => {
  const store = new MemoryStore();
  return Promise.resolve({ store, cleanup: () => store.close() });
});

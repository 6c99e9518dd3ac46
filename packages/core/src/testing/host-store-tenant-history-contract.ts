import { describe, expect, it } from 'vitest';
import { openStorePerTest } from './open-store-per-test.js';
import type { HostStore } from '../store/host-store.js';
import type { HostStoreContractOptions } from './store-contract-options.js';
import { SCOPE, createWrite, invocation } from './host-store-fixtures.js';

/**
 * History across a user's conversations (`allConversations`): every conversation of the scope's user in its
 * workspace, newest first and paged like one conversation, and never another user's or another workspace's calls.
 * Declared by `describeHostStoreContract`.
 */
export function describeTenantHistoryContract(options: HostStoreContractOptions): void {
  describe(`${options.name} (HostStore contract: history across conversations)`, () => {
    let store: HostStore;
    openStorePerTest({ open: options.open, use: (opened) => void (store = opened.store) });

    it("lists every conversation of the user in the workspace, newest first, and no one else's", async () => {
      const elsewhere = { ...SCOPE, conversationId: 'c-other' };
      const calls = [
        invocation({ createdAt: 1000 }),
        invocation({ createdAt: 3000, scope: elsewhere }),
        invocation({ createdAt: 2000 }),
        invocation({ createdAt: 4000, scope: { ...SCOPE, userId: 'someone-else' } }),
        invocation({ createdAt: 5000, scope: { ...SCOPE, workspaceId: 'other-workspace' } }),
      ];
      for (const call of calls) await store.write([createWrite(call)]);
      const across = async (page: { limit?: number; before?: number } = {}) =>
        (await store.listInvocations(SCOPE, { ...page, allConversations: true })).map((r) => r.createdAt);

      expect(await across()).toEqual([3000, 2000, 1000]);
      expect(await across({ limit: 2 })).toEqual([3000, 2000]);
      expect(await across({ limit: 2, before: 2000 })).toEqual([1000]);
      expect((await store.listInvocations(SCOPE)).map((r) => r.createdAt)).toEqual([2000, 1000]);
      expect((await store.listInvocations(elsewhere, { allConversations: true }))[0]?.scope).toEqual(elsewhere);
    });
  });
}

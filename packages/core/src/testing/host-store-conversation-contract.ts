import { describe, expect, it } from 'vitest';
import type { ConversationRecord } from '../store/conversation-record.js';
import type { HostStore } from '../store/host-store.js';
import type { HostStoreContractOptions } from './store-contract-options.js';
import { expectRejection } from './host-store-fixtures.js';
import { openStorePerTest } from './open-store-per-test.js';

const TENANT = { userId: 'user-a', workspaceId: 'workspace-a' };

function conversation(overrides: Partial<ConversationRecord> = {}): ConversationRecord {
  return {
    ...TENANT,
    id: 'conversation-a',
    title: 'Which files changed?',
    createdAt: 1_000,
    updatedAt: 1_000,
    messages: '[{"role":"user","content":"Which files changed?"}]',
    lines: '[{"id":1,"role":"user","text":"Which files changed?"}]',
    context: '{"views":[]}',
    ...overrides,
  };
}

/**
 * The conversation part of the `HostStore` contract: a tenant's conversations kept whole as given, replaced whole
 * (the first `createdAt` kept; only over the revision a write names, when it names one), listed newest first without
 * their contents, invisible to another tenant, deleted by id, listed across tenants by age for retention, refused
 * with the field named when a store could not keep them. Declared by `describeHostStoreContract`.
 */
export function describeConversationContract(options: HostStoreContractOptions): void {
  const { name, open } = options;
  describe(`${name} (HostStore contract: conversations)`, () => {
    let store: HostStore;
    openStorePerTest({
      open,
      use: (next) => {
        store = next.store;
      },
    });

    it('keeps a conversation whole and reads it back by tenant and id', async () => {
      await store.write([{ kind: 'conversation.put', record: conversation() }]);

      expect(await store.getConversation(TENANT, 'conversation-a')).toEqual(conversation());
      expect(await store.getConversation(TENANT, 'conversation-b')).toBeUndefined();
    });

    it('replaces a conversation whole and keeps the time it was first kept', async () => {
      await store.write([{ kind: 'conversation.put', record: conversation() }]);
      await store.write([
        {
          kind: 'conversation.put',
          record: conversation({
            title: 'Renamed',
            createdAt: 9_000,
            updatedAt: 2_000,
            messages: '[]',
            lines: '[]',
            context: '{}',
          }),
        },
      ]);

      expect(await store.getConversation(TENANT, 'conversation-a')).toEqual(
        conversation({
          title: 'Renamed',
          createdAt: 1_000,
          updatedAt: 2_000,
          messages: '[]',
          lines: '[]',
          context: '{}',
        }),
      );
    });

    it('lists a tenant’s conversations newest first, without their contents, up to the limit', async () => {
      await store.write([
        { kind: 'conversation.put', record: conversation({ id: 'old', updatedAt: 1 }) },
        { kind: 'conversation.put', record: conversation({ id: 'new', updatedAt: 3 }) },
        { kind: 'conversation.put', record: conversation({ id: 'middle', updatedAt: 2 }) },
      ]);

      const list = await store.listConversations(TENANT);
      expect(list.map((c) => c.id)).toEqual(['new', 'middle', 'old']);
      expect(list[0]).toEqual({ ...TENANT, id: 'new', title: 'Which files changed?', createdAt: 1_000, updatedAt: 3 });
      expect((await store.listConversations(TENANT, { limit: 2 })).map((c) => c.id)).toEqual(['new', 'middle']);
    });

    it('shows another tenant nothing, and deletes only the tenant’s own', async () => {
      await store.write([{ kind: 'conversation.put', record: conversation() }]);
      const other = { userId: 'user-b', workspaceId: 'workspace-a' };

      expect(await store.getConversation(other, 'conversation-a')).toBeUndefined();
      expect(await store.listConversations(other)).toEqual([]);
      expect(await store.listConversations({ userId: 'user-a', workspaceId: 'workspace-b' })).toEqual([]);
      await store.write([{ kind: 'conversation.delete', tenant: other, id: 'conversation-a' }]);
      expect(await store.getConversation(TENANT, 'conversation-a')).toBeDefined();

      await store.write([{ kind: 'conversation.delete', tenant: TENANT, id: 'conversation-a' }]);
      expect(await store.getConversation(TENANT, 'conversation-a')).toBeUndefined();
    });

    it('replaces only the revision a write names, refusing it with conflict over another, and nothing of its batch', async () => {
      await store.write([{ kind: 'conversation.put', record: conversation(), ifUpdatedAt: null }]);
      // A second first revision (another writer's): refused, the first kept.
      await expectRejection(
        store.write([{ kind: 'conversation.put', record: conversation({ title: 'Mine' }), ifUpdatedAt: null }]),
        'conflict',
      );
      const next = conversation({ title: 'Second', updatedAt: 2_000 });
      await store.write([{ kind: 'conversation.put', record: next, ifUpdatedAt: 1_000 }]);
      // A writer still holding revision 1 000 cannot overwrite 2 000, nor the rest of its batch be kept.
      const refused = await expectRejection(
        store.write([
          { kind: 'conversation.put', record: conversation({ id: 'other' }) },
          { kind: 'conversation.put', record: conversation({ title: 'Stale', updatedAt: 3_000 }), ifUpdatedAt: 1_000 },
        ]),
        'conflict',
      );
      expect(refused.data).toMatchObject({ id: 'conversation-a' });
      expect(await store.getConversation(TENANT, 'conversation-a')).toEqual(next);
      expect(await store.getConversation(TENANT, 'other')).toBeUndefined();
    });

    it('lists every tenant’s conversations not updated since a time, oldest first, for a retention sweep', async () => {
      const other = { userId: 'user-b', workspaceId: 'workspace-b' };
      await store.write([
        { kind: 'conversation.put', record: conversation({ id: 'recent', updatedAt: 5_000 }) },
        { kind: 'conversation.put', record: conversation({ id: 'b-old', updatedAt: 2_000 }) },
        { kind: 'conversation.put', record: conversation({ ...other, id: 'theirs', updatedAt: 1_500 }) },
        { kind: 'conversation.put', record: conversation({ id: 'a-old', updatedAt: 2_000 }) },
        { kind: 'conversation.put', record: conversation({ id: 'edge', updatedAt: 4_000 }) },
      ]);

      const stale = await store.listStaleConversations({ before: 4_000, limit: 10 });
      expect(stale.map((c) => [c.userId, c.id])).toEqual([
        ['user-b', 'theirs'],
        ['user-a', 'a-old'],
        ['user-a', 'b-old'],
      ]);
      expect(stale[0]).toEqual({
        ...other,
        id: 'theirs',
        title: 'Which files changed?',
        createdAt: 1_000,
        updatedAt: 1_500,
      });
      expect((await store.listStaleConversations({ before: 4_000, limit: 1 })).map((c) => c.id)).toEqual(['theirs']);
      expect(await store.listStaleConversations({ before: 1_000, limit: 10 })).toEqual([]);
      await expectRejection(store.listStaleConversations({ before: 4_000, limit: 0 }), 'invalid_arguments');
    });

    it('refuses what it could not keep, naming the field, and keeps nothing of that batch', async () => {
      const refused = await expectRejection(
        store.write([
          { kind: 'conversation.put', record: conversation({ id: 'first' }) },
          { kind: 'conversation.put', record: conversation({ title: 'x'.repeat(201) }) },
        ]),
        'invalid_arguments',
      );
      expect(refused.data).toMatchObject({ field: 'title' });
      expect(await store.getConversation(TENANT, 'first')).toBeUndefined();
      await expectRejection(
        store.write([{ kind: 'conversation.put', record: conversation({ id: '' }) }]),
        'invalid_arguments',
      );
      await expectRejection(store.listConversations(TENANT, { limit: 0 }), 'invalid_arguments');
    });
  });
}

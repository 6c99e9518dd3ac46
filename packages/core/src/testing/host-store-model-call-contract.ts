import { describe, expect, it } from 'vitest';
import { openStorePerTest } from './open-store-per-test.js';
import type { HostStore } from '../store/host-store.js';
import type { HostStoreContractOptions, OpenedStore } from './store-contract-options.js';
import { SCOPE, createWrite, invocation, move, resultFor, transitionWrite } from './host-store-fixtures.js';

/**
 * The model's own id for a call (`InvocationRecord.modelCallId`) and the id of the message whose turn made it
 * (`messageId`), part of the `HostStore` contract: kept from the
 * create through every transition, whether the call ends in the batch that created it or in later ones, and across a
 * reopen; a call created without one reads back without one. Declared by `describeHostStoreContract`.
 */
export function describeModelCallContract(options: HostStoreContractOptions): void {
  const { name, open } = options;
  describe(`${name} (HostStore contract: the model's call id)`, () => {
    let opened: OpenedStore;
    let store: HostStore;
    openStorePerTest({
      open,
      use: (next) => {
        opened = next;
        store = next.store;
      },
    });

    it("keeps the model's id of a call that starts and ends in one batch", async () => {
      const record = invocation({ caller: { kind: 'model' }, modelCallId: 'call_8FhX2 toolu_01 ✓' });
      await store.write([
        createWrite(record),
        transitionWrite(move(record, 2, 'pending', 'running')),
        transitionWrite(move(record, 3, 'running', 'success', 'success'), { result: resultFor(record.id) }),
      ]);

      expect(await store.getInvocation(SCOPE, record.id)).toMatchObject({
        modelCallId: 'call_8FhX2 toolu_01 ✓',
        state: 'success',
      });
    });

    it("keeps the model's id through transitions written one batch at a time, and lists it", async () => {
      const record = invocation({ caller: { kind: 'model' }, modelCallId: 'call-across-batches' });
      await store.write([createWrite(record)]);
      await store.write([transitionWrite(move(record, 2, 'pending', 'cancelled', 'permission_denied'))]);

      expect(await store.getInvocation(SCOPE, record.id)).toEqual({
        ...record,
        state: 'cancelled',
        outcome: 'permission_denied',
        updatedAt: record.createdAt + 1,
      });
      const [listed] = await store.listInvocations(SCOPE);
      expect(listed?.modelCallId).toBe('call-across-batches');
    });

    it('reads a call created without a model id back without one', async () => {
      const record = invocation();
      await store.write([createWrite(record)]);

      const read = await store.getInvocation(SCOPE, record.id);
      expect(read?.id).toBe(record.id);
      expect(read).not.toHaveProperty('modelCallId');
    });

    it("keeps the id of the message whose turn made the call beside the model's, to the tenant only", async () => {
      const record = invocation({ caller: { kind: 'model' }, modelCallId: 'call-7', messageId: 'msg_01 user turn' });
      await store.write([createWrite(record)]);
      await store.write([transitionWrite(move(record, 2, 'pending', 'running'))]);

      expect(await store.getInvocation(SCOPE, record.id)).toMatchObject({
        scope: SCOPE,
        messageId: 'msg_01 user turn',
        modelCallId: 'call-7',
        state: 'running',
      });
      const [listed] = await store.listInvocations(SCOPE);
      expect(listed?.messageId).toBe('msg_01 user turn');
      expect(await store.getInvocation({ ...SCOPE, userId: 'someone-else' }, record.id)).toBeUndefined();
      const plain = invocation();
      await store.write([createWrite(plain)]);
      expect(await store.getInvocation(SCOPE, plain.id)).not.toHaveProperty('messageId');
    });

    it("lists only the calls of one model id: the scope's, or with allConversations the tenant's", async () => {
      const other = { ...SCOPE, conversationId: 'another' };
      const here = invocation({ caller: { kind: 'model' }, modelCallId: 'call-wanted', createdAt: 1_700_000_000_000 });
      const later = invocation({ caller: { kind: 'model' }, modelCallId: 'call-wanted', createdAt: 1_700_000_000_005 });
      const there = invocation({ scope: other, caller: { kind: 'model' }, modelCallId: 'call-wanted' });
      const unrelated = invocation({ caller: { kind: 'model' }, modelCallId: 'call-other' });
      const foreign = invocation({ scope: { ...SCOPE, userId: 'someone-else' }, modelCallId: 'call-wanted' });
      await store.write([here, later, there, unrelated, foreign].map((record) => createWrite(record)));

      const ids = (records: readonly { id: string }[]) => records.map((r) => r.id);
      expect(ids(await store.listInvocations(SCOPE, { modelCallId: 'call-wanted' }))).toEqual([later.id, here.id]);
      expect(ids(await store.listInvocations(SCOPE, { modelCallId: 'call-wanted', before: later.createdAt }))).toEqual([
        here.id,
      ]);
      expect(
        ids(await store.listInvocations(SCOPE, { modelCallId: 'call-wanted', allConversations: true })).sort(),
      ).toEqual([here.id, later.id, there.id].sort());
      expect(await store.listInvocations(SCOPE, { modelCallId: 'call-never-made' })).toEqual([]);
      await expect(store.listInvocations(SCOPE, { modelCallId: '' })).rejects.toMatchObject({
        code: 'invalid_arguments',
      });
    });

    it("keeps the model's id across a reopen", async (context) => {
      if (opened.reopen === undefined) return context.skip('this store does not persist');
      const record = invocation({ caller: { kind: 'model' }, modelCallId: 'call-kept', messageId: 'msg-kept' });
      await store.write([createWrite(record)]);

      store = await opened.reopen();

      expect(await store.getInvocation(SCOPE, record.id)).toMatchObject({
        modelCallId: 'call-kept',
        messageId: 'msg-kept',
      });
    });
  });
}

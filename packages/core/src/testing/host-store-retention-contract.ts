import { describe, expect, it } from 'vitest';
import { openStorePerTest } from './open-store-per-test.js';
import type { AuditEventInput } from '../store/audit-record.js';
import type { InvocationRecord } from '../store/invocation-record.js';
import type { HostStore, StoreWrite } from '../store/host-store.js';
import type { HostStoreContractOptions } from './store-contract-options.js';
import {
  SCOPE,
  auditInput,
  createWrite,
  expectRejection,
  invocation,
  move,
  resultFor,
  transitionWrite,
} from './host-store-fixtures.js';

const T0 = 1_700_000_000_000;
const SWEPT_AT = T0 + 1_000_000;

function sweep(expire: readonly string[], remove: readonly string[], audit: AuditEventInput = auditInput('swept')) {
  return { kind: 'retention.delete', expireResults: expire, deleteInvocations: remove, at: SWEPT_AT, audit } as const;
}

/**
 * The retention half of the `HostStore` contract: `listRetention` lists only ended calls, oldest first, by workspace;
 * `retention.delete` empties whole results (keeping the payloads, stamping `expiredAt`) and deletes ended calls with
 * everything they hold, never a pending or running one, atomically with its audit event.
 */
export function describeRetentionContract(options: HostStoreContractOptions): void {
  const { name, open } = options;
  describe(`${name} (HostStore contract: retention)`, () => {
    let store: HostStore;
    openStorePerTest({ open, use: (next) => void (store = next.store) });

    /** A call created at `createdAt` in `workspaceId`, run to success with a result (or left running). */
    async function call(createdAt: number, workspaceId = SCOPE.workspaceId, end = true): Promise<InvocationRecord> {
      const record = invocation({ createdAt, scope: { ...SCOPE, workspaceId } });
      await store.write([createWrite(record)]);
      await store.write([transitionWrite(move(record, 2, 'pending', 'running'), { scope: record.scope })]);
      if (end) {
        const result = resultFor(record.id, 'the whole text');
        const last = move(record, 3, 'running', 'success', 'success');
        await store.write([transitionWrite(last, { scope: record.scope, result })]);
      }
      return record;
    }

    it('lists ended calls before a time, oldest first, in or outside workspaces, never a running one', async () => {
      const a = await call(T0);
      const b = await call(T0 + 10, 'other');
      await call(T0 + 5, SCOPE.workspaceId, false);
      await call(T0 + 1_000);
      const ids = async (q: Partial<Parameters<HostStore['listRetention']>[0]>) =>
        (await store.listRetention({ kind: 'invocations', before: T0 + 100, limit: 10, ...q })).map(
          (c) => c.invocationId,
        );
      expect(await ids({})).toEqual([a.id, b.id]);
      expect(await ids({ workspaceId: 'other' })).toEqual([b.id]);
      expect(await ids({ exceptWorkspaces: ['other'] })).toEqual([a.id]);
      expect(await ids({ limit: 1 })).toEqual([a.id]);
      const [first] = await store.listRetention({ kind: 'results', before: T0 + 100, limit: 1 });
      expect(first).toEqual({
        invocationId: a.id,
        userId: SCOPE.userId,
        workspaceId: SCOPE.workspaceId,
        endedAt: T0 + 2,
      });
      await expectRejection(
        store.listRetention({ kind: 'rows' as 'results', before: 0, limit: 1 }),
        'invalid_arguments',
      );
    });

    it('empties a whole result (payloads stay, expiredAt set) and deletes ended calls whole, with the audit event', async () => {
      const a = await call(T0);
      const b = await call(T0 + 10);
      const running = await call(T0 + 5, SCOPE.workspaceId, false);
      await store.write([sweep([a.id, running.id, 'unknown'], [b.id, running.id])]);
      const kept = await store.getResult(SCOPE, a.id);
      expect(kept).toMatchObject({ fullText: '', rawJson: '', expiredAt: SWEPT_AT });
      expect(kept?.screen).toEqual(resultFor(a.id, 'the whole text').screen);
      expect(await store.getInvocation(SCOPE, b.id)).toBeUndefined();
      expect(await store.listTransitions(SCOPE, b.id)).toEqual([]);
      expect(await store.getResult(SCOPE, b.id)).toBeUndefined();
      expect(await store.getInvocation(SCOPE, running.id)).toMatchObject({ state: 'running' });
      expect((await store.queryAudit({})).map((e) => e.data['label'])).toEqual(['swept']);
      // An expired result is no longer a candidate, and a second expiry changes nothing.
      expect(await store.listRetention({ kind: 'results', before: T0 + 100, limit: 10 })).toEqual([]);
      await store.write([{ ...sweep([a.id], []), at: SWEPT_AT + 1 }]);
      expect(await store.getResult(SCOPE, a.id)).toMatchObject({ expiredAt: SWEPT_AT });
    });

    it('takes the whole batch back when a later write of it is refused', async () => {
      const a = await call(T0);
      const record = invocation();
      const stray: StoreWrite = transitionWrite(move(record, 2, 'pending', 'running'), { scope: record.scope });
      await expectRejection(store.write([sweep([a.id], [a.id]), stray]), 'not_found');
      expect(await store.getResult(SCOPE, a.id)).toEqual(resultFor(a.id, 'the whole text'));
      expect(await store.queryAudit({})).toEqual([]);
    });
  });
}

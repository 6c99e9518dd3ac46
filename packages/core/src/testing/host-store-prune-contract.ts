import { describe, expect, it } from 'vitest';
import { openStorePerTest } from './open-store-per-test.js';
import { checkpointInput } from '../audit/audit-checkpoint.js';
import { chainEvent, verifyChain } from '../audit/audit-chain.js';
import type { AuditEvent } from '../store/audit-record.js';
import type { HostStore, StoreWrite } from '../store/host-store.js';
import type { HostStoreContractOptions } from './store-contract-options.js';
import { auditInput, auditWrites, expectRejection, labels, move, invocation } from './host-store-fixtures.js';

const AT = 1_700_000_100_000;

/** The write that prunes through `through`, with the checkpoint its count and hash call for. */
function pruneWrite(through: Pick<AuditEvent, 'seq' | 'hash'>, pruned: number): StoreWrite {
  return { kind: 'audit.prune', throughSeq: through.seq, checkpoint: checkpointInput(through, pruned, AT) };
}

/**
 * The pruning half of the audit contract: `audit.prune` appends a checkpoint carrying the hash of the last event it
 * deletes and deletes through it, atomically, so the kept chain still verifies from the checkpoint; a prune whose
 * checkpoint does not match what is stored is refused and changes nothing. Declared by `describeHostStoreContract`.
 */
export function describePruneContract(options: HostStoreContractOptions): void {
  const { name, open } = options;
  describe(`${name} (HostStore contract: audit prune)`, () => {
    let store: HostStore;
    openStorePerTest({
      open,
      use: async (next) => {
        store = next.store;
        await store.write(auditWrites(['a', 'b', 'c', 'd'].map((label) => auditInput(label))));
      },
    });

    it('appends a checkpoint, deletes through the event named, and the kept chain verifies from the checkpoint', async () => {
      const [, b] = await store.queryAudit({});
      await store.write([pruneWrite(b!, 2)]);
      const kept = await store.queryAudit({});
      expect(kept.map((e) => e.seq)).toEqual([3, 4, 5]);
      expect(labels(kept.slice(0, 2))).toEqual(['c', 'd']);
      const checkpoint = kept[2]!;
      expect(checkpoint).toMatchObject({
        type: 'audit.checkpoint',
        data: { throughSeq: 2, throughHash: b!.hash, pruned: 2 },
      });
      expect(verifyChain(kept, { prev: b!, count: 0 })).toMatchObject({ ok: true, count: 3, lastSeq: 5 });
      // The chain goes on after the checkpoint, and a later prune may take the checkpoint too.
      await store.write(auditWrites([auditInput('e')]));
      const [e] = await store.queryAudit({ afterSeq: 5 });
      expect(e).toEqual(chainEvent(auditInput('e'), checkpoint));
      await store.write([pruneWrite(e!, 4)]);
      const after = await store.queryAudit({});
      expect(after.map((x) => [x.seq, x.type])).toEqual([[7, 'audit.checkpoint']]);
      expect(after[0]!.prevHash).toBe(e!.hash);
      expect(await store.queryAudit({ afterSeq: 3 })).toEqual(after);
    });

    it('refuses a checkpoint whose hash or count is not what is stored, or an event that is absent, changing nothing', async () => {
      const before = await store.queryAudit({});
      const b = before[1]!;
      await expectRejection(store.write([pruneWrite({ seq: 2, hash: 'f'.repeat(64) }, 2)]), 'invalid_arguments');
      await expectRejection(store.write([pruneWrite(b, 1)]), 'invalid_arguments');
      await expectRejection(store.write([pruneWrite({ seq: 9, hash: b.hash }, 9)]), 'invalid_arguments');
      const wrongSeq: StoreWrite = { kind: 'audit.prune', throughSeq: 3, checkpoint: checkpointInput(b, 2, AT) };
      await expectRejection(store.write([wrongSeq]), 'invalid_arguments');
      const notCheckpoint: StoreWrite = { kind: 'audit.prune', throughSeq: 2, checkpoint: auditInput('x') };
      await expectRejection(store.write([notCheckpoint]), 'invalid_arguments');
      expect(await store.queryAudit({})).toEqual(before);
    });

    it('takes the prune back with the batch when a later write of the batch is refused', async () => {
      const before = await store.queryAudit({});
      const record = invocation();
      const stray: StoreWrite = {
        kind: 'transition',
        scope: record.scope,
        transition: move(record, 2, 'pending', 'running'),
      };
      await expectRejection(store.write([pruneWrite(before[1]!, 2), stray]), 'not_found');
      expect(await store.queryAudit({})).toEqual(before);
      await store.write(auditWrites([auditInput('e')]));
      expect(verifyChain(await store.queryAudit({}))).toMatchObject({ ok: true, count: 5 });
    });
  });
}

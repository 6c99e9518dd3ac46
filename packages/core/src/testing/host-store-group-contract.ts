import { describe, expect, it } from 'vitest';
import { openStorePerTest } from './open-store-per-test.js';
import { chainEvent, verifyChain } from '../audit/audit-chain.js';
import type { AuditEvent, AuditEventInput } from '../store/audit-record.js';
import type { HostErrorCode } from '../errors/host-error.js';
import type { InvocationRecord, ResultRecord, TransitionRecord } from '../store/invocation-record.js';
import type { Scope } from '../scope.js';
import type { HostStore, StoreWrite } from '../store/host-store.js';
import type { HostStoreContractOptions } from './store-contract-options.js';
import {
  SCOPE,
  auditInput,
  createWrite,
  expectRejection,
  invocation,
  move,
  opening,
  resultFor,
  transitionWrite,
} from './host-store-fixtures.js';

/** One call's writes as the host queues them: created, run, ended with an error and a result, each with its event. */
function callWrites(record: InvocationRecord): {
  writes: StoreWrite[];
  transitions: TransitionRecord[];
  result: ResultRecord;
  events: AuditEventInput[];
  ended: InvocationRecord;
} {
  const error = { code: -32602, message: 'bad "path" ✓' };
  const transitions = [
    opening(record),
    move(record, 2, 'pending', 'running'),
    move(record, 3, 'running', 'error', 'protocol_error', error),
  ];
  const result = resultFor(record.id, `the whole of ${record.id}`);
  const events = transitions.map((t) =>
    auditInput(`${record.id} ${t.to}`, { type: 'invocation.transition', invocationId: record.id }),
  );
  const [first, running, ended] = transitions as [TransitionRecord, TransitionRecord, TransitionRecord];
  return {
    writes: [
      { kind: 'create', record, first, audit: events[0] },
      transitionWrite(running, { audit: events[1] }),
      { kind: 'audit', audit: auditInput(`${record.id} decision`) },
      transitionWrite(ended, { result, audit: events[2] }),
    ],
    transitions,
    result,
    events: [events[0], events[1], auditInput(`${record.id} decision`), events[2]] as AuditEventInput[],
    ended: { ...record, state: 'error', outcome: 'protocol_error', error, updatedAt: ended.at },
  };
}

/**
 * The part of the `HostStore` contract about a call whose writes land in one batch (the history writer's usual
 * batch: a call created, run and ended within one commit): a store may keep such a call's rows in memory and write
 * them whole, but what it stores, what it refuses and its audit chain are exactly those of the same writes one batch
 * each. Declared by `describeHostStoreContract`.
 */
export function describeGroupContract(options: HostStoreContractOptions): void {
  const { name, open } = options;
  describe(`${name} (HostStore contract: a call's writes in one batch)`, () => {
    let store: HostStore;
    openStorePerTest({ open, use: (opened) => void (store = opened.store) });

    /** Every row of `record` a tenant can read. */
    async function rowsOf(record: InvocationRecord, scope: Scope = SCOPE): Promise<unknown> {
      return {
        invocation: await store.getInvocation(scope, record.id),
        transitions: await store.listTransitions(scope, record.id),
        result: await store.getResult(scope, record.id),
      };
    }

    it('stores a call written in one batch exactly as the same writes one batch each, with the same chain', async () => {
      const grouped = callWrites(invocation({ createdAt: 1_700_000_000_000 }));
      const single = callWrites(invocation({ createdAt: 1_700_000_000_100 }));
      // A call created earlier and ended in the same batch goes the other way; both must come out the same.
      const earlier = invocation({ createdAt: 1_700_000_000_200 });
      await store.write([createWrite(earlier), transitionWrite(move(earlier, 2, 'pending', 'running'))]);
      const earlierEnd = move(earlier, 3, 'running', 'success', 'success');
      const [create, ...rest] = grouped.writes as [StoreWrite, ...StoreWrite[]];
      await store.write([create, transitionWrite(earlierEnd, { result: resultFor(earlier.id) }), ...rest]);
      for (const write of single.writes) await store.write([write]);

      for (const call of [grouped, single]) {
        const record = (call.writes[0] as Extract<StoreWrite, { kind: 'create' }>).record;
        expect(await rowsOf(record)).toEqual({
          invocation: call.ended,
          transitions: call.transitions,
          result: call.result,
        });
      }
      expect(await store.getInvocation(SCOPE, earlier.id)).toMatchObject({
        state: 'success',
        updatedAt: earlierEnd.at,
      });
      const chain: AuditEvent[] = [];
      for (const input of [...grouped.events, ...single.events]) chain.push(chainEvent(input, chain.at(-1)));
      const stored = await store.queryAudit({});
      expect(stored).toEqual(chain);
      expect(verifyChain(stored)).toMatchObject({ ok: true, count: 8 });
    });

    const OTHER: Scope = { ...SCOPE, conversationId: 'another conversation' };
    const BAD: readonly [string, HostErrorCode, (record: InvocationRecord) => StoreWrite[]][] = [
      [
        'a move from a state the new call is no longer in',
        'invalid_transition',
        (r) => [
          createWrite(r),
          transitionWrite(move(r, 2, 'pending', 'running')),
          transitionWrite(move(r, 3, 'pending', 'cancelled')),
        ],
      ],
      [
        'a move of the new call by another tenant',
        'not_found',
        (r) => [createWrite(r), transitionWrite(move(r, 2, 'pending', 'running'), { scope: OTHER })],
      ],
      [
        'a seq the new call has',
        'store_error',
        (r) => [createWrite(r), transitionWrite(move(r, 1, 'pending', 'running'))],
      ],
      ['a second create of the new call', 'store_error', (r) => [createWrite(r), createWrite({ ...r, tool: 'other' })]],
      [
        'a result before the new call has ended',
        'invalid_transition',
        (r) => [createWrite(r), transitionWrite(move(r, 2, 'pending', 'running'), { result: resultFor(r.id) })],
      ],
    ];

    it.each(BAD)('refuses %s as %s and keeps nothing of the batch', async (_what, code, writes) => {
      const record = invocation();
      const batch = writes(record).map((w, i) => ({ ...w, audit: auditInput(`bad ${i}`) }) as StoreWrite);
      await expectRejection(store.write(batch), code);
      expect(await rowsOf(record)).toEqual({ invocation: undefined, transitions: [], result: undefined });
      expect(await rowsOf(record, OTHER)).toEqual({ invocation: undefined, transitions: [], result: undefined });
      expect(await store.queryAudit({})).toEqual([]);
      // The same call is stored whole by a good batch after it.
      await store.write(callWrites(record).writes);
      expect(await store.getInvocation(SCOPE, record.id)).toMatchObject({ state: 'error' });
    });
  });
}

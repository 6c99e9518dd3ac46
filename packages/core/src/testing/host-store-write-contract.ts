import { describe, expect, it } from 'vitest';
import { openStorePerTest } from './open-store-per-test.js';
import { verifyChain } from '../audit/audit-chain.js';
import type { AuditEventInput } from '../store/audit-record.js';
import type { HostErrorCode } from '../errors/host-error.js';
import type { InvocationRecord } from '../store/invocation-record.js';
import type { StoredDecision } from '../store/decision-record.js';
import type { Scope } from '../scope.js';
import type { HostStore, StoreWrite } from '../store/host-store.js';
import type { HostStoreContractOptions } from './store-contract-options.js';
import {
  SCOPE,
  TENANT,
  auditInput,
  auditWrites,
  byId,
  createWrite,
  decision,
  decisionAudit,
  deleteWrite,
  expectRejection,
  invocation,
  labels,
  move,
  opening,
  putWrite,
  resultFor,
  transitionWrite,
} from './host-store-fixtures.js';

/** A tenant that differs from `SCOPE` in every key. */
const OTHER: Scope = { userId: 'user-b', workspaceId: 'workspace-b', conversationId: 'conversation-b' };

/** What a store holds before a batch: two calls (one running, one pending), two decisions and four events. */
interface Before {
  /** Running; the good writes end it. */
  readonly base: InvocationRecord;
  /** Pending; only the bad writes touch it. */
  readonly target: InvocationRecord;
  /** Stored; no good write touches it. */
  readonly kept: StoredDecision;
  /** Stored; the good writes delete it. */
  readonly doomed: StoredDecision;
}

/** Everything a tenant can read of what `Before` names, to compare a store before and after a write. */
async function snapshot(store: HostStore, before: Before): Promise<unknown> {
  const { base, target } = before;
  return {
    invocations: await store.listInvocations(SCOPE),
    transitions: [await store.listTransitions(SCOPE, base.id), await store.listTransitions(SCOPE, target.id)],
    results: [await store.getResult(SCOPE, base.id), await store.getResult(SCOPE, target.id)],
    decisions: byId(await store.listDecisions({})),
    audit: await store.queryAudit({}),
  };
}

/** One write of every kind, each valid on its own against `Before`, each with its audit event(s). */
function goodWrites(before: Before): StoreWrite[] {
  const fresh = invocation({ createdAt: before.base.createdAt + 100 });
  const freshDecision = decision({ tool: 'fresh' });
  return [
    createWrite(fresh, auditInput('good create')),
    transitionWrite(move(before.base, 3, 'running', 'success', 'success'), {
      result: resultFor(before.base.id),
      audit: auditInput('good transition'),
    }),
    ...auditWrites([auditInput('good audit')]),
    putWrite(freshDecision, decisionAudit(freshDecision, 'good put')),
    deleteWrite([before.doomed.id], [decisionAudit(before.doomed, 'good delete')]),
  ];
}

/** An event no store can keep: its data has no JSON form. */
const UNKEEPABLE: AuditEventInput = { ...auditInput('unkeepable'), data: { big: 1n } };

/** Every way a write is refused (storage/store-checks.ts), each independent of the good writes around it. */
const BAD_WRITES: readonly [string, HostErrorCode, (before: Before) => StoreWrite][] = [
  [
    'a create whose first transition is not seq 1',
    'invalid_transition',
    () => {
      const record = invocation();
      return { kind: 'create', record, first: { ...opening(record), seq: 2 } };
    },
  ],
  ['a create of an id already taken', 'store_error', ({ base }) => createWrite({ ...base, tool: 'other' })],
  [
    'a move the state machine forbids',
    'invalid_transition',
    ({ target }) => transitionWrite(move(target, 2, 'pending', 'success', 'success')),
  ],
  [
    'a transition from a state the call is not in',
    'invalid_transition',
    ({ target }) => transitionWrite(move(target, 2, 'running', 'success', 'success')),
  ],
  [
    'a transition with a seq the call has',
    'store_error',
    ({ target }) => transitionWrite(move(target, 1, 'pending', 'running')),
  ],
  [
    'a result before the call has ended',
    'invalid_transition',
    ({ target }) => transitionWrite(move(target, 2, 'pending', 'running'), { result: resultFor(target.id) }),
  ],
  [
    'a transition of an unknown call',
    'not_found',
    () => transitionWrite(move(invocation({ id: 'no-such-call' }), 2, 'pending', 'running')),
  ],
  [
    "a transition of another tenant's call",
    'not_found',
    ({ target }) => transitionWrite(move(target, 2, 'pending', 'running'), { scope: OTHER }),
  ],
  [
    'an audit event of an unknown type',
    'invalid_arguments',
    () => ({ kind: 'audit', audit: { ...auditInput('x'), type: 'login' } as unknown as AuditEventInput }),
  ],
  ['an audit event whose data JSON cannot hold', 'invalid_arguments', () => ({ kind: 'audit', audit: UNKEEPABLE })],
  [
    'a transition whose audit event cannot be kept',
    'invalid_arguments',
    ({ target }) => transitionWrite(move(target, 2, 'pending', 'running'), { audit: UNKEEPABLE }),
  ],
  [
    'a decision with an unknown effect',
    'invalid_arguments',
    () => {
      const d = decision({ tool: 'bad', effect: 'maybe' as StoredDecision['effect'] });
      return putWrite(d, decisionAudit(d, 'bad put'));
    },
  ],
  [
    "a decision with an id another key's decision holds",
    'store_error',
    ({ kept }) => {
      const clash = decision({ id: kept.id, tool: 'clash' });
      return putWrite(clash, decisionAudit(clash, 'clash'));
    },
  ],
  [
    'a decision whose audit event cannot be kept',
    'invalid_arguments',
    () => putWrite(decision({ tool: 'bad' }), UNKEEPABLE),
  ],
  [
    'a delete whose audit event cannot be kept',
    'invalid_arguments',
    ({ kept }) => deleteWrite([kept.id], [UNKEEPABLE]),
  ],
  ['a write of an unknown kind', 'invalid_arguments', () => ({ kind: 'truncate' }) as unknown as StoreWrite],
];

/**
 * The store's one write, held to what the history writer relies on: a batch is applied in order (each write sees the
 * ones before it, audit events chain in write order), and atomically (one refused write, wherever it sits, leaves no
 * row and no event of its batch). Declared by `describeHostStoreContract`.
 */
export function describeWriteContract(options: HostStoreContractOptions): void {
  const { name, open } = options;
  describe(`${name} (HostStore contract: write)`, () => {
    let store: HostStore;
    openStorePerTest({ open, use: (next) => void (store = next.store) });

    /** Stores `Before`, with an event labelled `setup ...` for each write. */
    async function setUp(): Promise<Before> {
      const base = invocation({ createdAt: 1_700_000_000_000 });
      const target = invocation({ createdAt: 1_700_000_000_010 });
      const kept = decision({ tool: 'kept' });
      const doomed = decision({ tool: 'doomed' });
      await store.write([
        createWrite(base, auditInput('setup base')),
        transitionWrite(move(base, 2, 'pending', 'running')),
        createWrite(target, auditInput('setup target')),
        putWrite(kept, decisionAudit(kept, 'setup kept')),
        putWrite(doomed, decisionAudit(doomed, 'setup doomed')),
      ]);
      return { base, target, kept, doomed };
    }

    it('applies every kind of write in one batch, chaining their events in the order of the writes', async () => {
      const before = await setUp();
      const writes = goodWrites(before);
      await store.write(writes);

      const all = await store.queryAudit({});
      expect(labels(all)).toEqual([
        'setup base',
        'setup target',
        'setup kept',
        'setup doomed',
        'good create',
        'good transition',
        'good audit',
        'good put',
        'good delete',
      ]);
      expect(all.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(verifyChain(all)).toMatchObject({ ok: true, count: 9 });
      const fresh = (writes[0] as Extract<StoreWrite, { kind: 'create' }>).record;
      expect(await store.getInvocation(SCOPE, fresh.id)).toEqual(fresh);
      expect(await store.getInvocation(SCOPE, before.base.id)).toMatchObject({ state: 'success', outcome: 'success' });
      expect(await store.getResult(SCOPE, before.base.id)).toEqual(resultFor(before.base.id));
      const put = (writes[3] as Extract<StoreWrite, { kind: 'decision.put' }>).decision;
      expect(byId(await store.listDecisions(TENANT))).toEqual(byId([before.kept, put]));
    });

    it('lets each write of a batch see the writes before it', async () => {
      const record = invocation();
      const a = decision({ tool: 'a' });
      const b = decision({ tool: 'b' });
      const aAgain = { ...a, effect: 'deny' as const };
      await store.write([
        createWrite(record),
        transitionWrite(move(record, 2, 'pending', 'running')),
        transitionWrite(move(record, 3, 'running', 'cancelled', 'cancelled')),
        putWrite(a, decisionAudit(a, 'put a')),
        putWrite(b, decisionAudit(b, 'put b')),
        deleteWrite([b.id], [decisionAudit(b, 'delete b')]),
        putWrite(aAgain, decisionAudit(aAgain, 'replace a')),
        deleteWrite([a.id], [decisionAudit(a, 'delete a')]),
        putWrite(b, decisionAudit(b, 'put b again')),
      ]);

      expect((await store.listTransitions(SCOPE, record.id)).map((t) => t.to)).toEqual([
        'pending',
        'running',
        'cancelled',
      ]);
      expect(await store.listDecisions({})).toEqual([b]);
      expect(labels(await store.queryAudit({}))).toEqual([
        'put a',
        'put b',
        'delete b',
        'replace a',
        'delete a',
        'put b again',
      ]);
    });

    describe.each([
      ['last', (good: StoreWrite[], bad: StoreWrite) => [...good, bad]],
      ['first', (good: StoreWrite[], bad: StoreWrite) => [bad, ...good]],
    ] as const)('with the refused write %s in its batch', (_, batch) => {
      it.each(BAD_WRITES)('refuses %s as %s and keeps nothing of the batch', async (_what, code, bad) => {
        const before = await setUp();
        const stored = await snapshot(store, before);

        await expectRejection(store.write(batch(goodWrites(before), bad(before))), code);

        expect(await snapshot(store, before)).toEqual(stored);
        // The good writes alone are kept, and their events chain on from the last stored event.
        await store.write(goodWrites(before));
        const all = await store.queryAudit({});
        expect(all.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
        expect(verifyChain(all)).toMatchObject({ ok: true, count: 9 });
      });
    });

    it("shows each tenant only its own rows of a batch that wrote two tenants' rows", async () => {
      const mine = invocation();
      const theirs = invocation({ scope: OTHER });
      const myDecision = decision({ tool: 'mine' });
      const theirDecision = decision({ userId: OTHER.userId, workspaceId: OTHER.workspaceId, tool: 'theirs' });
      const theirEvent = (label: string) => auditInput(label, { userId: OTHER.userId, workspaceId: OTHER.workspaceId });
      await store.write([
        createWrite(mine, auditInput('my call')),
        createWrite(theirs, theirEvent('their call')),
        transitionWrite(move(theirs, 2, 'pending', 'cancelled', 'cancelled'), {
          scope: OTHER,
          result: resultFor(theirs.id),
        }),
        putWrite(myDecision, decisionAudit(myDecision, 'my decision')),
        putWrite(theirDecision, decisionAudit(theirDecision, 'their decision')),
        // A tenant cannot delete another's decision, even in a batch that wrote it.
        deleteWrite([theirDecision.id], [auditInput('my delete')]),
      ]);

      expect(await store.listInvocations(SCOPE)).toEqual([mine]);
      expect(await store.getInvocation(SCOPE, theirs.id)).toBeUndefined();
      expect(await store.listTransitions(SCOPE, theirs.id)).toEqual([]);
      expect(await store.getResult(SCOPE, theirs.id)).toBeUndefined();
      expect(await store.listInvocations(OTHER)).toEqual([
        { ...theirs, state: 'cancelled', outcome: 'cancelled', updatedAt: theirs.createdAt + 1 },
      ]);
      expect(await store.getResult(OTHER, theirs.id)).toEqual(resultFor(theirs.id));
      expect(await store.listDecisions(TENANT)).toEqual([myDecision]);
      expect(await store.listDecisions({ userId: OTHER.userId, workspaceId: OTHER.workspaceId })).toEqual([
        theirDecision,
      ]);
      expect(labels(await store.queryAudit(TENANT))).toEqual(['my call', 'my decision', 'my delete']);
      expect(labels(await store.queryAudit({ userId: OTHER.userId, workspaceId: OTHER.workspaceId }))).toEqual([
        'their call',
        'their decision',
      ]);
    });
  });
}

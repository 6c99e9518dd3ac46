import { describe, expect, it } from 'vitest';
import { openStorePerTest } from './open-store-per-test.js';
import { GENESIS_HASH, chainEvent, verifyChain } from '../audit/audit-chain.js';
import type { AuditEventInput } from '../store/audit-record.js';
import type { AuditQuery, HostStore } from '../store/host-store.js';
import type { HostStoreContractOptions, OpenedStore } from './store-contract-options.js';
import {
  SCOPE,
  auditInput,
  auditWrites,
  expectRejection,
  invocation,
  labels,
  move,
  opening,
  resultFor,
} from './host-store-fixtures.js';

/**
 * The audit half of the `HostStore` contract: one hash chain across every write that carries an event, atomic with
 * the write, read back by query. Declared by `describeHostStoreContract`.
 */
export function describeAuditContract(options: HostStoreContractOptions): void {
  const { name, open } = options;
  describe(`${name} (HostStore contract: audit chain)`, () => {
    let opened: OpenedStore;
    let store: HostStore;
    openStorePerTest({
      open,
      use: (next) => {
        opened = next;
        store = next.store;
      },
    });

    it('chains appended events from the genesis hash and on across writes', async () => {
      const [a, b, c] = [auditInput('a'), auditInput('b', { at: 1_700_000_000_001 }), auditInput('c')];
      await store.write(auditWrites([a, b]));
      const first = await store.queryAudit({});
      await store.write(auditWrites([c]));

      const sealedA = chainEvent(a, undefined);
      const sealedB = chainEvent(b, sealedA);
      const sealedC = chainEvent(c, sealedB);
      expect(sealedA).toMatchObject({ seq: 1, prevHash: GENESIS_HASH });
      expect(first).toEqual([sealedA, sealedB]);
      expect(await store.queryAudit({ afterSeq: 2 })).toEqual([sealedC]);
      const all = await store.queryAudit({});
      expect(all).toEqual([sealedA, sealedB, sealedC]);
      expect(verifyChain(all)).toMatchObject({ ok: true, count: 3, lastHash: sealedC.hash });
    });

    it('stores nothing for an empty batch', async () => {
      await store.write([]);
      expect(await store.queryAudit({})).toEqual([]);
      await store.write(auditWrites([auditInput('a')]));
      await store.write([]);
      expect(labels(await store.queryAudit({}))).toEqual(['a']);
      expect(await store.listInvocations(SCOPE)).toEqual([]);
      expect(await store.listDecisions({})).toEqual([]);
    });

    it('seals an event as it is stored: no stray property, and data as its JSON round trip', async () => {
      const input = {
        ...auditInput('odd'),
        stray: 'not a field of an event',
        data: { label: 'odd', gone: undefined, list: [1, undefined], when: new Date(0) },
      } as AuditEventInput;
      await store.write(auditWrites([input]));
      const [sealed] = await store.queryAudit({});

      expect(sealed).not.toHaveProperty('stray');
      expect(sealed?.data).toEqual({ label: 'odd', list: [1, null], when: '1970-01-01T00:00:00.000Z' });
      const stored = await store.queryAudit({});
      expect(stored).toEqual([sealed]);
      expect(verifyChain(stored)).toMatchObject({ ok: true, count: 1 });
    });

    it.each([
      ['an unknown type', { type: 'login' }],
      ['a time that is not a number', { at: Number.NaN }],
      ['a missing user', { userId: undefined }],
      ['data that is not an object', { data: ['a'] }],
      ['data JSON cannot hold', { data: { big: 10n } }],
    ])('refuses an event with %s and appends none of the events with it', async (_, bad) => {
      await store.write(auditWrites([auditInput('before')]));
      const broken = { ...auditInput('broken'), ...bad } as unknown as AuditEventInput;

      await expectRejection(store.write(auditWrites([auditInput('fine'), broken])), 'invalid_arguments');
      expect(labels(await store.queryAudit({}))).toEqual(['before']);
    });

    it('stores the audit events of a batch in order, chained after the events before it, with the history', async () => {
      await store.write(auditWrites([auditInput('earlier')]));
      const record = invocation();
      const transition = { type: 'invocation.transition', invocationId: record.id } as const;
      await store.write([
        { kind: 'create', record, first: opening(record), audit: auditInput('pending', transition) },
        {
          kind: 'transition',
          scope: SCOPE,
          transition: move(record, 2, 'pending', 'running'),
          audit: auditInput('running', transition),
        },
        { kind: 'transition', scope: SCOPE, transition: move(record, 3, 'running', 'error', 'tool_error') },
      ]);

      const all = await store.queryAudit({});
      expect(labels(all)).toEqual(['earlier', 'pending', 'running']);
      expect(all.map((e) => e.seq)).toEqual([1, 2, 3]);
      expect(verifyChain(all)).toMatchObject({ ok: true, count: 3 });
      expect(labels(await store.queryAudit({ invocationId: record.id }))).toEqual(['pending', 'running']);
      expect(await store.getInvocation(SCOPE, record.id)).toMatchObject({ state: 'error' });
    });

    it('stores no audit event of a refused batch, and the chain goes on from the last stored event', async () => {
      await store.write(auditWrites([auditInput('earlier')]));
      const [earlier] = await store.queryAudit({});
      const record = invocation();
      await expectRejection(
        store.write([
          { kind: 'create', record, first: opening(record), audit: auditInput('pending') },
          {
            kind: 'transition',
            scope: SCOPE,
            transition: move(record, 2, 'pending', 'success', 'success'),
            audit: auditInput('skipped running'),
          },
        ]),
        'invalid_transition',
      );
      expect(labels(await store.queryAudit({}))).toEqual(['earlier']);
      expect(await store.getInvocation(SCOPE, record.id)).toBeUndefined();

      await store.write(auditWrites([auditInput('next')]));
      const [next] = await store.queryAudit({ afterSeq: 1 });
      expect(next).toMatchObject({ seq: 2, prevHash: earlier?.hash });
    });

    it('refuses a batch whose audit event cannot be kept and keeps none of its history', async () => {
      const record = invocation();
      const result = resultFor(record.id);
      await expectRejection(
        store.write([
          { kind: 'create', record, first: opening(record), audit: auditInput('pending') },
          {
            kind: 'transition',
            scope: SCOPE,
            transition: move(record, 2, 'pending', 'cancelled', 'cancelled'),
            result,
            audit: { ...auditInput('bad'), data: { big: 1n } },
          },
        ]),
        'invalid_arguments',
      );
      expect(await store.getInvocation(SCOPE, record.id)).toBeUndefined();
      expect(await store.queryAudit({})).toEqual([]);
    });

    /** Five events of two users, two workspaces, three types, two servers, three tools, three invocations. */
    const EVENTS: AuditEventInput[] = [
      auditInput('e1', { at: 1000, invocationId: 'inv-1' }),
      auditInput('e2', { at: 2000, type: 'invocation.transition', invocationId: 'inv-1' }),
      auditInput('e3', {
        at: 3000,
        type: 'invocation.transition',
        serverId: 'git',
        tool: 'log',
        invocationId: 'inv-2',
      }),
      auditInput('e4', { at: 4000, userId: 'user-b', tool: 'write', invocationId: 'inv-3' }),
      auditInput('e5', {
        at: 5000,
        type: 'elicitation',
        workspaceId: 'workspace-b',
        serverId: null,
        tool: null,
        invocationId: null,
      }),
    ];

    it.each<[string, AuditQuery, string[]]>([
      ['userId', { userId: SCOPE.userId }, ['e1', 'e2', 'e3', 'e5']],
      ['workspaceId', { workspaceId: SCOPE.workspaceId }, ['e1', 'e2', 'e3', 'e4']],
      ['type', { type: 'invocation.transition' }, ['e2', 'e3']],
      ['serverId', { serverId: 'files' }, ['e1', 'e2', 'e4']],
      ['tool', { tool: 'read' }, ['e1', 'e2']],
      ['invocationId', { invocationId: 'inv-1' }, ['e1', 'e2']],
      ['since (inclusive)', { since: 3000 }, ['e3', 'e4', 'e5']],
      ['until (inclusive)', { until: 2000 }, ['e1', 'e2']],
      ['since and until', { since: 2000, until: 4000 }, ['e2', 'e3', 'e4']],
      ['afterSeq (exclusive)', { afterSeq: 3 }, ['e4', 'e5']],
      [
        'the tenant and a type',
        { userId: SCOPE.userId, workspaceId: SCOPE.workspaceId, type: 'invocation.transition' },
        ['e2', 'e3'],
      ],
      ['a value no event has', { tool: 'delete' }, []],
    ])('filters by %s, oldest first', async (_, query, expected) => {
      await store.write(auditWrites(EVENTS.slice(0, 2)));
      await store.write(auditWrites(EVENTS.slice(2)));

      expect(labels(await store.queryAudit(query))).toEqual(expected);
    });

    it.each(['userId', 'workspaceId'] as const)(
      "shows a tenant that differs only in %s none of another tenant's events",
      async (key) => {
        await store.write(
          auditWrites([auditInput('mine'), auditInput('also mine', { type: 'invocation.transition' })]),
        );
        const other = { userId: SCOPE.userId, workspaceId: SCOPE.workspaceId, [key]: `${SCOPE[key]}-other` };

        expect(await store.queryAudit(other)).toEqual([]);
        expect(await store.queryAudit({ ...other, type: 'invocation.transition' })).toEqual([]);
        expect(labels(await store.queryAudit({ userId: SCOPE.userId, workspaceId: SCOPE.workspaceId }))).toEqual([
          'mine',
          'also mine',
        ]);
      },
    );

    it('pages oldest first with afterSeq and limit', async () => {
      await store.write(auditWrites(Array.from({ length: 25 }, (_, i) => auditInput(`p${i + 1}`))));
      const pages: unknown[][] = [];
      let afterSeq = 0;
      for (;;) {
        const page = await store.queryAudit({ userId: SCOPE.userId, afterSeq, limit: 10 });
        if (page.length === 0) break;
        pages.push(labels(page));
        afterSeq = page.at(-1)?.seq ?? afterSeq;
      }
      expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
      expect(pages.flat()).toEqual(Array.from({ length: 25 }, (_, i) => `p${i + 1}`));
    });

    it('returns 1000 events by default and never more than 10000', async () => {
      await store.write(auditWrites(Array.from({ length: 10_001 }, (_, i) => auditInput(`n${i + 1}`, { at: i }))));

      const first = await store.queryAudit({});
      expect(first).toHaveLength(1000);
      expect(first[0]?.seq).toBe(1);
      expect(await store.queryAudit({ limit: 50_000 })).toHaveLength(10_000);
      expect(labels(await store.queryAudit({ afterSeq: 10_000, limit: 50_000 }))).toEqual(['n10001']);
    });

    it.each<[string, AuditQuery]>([
      ['a limit of 0', { limit: 0 }],
      ['a fractional limit', { limit: 2.5 }],
      ['a negative afterSeq', { afterSeq: -1 }],
      ['a fractional afterSeq', { afterSeq: 1.5 }],
      ['a time bound that is not a number', { since: Number.NaN }],
    ])('refuses a query with %s as invalid_arguments', async (_, query) => {
      await expectRejection(store.queryAudit(query), 'invalid_arguments');
    });

    it('returns copies that cannot change the stored chain', async () => {
      const data = { label: 'a', nested: { value: 1 } };
      await store.write(auditWrites([{ ...auditInput('a'), data }]));
      data.nested.value = 2;
      const [sealed] = await store.queryAudit({});
      (sealed?.data as { nested: { value: number } }).nested.value = 3;
      const [read] = await store.queryAudit({});
      (read as { tool: string | null }).tool = 'forged';
      (read?.data as { label: string }).label = 'forged';

      const stored = await store.queryAudit({});
      expect(stored[0]).toMatchObject({ tool: 'read', data: { label: 'a', nested: { value: 1 } } });
      expect(verifyChain(stored)).toMatchObject({ ok: true, count: 1 });
    });

    it('keeps the chain across a reopen and goes on from its last event', async (context) => {
      if (opened.reopen === undefined) return context.skip('this store does not persist');
      await store.write(auditWrites([auditInput('a'), auditInput('b')]));
      const record = invocation();
      await store.write([{ kind: 'create', record, first: opening(record), audit: auditInput('c') }]);
      const before = await store.queryAudit({});

      store = await opened.reopen();

      expect(await store.queryAudit({})).toEqual(before);
      await store.write(auditWrites([auditInput('d')]));
      const [d] = await store.queryAudit({ afterSeq: 3 });
      expect(d).toMatchObject({ seq: 4, prevHash: before.at(-1)?.hash });
      const after = await store.queryAudit({});
      expect(verifyChain(after)).toMatchObject({ ok: true, count: 4, lastHash: d?.hash });
    });
  });
}

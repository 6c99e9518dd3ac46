import { describe, expect, it } from 'vitest';
import { openStorePerTest } from './open-store-per-test.js';
import { verifyChain } from '../audit/audit-chain.js';
import type { StoredDecision } from '../store/decision-record.js';
import type { HostStore } from '../store/host-store.js';
import type { HostStoreContractOptions, OpenedStore } from './store-contract-options.js';
import {
  TENANT,
  auditInput,
  byId,
  decision,
  decisionAudit,
  deleteWrite,
  expectRejection,
  labels,
  putWrite,
} from './host-store-fixtures.js';

/**
 * The permission-decision half of the `HostStore` contract: one row per key, replaced whole, deleted only by its
 * tenant, every write together with its audit events. Declared by `describeHostStoreContract`.
 */
export function describeDecisionContract(options: HostStoreContractOptions): void {
  const { name, open } = options;
  describe(`${name} (HostStore contract: permission decisions)`, () => {
    let opened: OpenedStore;
    let store: HostStore;
    openStorePerTest({
      open,
      use: (next) => {
        opened = next;
        store = next.store;
      },
    });

    /** Stores each decision with its own audit event, labelled `put <id>`. */
    async function put(...decisions: StoredDecision[]): Promise<void> {
      for (const d of decisions) await store.write([putWrite(d, decisionAudit(d, `put ${d.id}`))]);
    }

    it('stores a decision and lists it back, for its tenant and for everyone', async () => {
      const d = decision({ argsHash: 'args-1', expiresAt: 1_800_000_000_000, effect: 'deny', riskTier: 'high' });
      await put(d);

      expect(await store.listDecisions(TENANT)).toEqual([d]);
      expect(await store.listDecisions({})).toEqual([d]);
    });

    it('replaces the decision of the same key with the new one, id included', async () => {
      const old = decision({ effect: 'allow', definitionHash: 'def-1' });
      const replacement = decision({ effect: 'deny', definitionHash: 'def-2', grantedAt: old.grantedAt + 5 });
      await put(old, replacement);

      expect(await store.listDecisions({})).toEqual([replacement]);
      await store.write([deleteWrite([old.id], [])]);
      expect(await store.listDecisions({}), 'the old id is gone: deleting it deletes nothing').toEqual([replacement]);
    });

    it('updates a decision in place when it is put again with its own id', async () => {
      const d = decision();
      const extended = { ...d, expiresAt: 1_900_000_000_000 };
      await put(d, extended);

      expect(await store.listDecisions({})).toEqual([extended]);
    });

    it('keeps the per-tool and the per-arguments decisions of one tool side by side', async () => {
      const perTool = decision({ argsHash: null, effect: 'deny' });
      const perArgs = decision({ argsHash: 'args-1' });
      const otherArgs = decision({ argsHash: 'args-2' });
      const newPerTool = decision({ argsHash: null, effect: 'allow' });
      await put(perTool, perArgs, otherArgs, newPerTool);

      expect(byId(await store.listDecisions(TENANT))).toEqual(byId([perArgs, otherArgs, newPerTool]));
    });

    it("keeps a tool's allow for each conversation beside its allow always, each replaced under its own key", async () => {
      const always = decision({ riskTier: 'high' });
      const inFirst = decision({ conversationId: 'conversation-1' });
      const inSecond = decision({ conversationId: 'conversation-2', expiresAt: 1_800_000_000_000 });
      const firstAgain = decision({
        conversationId: 'conversation-1',
        definitionHash: 'def-2',
        grantedAt: 1_700_000_000_100,
      });
      await put(always, inFirst, inSecond, firstAgain);

      expect(byId(await store.listDecisions(TENANT))).toEqual(byId([always, inSecond, firstAgain]));
      expect((await store.listDecisions({})).map((d) => d.conversationId).sort()).toEqual([
        'conversation-1',
        'conversation-2',
        undefined,
      ]);
      await store.write([deleteWrite([inSecond.id], [decisionAudit(inSecond, 'revoke')])]);
      expect(byId(await store.listDecisions(TENANT))).toEqual(byId([always, firstAgain]));
    });

    it('finds a decision by its whole key, conversation included, where the store offers findDecision', async (context) => {
      if (store.findDecision === undefined) return context.skip('this store is not shared by several hosts');
      const always = decision();
      const inConversation = decision({ conversationId: 'conversation-1', effect: 'allow' });
      await put(always, inConversation);
      const key = { ...TENANT, serverIdentity: always.serverIdentity, tool: always.tool, argsHash: null };

      expect(await store.findDecision(key)).toEqual(always);
      expect(await store.findDecision({ ...key, conversationId: 'conversation-1' })).toEqual(inConversation);
      expect(await store.findDecision({ ...key, conversationId: 'conversation-2' })).toBeUndefined();
    });

    it.each(['userId', 'workspaceId', 'serverIdentity', 'tool'] as const)(
      'keeps decisions that differ only in %s apart',
      async (key) => {
        const first = decision();
        const second = decision({ [key]: `${first[key]}-other` });
        await put(first, second);

        expect(byId(await store.listDecisions({}))).toEqual(byId([first, second]));
      },
    );

    it('lists the decisions of a user, of a workspace, of one tenant, or all', async () => {
      const mine = decision();
      const myOtherWorkspace = decision({ workspaceId: 'workspace-b' });
      const theirs = decision({ userId: 'user-b' });
      await put(mine, myOtherWorkspace, theirs);

      expect(byId(await store.listDecisions({ userId: TENANT.userId }))).toEqual(byId([mine, myOtherWorkspace]));
      expect(byId(await store.listDecisions({ workspaceId: TENANT.workspaceId }))).toEqual(byId([mine, theirs]));
      expect(await store.listDecisions(TENANT)).toEqual([mine]);
      expect(byId(await store.listDecisions({}))).toEqual(byId([mine, myOtherWorkspace, theirs]));
      expect(await store.listDecisions({ userId: 'nobody' })).toEqual([]);
    });

    it("deletes only the tenant's own decisions among the ids", async () => {
      const mine = decision({ tool: 'read' });
      const alsoMine = decision({ tool: 'write' });
      const kept = decision({ tool: 'list' });
      const otherUser = decision({ userId: 'user-b' });
      const otherWorkspace = decision({ workspaceId: 'workspace-b' });
      await put(mine, alsoMine, kept, otherUser, otherWorkspace);

      const ids = [mine.id, alsoMine.id, otherUser.id, otherWorkspace.id, 'no-such-decision', mine.id];
      await store.write([deleteWrite(ids, [decisionAudit(mine, 'revoke')])]);

      expect(byId(await store.listDecisions({}))).toEqual(byId([kept, otherUser, otherWorkspace]));
    });

    it('appends exactly the audit events given with each decision write, in order', async () => {
      const a = decision({ tool: 'read' });
      const b = decision({ tool: 'write' });
      const replacement = decision({ tool: 'read', effect: 'deny' });
      await store.write([putWrite(a, decisionAudit(a, 'put a'))]);
      expect(labels(await store.queryAudit({}))).toEqual(['put a']);
      await store.write([putWrite(b, decisionAudit(b, 'put b'))]);
      await store.write([putWrite(replacement, decisionAudit(replacement, 'replace a'))]);
      expect(labels(await store.queryAudit({}))).toEqual(['put a', 'put b', 'replace a']);

      const revokes = [decisionAudit(replacement, 'revoke a'), decisionAudit(b, 'revoke b')];
      await store.write([deleteWrite([replacement.id, b.id], revokes)]);
      expect(await store.listDecisions({})).toEqual([]);
      const all = await store.queryAudit({});
      expect(labels(all)).toEqual(['put a', 'put b', 'replace a', 'revoke a', 'revoke b']);
      expect(all.map((e) => e.data['decisionId'])).toEqual([a.id, b.id, replacement.id, replacement.id, b.id]);
      expect(verifyChain(all)).toMatchObject({ ok: true, count: 5 });
    });

    it.each<[string, Partial<StoredDecision>]>([
      ['an unknown effect', { effect: 'maybe' as StoredDecision['effect'] }],
      ['an unknown risk tier', { riskTier: 'extreme' as StoredDecision['riskTier'] }],
      ["an args hash of '' (the stored form of per tool)", { argsHash: '' }],
      ["a conversation id of '' (the stored form of every conversation)", { conversationId: '' }],
      ['a grant time that is not a number', { grantedAt: Number.NaN }],
    ])('refuses a decision with %s as invalid_arguments, appending no event', async (_, bad) => {
      const d = decision(bad);
      await expectRejection(store.write([putWrite(d, decisionAudit(d, 'bad'))]), 'invalid_arguments');

      expect(await store.listDecisions({})).toEqual([]);
      expect(await store.queryAudit({})).toEqual([]);
    });

    it("refuses an id another key's decision holds, changing nothing", async () => {
      const d = decision({ tool: 'read' });
      await put(d);
      const clash = decision({ id: d.id, tool: 'write' });

      await expectRejection(store.write([putWrite(clash, decisionAudit(clash, 'clash'))]), 'store_error');
      expect(await store.listDecisions({})).toEqual([d]);
      expect(labels(await store.queryAudit({}))).toEqual([`put ${d.id}`]);
    });

    it('keeps no decision change whose audit event cannot be kept', async () => {
      const d = decision();
      await put(d);
      const badEvent = { ...auditInput('bad'), data: { big: 1n } };

      await expectRejection(store.write([putWrite({ ...decision(), effect: 'deny' }, badEvent)]), 'invalid_arguments');
      await expectRejection(store.write([deleteWrite([d.id], [badEvent])]), 'invalid_arguments');
      expect(await store.listDecisions({})).toEqual([d]);
      expect(labels(await store.queryAudit({}))).toEqual([`put ${d.id}`]);
    });

    it('returns copies, and keeps what it stored when the caller changes what it passed in', async () => {
      const d = decision();
      const before = structuredClone(d);
      await put(d);
      (d as { effect: string }).effect = 'deny';
      const [listed] = await store.listDecisions({});
      (listed as { tool: string }).tool = 'forged';

      expect(await store.listDecisions({})).toEqual([before]);
    });

    it('lists 2000 decisions of many tenants in one call', async () => {
      const all = Array.from({ length: 2000 }, (_, i) =>
        decision({ userId: `user-${i % 7}`, tool: `tool-${i}`, argsHash: i % 2 === 0 ? null : `args-${i}` }),
      );
      await put(...all);

      expect(byId(await store.listDecisions({}))).toEqual(byId(all));
      expect(await store.listDecisions({ userId: 'user-3' })).toHaveLength(
        all.filter((d) => d.userId === 'user-3').length,
      );
    });

    it('keeps decisions and the chain across a reopen, and the chain goes on', async (context) => {
      if (opened.reopen === undefined) return context.skip('this store does not persist');
      const perTool = decision({ expiresAt: 1_800_000_000_000 });
      const perArgs = decision({ argsHash: 'args-1', effect: 'deny', riskTier: 'medium' });
      const inConversation = decision({ conversationId: 'conversation-1', riskTier: 'high' });
      const revoked = decision({ tool: 'write' });
      await put(perTool, perArgs, inConversation, revoked);
      await store.write([deleteWrite([revoked.id], [decisionAudit(revoked, 'revoke')])]);
      const chain = await store.queryAudit({});

      store = await opened.reopen();

      expect(byId(await store.listDecisions({}))).toEqual(byId([perTool, perArgs, inConversation]));
      expect(await store.queryAudit({})).toEqual(chain);
      const replacement = decision({ effect: 'deny' });
      await store.write([putWrite(replacement, decisionAudit(replacement, 'after reopen'))]);
      const after = await store.queryAudit({});
      expect(after.at(-1)).toMatchObject({ seq: 6, prevHash: chain.at(-1)?.hash, data: { label: 'after reopen' } });
      expect(verifyChain(after)).toMatchObject({ ok: true, count: 6 });
      expect(byId(await store.listDecisions(TENANT))).toEqual(byId([perArgs, inConversation, replacement]));
    });
  });
}

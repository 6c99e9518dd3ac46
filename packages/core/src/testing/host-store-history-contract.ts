import { describe, expect, it } from 'vitest';
import { openStorePerTest } from './open-store-per-test.js';
import type { Scope } from '../scope.js';
import type { HostStore } from '../store/host-store.js';
import type { HostStoreContractOptions, OpenedStore } from './store-contract-options.js';
import type { InvocationRecord, ResultRecord } from '../store/invocation-record.js';
import {
  SCOPE,
  auditInput,
  auditWrites,
  createWrite,
  decision,
  deleteWrite,
  expectRejection,
  invocation,
  move,
  opening,
  putWrite,
  resultFor,
  transitionWrite,
} from './host-store-fixtures.js';

/**
 * The history part of the `HostStore` contract: invocations, their transitions and results, written one write at a
 * time and read back per tenant, paged, copied, across a reopen and after close. Declared by
 * `describeHostStoreContract`.
 */
export function describeHistoryContract(options: HostStoreContractOptions): void {
  const { name, open } = options;
  describe(`${name} (HostStore contract: history)`, () => {
    let opened: OpenedStore;
    let store: HostStore;
    openStorePerTest({
      open,
      use: (next) => {
        opened = next;
        store = next.store;
      },
    });

    /** Creates `record` and runs it pending -> running -> success with a result, one millisecond apart. */
    async function finished(record: InvocationRecord, fullText?: string): Promise<ResultRecord> {
      const result = resultFor(record.id, fullText);
      await store.write([createWrite(record)]);
      await store.write([transitionWrite(move(record, 2, 'pending', 'running'), { scope: record.scope })]);
      await store.write([
        transitionWrite(move(record, 3, 'running', 'success', 'success'), { scope: record.scope, result }),
      ]);
      return result;
    }

    it('creates an invocation and reads it back with its first transition', async () => {
      const record = invocation();
      await store.write([createWrite(record)]);

      expect(await store.getInvocation(SCOPE, record.id)).toEqual(record);
      expect(await store.listTransitions(SCOPE, record.id)).toEqual([opening(record)]);
      expect(await store.getResult(SCOPE, record.id)).toBeUndefined();
    });

    it('applies transitions in order with increasing seq and updates state, outcome, error and updatedAt', async () => {
      const record = invocation({ caller: { kind: 'model' }, serverId: null, tool: 'clock', originalName: 'clock' });
      await store.write([createWrite(record)]);
      const running = move(record, 2, 'pending', 'running');
      await store.write([transitionWrite(running)]);
      expect(await store.getInvocation(SCOPE, record.id)).toMatchObject({ state: 'running', updatedAt: running.at });

      const timedOut = move(record, 3, 'running', 'error', 'timeout', {
        code: 'timeout',
        message: 'no answer in 60 s',
      });
      await store.write([transitionWrite(timedOut)]);

      expect(await store.getInvocation(SCOPE, record.id)).toEqual({
        ...record,
        state: 'error',
        outcome: 'timeout',
        error: { code: 'timeout', message: 'no answer in 60 s' },
        updatedAt: timedOut.at,
      });
      expect(await store.listTransitions(SCOPE, record.id)).toEqual([opening(record), running, timedOut]);
    });

    it('keeps a JSON-RPC error code as a number', async () => {
      const record = invocation();
      await store.write([createWrite(record)]);
      await store.write([transitionWrite(move(record, 2, 'pending', 'running'))]);
      const failed = move(record, 3, 'running', 'error', 'protocol_error', { code: -32602, message: 'bad params' });
      await store.write([transitionWrite(failed)]);

      expect((await store.getInvocation(SCOPE, record.id))?.error).toEqual({ code: -32602, message: 'bad params' });
      expect((await store.listTransitions(SCOPE, record.id))[2]?.error).toEqual({
        code: -32602,
        message: 'bad params',
      });
    });

    it('stores the result with the final transition and reads it back exactly', async () => {
      const record = invocation();
      const result = await finished(record);

      expect(await store.getResult(SCOPE, record.id)).toEqual(result);
      expect(await store.getInvocation(SCOPE, record.id)).toMatchObject({ state: 'success', outcome: 'success' });
      expect((await store.listTransitions(SCOPE, record.id)).map((t) => t.seq)).toEqual([1, 2, 3]);
    });

    it('keeps a 5 MB full text whole', async () => {
      const line = 'ünïcødé ✓ 𝄞 — a line of a large result\n';
      const fullText = line.repeat(Math.ceil((5 * 1024 * 1024) / line.length));
      expect(fullText.length).toBeGreaterThanOrEqual(5 * 1024 * 1024);
      const record = invocation();
      await finished(record, fullText);

      const stored = await store.getResult(SCOPE, record.id);
      expect(stored?.fullText.length).toBe(fullText.length);
      expect(stored?.fullText === fullText, 'the 5 MB full text reads back unchanged').toBe(true);
      expect(stored?.rawJson === JSON.stringify({ content: [{ type: 'text', text: fullText }] })).toBe(true);
    });

    it('writes nothing of a transition that fails part way', async () => {
      const record = invocation();
      await store.write([createWrite(record)]);
      await store.write([transitionWrite(move(record, 2, 'pending', 'running'))]);
      const reusedSeq = move(record, 2, 'running', 'success', 'success');

      await expectRejection(store.write([transitionWrite(reusedSeq, { result: resultFor(record.id) })]), 'store_error');

      expect(await store.getInvocation(SCOPE, record.id)).toMatchObject({ state: 'running', outcome: null });
      expect(await store.listTransitions(SCOPE, record.id)).toHaveLength(2);
      expect(await store.getResult(SCOPE, record.id)).toBeUndefined();
    });

    it('stores a batch of writes in order', async () => {
      const record = invocation();
      const result = resultFor(record.id);
      await store.write([
        { kind: 'create', record, first: opening(record) },
        { kind: 'transition', scope: SCOPE, transition: move(record, 2, 'pending', 'running') },
        { kind: 'transition', scope: SCOPE, transition: move(record, 3, 'running', 'success', 'success'), result },
      ]);
      expect(await store.getInvocation(SCOPE, record.id)).toMatchObject({ state: 'success', outcome: 'success' });
      expect((await store.listTransitions(SCOPE, record.id)).map((t) => t.to)).toEqual([
        'pending',
        'running',
        'success',
      ]);
      expect(await store.getResult(SCOPE, record.id)).toEqual(result);
    });

    it('refuses a batch with a bad write and keeps none of the writes before it', async () => {
      const record = invocation();
      await expectRejection(
        store.write([
          { kind: 'create', record, first: opening(record) },
          { kind: 'transition', scope: SCOPE, transition: move(record, 2, 'pending', 'success', 'success') },
        ]),
        'invalid_transition',
      );
      expect(await store.getInvocation(SCOPE, record.id)).toBeUndefined();
      expect(await store.listInvocations(SCOPE)).toEqual([]);
    });

    it('refuses a transition from a state the invocation is no longer in', async () => {
      const record = invocation();
      await store.write([createWrite(record)]);
      await store.write([transitionWrite(move(record, 2, 'pending', 'running'))]);

      await expectRejection(
        store.write([transitionWrite(move(record, 3, 'pending', 'cancelled'))]),
        'invalid_transition',
      );
      expect(await store.getInvocation(SCOPE, record.id)).toMatchObject({ state: 'running' });
      expect(await store.listTransitions(SCOPE, record.id)).toHaveLength(2);
    });

    it('refuses moves the state machine forbids, and a result before the call has ended', async () => {
      const record = invocation();
      await store.write([createWrite(record)]);

      await expectRejection(
        store.write([transitionWrite(move(record, 2, 'pending', 'success'))]),
        'invalid_transition',
      );
      const running = move(record, 2, 'pending', 'running');
      await expectRejection(
        store.write([transitionWrite(running, { result: resultFor(record.id) })]),
        'invalid_transition',
      );
      expect(await store.listTransitions(SCOPE, record.id)).toHaveLength(1);
      expect(await store.getResult(SCOPE, record.id)).toBeUndefined();
    });

    it('refuses an invocation that does not start pending with transition 1, and an id already taken', async () => {
      const record = invocation();
      await expectRejection(
        store.write([{ kind: 'create', record, first: { ...opening(record), seq: 2 } }]),
        'invalid_transition',
      );
      await expectRejection(
        store.write([
          { kind: 'create', record: { ...record, state: 'running' }, first: { ...opening(record), to: 'running' } },
        ]),
        'invalid_transition',
      );
      expect(await store.getInvocation(SCOPE, record.id)).toBeUndefined();

      await store.write([createWrite(record)]);
      await expectRejection(
        store.write([{ kind: 'create', record: { ...record, tool: 'other' }, first: opening(record) }]),
        'store_error',
      );
      expect(await store.getInvocation(SCOPE, record.id)).toEqual(record);
    });

    const SCOPE_KEYS = ['userId', 'workspaceId', 'conversationId'] as const;

    it.each(SCOPE_KEYS)('shows nothing to a tenant that differs only in %s', async (key) => {
      const record = invocation();
      await finished(record);
      const other: Scope = { ...SCOPE, [key]: `${SCOPE[key]}-other` };

      expect(await store.getInvocation(other, record.id)).toBeUndefined();
      expect(await store.listInvocations(other)).toEqual([]);
      expect(await store.listTransitions(other, record.id)).toEqual([]);
      expect(await store.getResult(other, record.id)).toBeUndefined();
      expect(await store.listInvocations(SCOPE)).toHaveLength(1);
    });

    it.each(SCOPE_KEYS)('refuses writes from a tenant that differs only in %s as not_found', async (key) => {
      const record = invocation();
      await store.write([createWrite(record)]);
      const other: Scope = { ...SCOPE, [key]: `${SCOPE[key]}-other` };

      await expectRejection(
        store.write([transitionWrite(move(record, 2, 'pending', 'running'), { scope: other })]),
        'not_found',
      );
      const cancel = move(record, 2, 'pending', 'cancelled', 'cancelled');
      await expectRejection(
        store.write([transitionWrite(cancel, { scope: other, result: resultFor(record.id) })]),
        'not_found',
      );
      expect(await store.getInvocation(SCOPE, record.id)).toEqual(record);
      expect(await store.listTransitions(SCOPE, record.id)).toEqual([opening(record)]);
      expect(await store.getResult(SCOPE, record.id)).toBeUndefined();
    });

    it('answers unknown ids with nothing, and refuses writes to them as not_found', async () => {
      expect(await store.getInvocation(SCOPE, 'no-such-id')).toBeUndefined();
      expect(await store.listTransitions(SCOPE, 'no-such-id')).toEqual([]);
      expect(await store.getResult(SCOPE, 'no-such-id')).toBeUndefined();
      expect(await store.listInvocations(SCOPE)).toEqual([]);
      const ghost = invocation({ id: 'no-such-id' });
      await expectRejection(store.write([transitionWrite(move(ghost, 2, 'pending', 'running'))]), 'not_found');
    });

    it('lists newest first and pages with limit and before', async () => {
      const times = [3000, 1000, 5000, 2000, 4000];
      for (const createdAt of times) {
        const record = invocation({ createdAt });
        await store.write([createWrite(record)]);
      }
      const page = async (options: { limit?: number; before?: number }) =>
        (await store.listInvocations(SCOPE, options)).map((r) => r.createdAt);

      expect(await page({})).toEqual([5000, 4000, 3000, 2000, 1000]);
      expect(await page({ limit: 2 })).toEqual([5000, 4000]);
      expect(await page({ limit: 2, before: 4000 })).toEqual([3000, 2000]);
      expect(await page({ limit: 2, before: 2000 })).toEqual([1000]);
      expect(await page({ before: 1000 })).toEqual([]);
    });

    it('lists calls created in the same millisecond newest created first', async () => {
      const first = invocation({ createdAt: 7000 });
      const second = invocation({ createdAt: 7000 });
      await store.write([createWrite(first)]);
      await store.write([createWrite(second)]);

      expect((await store.listInvocations(SCOPE)).map((r) => r.id)).toEqual([second.id, first.id]);
    });

    it('returns 50 by default and never more than 500', async () => {
      for (let i = 0; i < 501; i += 1) {
        const record = invocation({ createdAt: 10_000 + i });
        await store.write([createWrite(record)]);
      }
      const defaultPage = await store.listInvocations(SCOPE);
      expect(defaultPage).toHaveLength(50);
      expect(defaultPage[0]?.createdAt).toBe(10_500);
      expect(await store.listInvocations(SCOPE, { limit: 10_000 })).toHaveLength(500);
      await expectRejection(store.listInvocations(SCOPE, { limit: 0 }), 'invalid_arguments');
      await expectRejection(store.listInvocations(SCOPE, { limit: 2.5 }), 'invalid_arguments');
    });

    it('returns copies that cannot change what is stored', async () => {
      const record = invocation();
      const result = await finished(record);

      const got = (await store.getInvocation(SCOPE, record.id)) as unknown as { args: { path: string }; state: string };
      got.args.path = '/etc/passwd';
      got.state = 'pending';
      const listed = (await store.listInvocations(SCOPE))[0] as { caller: { kind: string } };
      listed.caller.kind = 'user';
      const transitions = await store.listTransitions(SCOPE, record.id);
      (transitions[0] as { to: string }).to = 'success';
      transitions.pop();
      const stored = (await store.getResult(SCOPE, record.id)) as unknown as { model: { text: string } };
      stored.model.text = 'forged';

      expect(await store.getInvocation(SCOPE, record.id)).toMatchObject({ args: record.args, state: 'success' });
      expect((await store.listInvocations(SCOPE))[0]?.caller).toEqual(record.caller);
      expect(await store.listTransitions(SCOPE, record.id)).toHaveLength(3);
      expect((await store.listTransitions(SCOPE, record.id))[0]?.to).toBe('pending');
      expect(await store.getResult(SCOPE, record.id)).toEqual(result);
    });

    it('keeps stored rows unchanged when the caller changes what it passed in', async () => {
      const args = { path: '/tmp/a.txt' };
      const record = invocation({ args });
      const first = opening(record);
      const running = move(record, 2, 'pending', 'running');
      const failed = move(record, 3, 'running', 'error', 'tool_error', { code: 'tool_error', message: 'it failed' });
      const result = resultFor(record.id);
      const before = structuredClone({ record, first, running, failed, result });
      await store.write([{ kind: 'create', record, first }]);
      await store.write([transitionWrite(running)]);
      await store.write([transitionWrite(failed, { result })]);

      args.path = '/etc/shadow';
      (first as { to: string }).to = 'success';
      (failed.error as { message: string }).message = 'forged';
      (result.screen.blocks as unknown[]).length = 0;

      expect(await store.getInvocation(SCOPE, record.id)).toEqual({
        ...before.record,
        state: 'error',
        outcome: 'tool_error',
        error: before.failed.error,
        updatedAt: failed.at,
      });
      expect(await store.listTransitions(SCOPE, record.id)).toEqual([before.first, before.running, before.failed]);
      expect(await store.getResult(SCOPE, record.id)).toEqual(before.result);
    });

    it('keeps everything across a reopen', async (context) => {
      if (opened.reopen === undefined) return context.skip('this store does not persist');
      const record = invocation();
      const result = await finished(record);
      const cancelled = invocation({ createdAt: record.createdAt + 10 });
      await store.write([createWrite(cancelled)]);
      await store.write([transitionWrite(move(cancelled, 2, 'pending', 'cancelled', 'permission_denied'))]);

      store = await opened.reopen();

      expect(await store.listInvocations(SCOPE)).toEqual([
        { ...cancelled, state: 'cancelled', outcome: 'permission_denied', updatedAt: cancelled.createdAt + 1 },
        { ...record, state: 'success', outcome: 'success', updatedAt: record.createdAt + 2 },
      ]);
      expect(await store.listTransitions(SCOPE, record.id)).toHaveLength(3);
      expect(await store.getResult(SCOPE, record.id)).toEqual(result);
    });

    it('rejects every call with closed once closed, and closes twice without error', async () => {
      const record = invocation();
      await store.write([createWrite(record)]);
      await store.close();
      await store.close();

      const next = invocation();
      await expectRejection(store.write([createWrite(next)]), 'closed');
      await expectRejection(store.write([transitionWrite(move(record, 2, 'pending', 'running'))]), 'closed');
      await expectRejection(store.getInvocation(SCOPE, record.id), 'closed');
      await expectRejection(store.listInvocations(SCOPE), 'closed');
      await expectRejection(store.listTransitions(SCOPE, record.id), 'closed');
      await expectRejection(store.getResult(SCOPE, record.id), 'closed');
      await expectRejection(store.write([]), 'closed');
      const d = decision();
      await expectRejection(store.write([putWrite(d, auditInput('put'))]), 'closed');
      await expectRejection(store.write([deleteWrite([d.id], [])]), 'closed');
      await expectRejection(store.listDecisions({}), 'closed');
      await expectRejection(store.write(auditWrites([auditInput('late')])), 'closed');
      await expectRejection(store.queryAudit({}), 'closed');
    });
  });
}

// Allow for this conversation across two consoles on one PostgreSQL database (a real server, test/support/postgres):
// the allow alice gives on A holds for her calls in that conversation on B too, her other conversation is asked
// again, the permissions page lists it with its conversation, and a revoke on B makes A ask again.
import type { PermissionRequest, StoredDecision } from '@airlock/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresConsoles } from './testing/postgres-consoles.js';
import { ConsoleClient } from './testing/console-client.js';

const consoles = new PostgresConsoles('postgres conversation grain test');

beforeAll(() => consoles.start(), 60_000);
afterAll(() => consoles.close());

/** Starts a call by hand in a conversation and returns its id. */
async function startIn(client: ConsoleClient, conversation: string, text: string): Promise<string> {
  const answer = await client.post('/api/invocations', { tool: 'demo__echo', args: { text }, conversation });
  expect(answer.status).toBe(202);
  return (answer.body as { invocationId: string }).invocationId;
}

describe('allow for this conversation across two consoles on one PostgreSQL database', () => {
  it('holds in its conversation on both instances, asks in another, and is revoked from either', async () => {
    const [a, b] = await consoles.pair();
    const onA = await ConsoleClient.signIn(a.url, { userId: 'alice' });
    const onB = await ConsoleClient.signIn(b.url, { userId: 'alice' });
    const tabA = await onA.openEvents('main');
    const tabB = await onB.openEvents('main');
    const otherTabB = await onB.openEvents('other');
    consoles.track(tabA, tabB, otherTabB);

    const first = await startIn(onA, 'main', 'first');
    const asked: PermissionRequest = await tabA.waitForPermission(first);
    expect(asked.allowConversation).toEqual({ offered: true });
    // B's tab of the same conversation is shown the question too (through the store); waiting for it before the
    // answer keeps the later check of B's events from racing the answer.
    await tabB.waitForPermission(first);
    expect((await onA.post(`/api/permission-requests/${first}`, { decision: 'allow_conversation' })).status).toBe(200);
    expect((await tabA.waitForEnd(first)).invocation.state).toBe('success');

    // B hears of the stored allow through the store's news.
    const storedOnB = async () => (await onB.get('/api/permissions')).body as StoredDecision[];
    await expect
      .poll(storedOnB)
      .toEqual([expect.objectContaining({ tool: 'echo', effect: 'allow', conversationId: 'main' })]);
    const stored = await storedOnB();

    // The same conversation on B runs at once: nobody answers anything, and the call still ends.
    const second = await startIn(onB, 'main', 'second, on b');
    expect((await tabB.waitForEnd(second)).invocation.state).toBe('success');
    // B's tab of the conversation was shown A's first question, so it would be shown one for this call too.
    expect(
      [...tabA.events, ...tabB.events].filter(
        (e) => e.event === 'permission.requested' && (e.data as PermissionRequest).invocationId === second,
      ),
    ).toEqual([]);

    // Her other conversation is asked.
    const other = await startIn(onB, 'other', 'in another conversation');
    await otherTabB.waitForPermission(other);
    expect((await onB.post(`/api/permission-requests/${other}`, { decision: 'deny_once' })).status).toBe(200);
    expect((await otherTabB.waitForEnd(other)).invocation.state).toBe('cancelled');

    // Revoked on B: A's next call in the conversation is asked again.
    expect((await onB.delete(`/api/permissions/${stored[0]!.id}`)).status).toBe(200);
    const after = await startIn(onA, 'main', 'after the revoke');
    await tabA.waitForPermission(after);
    expect((await onA.post(`/api/permission-requests/${after}`, { decision: 'deny_once' })).status).toBe(200);
    expect((await tabA.waitForEnd(after)).invocation.state).toBe('cancelled');
  }, 90_000);
});

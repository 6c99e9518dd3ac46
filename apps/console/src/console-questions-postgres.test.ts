// Questions across two consoles on one PostgreSQL database (a real server, started by test/support/postgres): a
// permission request raised by a call on A is shown on B's tab and answered there, the first answer wins whichever
// instance it reaches, a cancel from B stops the call on A, a server's question to a call on A is answered from B,
// "done, retry" for a URL flow on A is taken on B, and a revoke on B makes A ask again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresConsoles } from './testing/postgres-consoles.js';
import { ConsoleClient } from './testing/console-client.js';

const consoles = new PostgresConsoles('postgres questions test');

beforeAll(() => consoles.start(), 60_000);
afterAll(() => consoles.close());

/** Two consoles on a fresh database, alice signed in on each with a tab open (before any call starts). */
async function twoConsoles() {
  const [a, b] = await consoles.pair();
  const onA = await ConsoleClient.signIn(a.url, { userId: 'alice' });
  const onB = await ConsoleClient.signIn(b.url, { userId: 'alice' });
  const tabA = await onA.openEvents();
  const tabB = await onB.openEvents();
  consoles.track(tabA, tabB);
  return { onA, onB, tabA, tabB };
}

const closedEvent = (id: string) => (e: { event: string; data: unknown }) =>
  e.event === 'permission.closed' && (e.data as { id: string }).id === id;

describe('permission questions across two consoles on one PostgreSQL database', () => {
  it("shows A's question on B's tab, B's answer runs the call on A, and a later answer is told it came too late", async () => {
    const { onA, onB, tabA, tabB } = await twoConsoles();
    const id = await onA.startCall('demo__echo', { text: 'asked on a' });
    const shown = await tabB.waitForPermission(id);
    expect(shown).toMatchObject({ invocationId: id, tool: { name: 'demo__echo' } });
    await tabA.waitForPermission(id);

    expect((await onB.post(`/api/permission-requests/${id}`, { decision: 'allow_once' })).status).toBe(200);
    const ended = await tabA.waitForEnd(id);
    expect(ended.invocation.state).toBe('success');
    const closedOnA = await tabA.waitFor(closedEvent(id), 'the question closing on A');
    expect(closedOnA.data).toEqual({ id, decision: 'allow_once' });

    for (const client of [onA, onB]) {
      const late = await client.post(`/api/permission-requests/${id}`, { decision: 'deny_once' });
      expect(late.status).toBe(409);
      expect(late.body).toMatchObject({ error: { code: 'already_answered' } });
    }
    // Another user cannot answer alice's question from either instance.
    const bob = await ConsoleClient.signIn(onB.baseUrl, { userId: 'bob' });
    expect((await bob.post(`/api/permission-requests/${id}`, { decision: 'allow_once' })).status).toBe(404);
  }, 60_000);

  it('applies exactly one of two answers sent at once to A and B', async () => {
    const { onA, onB, tabA, tabB } = await twoConsoles();
    const id = await onA.startCall('demo__echo', { text: 'race' });
    await Promise.all([tabA.waitForPermission(id), tabB.waitForPermission(id)]);

    const [fromA, fromB] = await Promise.all([
      onA.post(`/api/permission-requests/${id}`, { decision: 'deny_once' }),
      onB.post(`/api/permission-requests/${id}`, { decision: 'allow_once' }),
    ]);
    expect([fromA.status, fromB.status].sort()).toEqual([200, 409]);
    const ended = await tabA.waitForEnd(id);
    // The answer that won decided the call.
    expect(ended.invocation.state).toBe(fromA.status === 200 ? 'cancelled' : 'success');
    const closedOnB = await tabB.waitFor(closedEvent(id), 'the question closing on B');
    expect((closedOnB.data as { decision: string }).decision).toBe(fromA.status === 200 ? 'deny_once' : 'allow_once');
  }, 60_000);

  it('cancels from B a call waiting on A, and the question closes on both', async () => {
    const { onA, onB, tabA, tabB } = await twoConsoles();
    const id = await onA.startCall('demo__echo', { text: 'never answered' });
    await tabB.waitForPermission(id);
    // B finds the call in the shared history before it cancels it.
    // A's read drains its history writer first: once A answers, the call is committed and B reads it.
    expect((await onA.get(`/api/invocations/${id}`)).status).toBe(200);
    expect((await onB.get(`/api/invocations/${id}`)).status).toBe(200);

    expect((await onB.post(`/api/invocations/${id}/cancel`)).status).toBe(202);
    const ended = await tabA.waitForEnd(id);
    expect(ended.invocation.state).toBe('cancelled');
    expect((await tabB.waitFor(closedEvent(id), 'the question closing on B')).data).toEqual({ id, decision: null });
    expect((await onB.post(`/api/permission-requests/${id}`, { decision: 'allow_once' })).status).toBe(409);
  }, 60_000);

  it("takes the answer to a server's question on A from B's tab: checked on A (400 while it does not fit), then 409", async () => {
    const { onA, onB, tabA, tabB } = await twoConsoles();
    const id = await onA.startCall('demo__ask_user', {});
    await tabA.waitForPermission(id);
    expect((await onA.post(`/api/permission-requests/${id}`, { decision: 'allow_once' })).status).toBe(200);
    const question = await tabB.waitForElicitation(id);
    expect(question).toMatchObject({ mode: 'form', tool: 'demo__ask_user', scope: { userId: 'alice' } });

    const bad = await onB.post(`/api/elicitations/${question.id}`, {
      answer: { action: 'accept', content: { name: 'Ada', age: 'very old' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: 'invalid_arguments', errors: { age: expect.any(String) } } });
    const good = await onB.post(`/api/elicitations/${question.id}`, {
      answer: { action: 'accept', content: { name: 'Ada', age: 36 } },
    });
    expect(good.status).toBe(200);
    expect((await tabA.waitForEnd(id)).invocation.state).toBe('success');
    const closed = (e: { event: string; data: unknown }) =>
      e.event === 'elicitation.closed' && (e.data as { id: string }).id === question.id;
    expect((await tabB.waitFor(closed, 'the question closing on B')).data).toMatchObject({ action: 'accept' });
    for (const client of [onA, onB]) {
      const late = await client.post(`/api/elicitations/${question.id}`, { answer: { action: 'decline' } });
      expect(late.status).toBe(409);
    }
  }, 60_000);

  it('takes "done, retry" for a URL flow a call on A asked from B, and A\'s tab is told it completed', async () => {
    const { onA, onB, tabA } = await twoConsoles();
    // The server never completes the flow itself here: only the user's "done" does.
    const id = await onA.startCall('demo__connect_required', { completeAfterMs: 600_000 });
    await tabA.waitForPermission(id);
    expect((await onA.post(`/api/permission-requests/${id}`, { decision: 'allow_once' })).status).toBe(200);
    const question = await tabA.waitForElicitation(id);
    expect(question).toMatchObject({ mode: 'url', serverElicitationId: expect.any(String) });
    expect((await onA.post(`/api/elicitations/${question.id}`, { answer: { action: 'accept' } })).status).toBe(200);

    expect((await onB.post(`/api/elicitations/${question.id}/done`)).status).toBe(200);
    await tabA.waitFor(
      (e) => e.event === 'elicitation.completed' && (e.data as { id: string }).id === question.id,
      'the URL flow completing on A',
    );
  }, 60_000);

  it("asks A's next call again once B revokes the allow A's user stored", async () => {
    const { onA, onB, tabA } = await twoConsoles();
    const first = await onA.startCall('demo__echo', { text: 'remember' });
    await tabA.waitForPermission(first);
    expect((await onA.post(`/api/permission-requests/${first}`, { decision: 'allow_always' })).status).toBe(200);
    expect((await tabA.waitForEnd(first)).invocation.state).toBe('success');
    const again = await onA.startCall('demo__echo', { text: 'remembered' });
    expect((await tabA.waitForEnd(again)).invocation.state).toBe('success');

    // B hears of the stored allow through the store's news.
    const storedOnB = async () => (await onB.get('/api/permissions')).body as { id: string }[];
    await expect.poll(storedOnB).toHaveLength(1);
    const stored = await storedOnB();
    expect((await onB.delete(`/api/permissions/${stored[0]?.id ?? ''}`)).status).toBe(200);

    const next = await onA.startCall('demo__echo', { text: 'after the revoke' });
    await tabA.waitForPermission(next);
    expect((await onA.post(`/api/permission-requests/${next}`, { decision: 'deny_once' })).status).toBe(200);
    expect((await tabA.waitForEnd(next)).invocation.state).toBe('cancelled');
  }, 60_000);
});

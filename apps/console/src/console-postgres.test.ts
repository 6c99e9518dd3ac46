// Two consoles on one PostgreSQL database (a real server, started by test/support/postgres): what one instance stored
// is read from the other, and the one audit chain both appended to verifies. Questions and decisions crossing
// instances live are in console-questions-postgres.test.ts, an instance that dies in console-kill.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresConsoles } from './testing/postgres-consoles.js';
import { ConsoleClient } from './testing/console-client.js';

const consoles = new PostgresConsoles('postgres test', {
  rules: [{ effect: 'allow', layer: 'host', server: 'demo', tool: 'echo', source: 'postgres test' }],
});

beforeAll(() => consoles.start(), 60_000);
afterAll(() => consoles.close());

describe('two consoles on one PostgreSQL database', () => {
  it('shows a call made on one instance, with its result, on the other, and both verify one audit chain', async () => {
    // Started together: both migrate the empty database, one after the other.
    const [a, b] = await consoles.pair({ together: true });
    const onA = await ConsoleClient.signIn(a.url, { userId: 'alice' });
    const onB = await ConsoleClient.signIn(b.url, { userId: 'alice' });
    const tab = await onA.openEvents();

    const ids: string[] = [];
    for (const text of ['first', 'second']) {
      const id = await onA.startCall('demo__echo', { text });
      await tab.waitForEnd(id);
      ids.push(id);
    }
    // The tab is open before the call starts, so its end cannot pass before the tab listens.
    const tabB = await onB.openEvents();
    const fromB = await onB.startCall('demo__echo', { text: 'from b' });
    await tabB.waitForEnd(fromB);
    await tab.close();
    await tabB.close();

    const card = await onB.get(`/api/invocations/${ids[0]}`);
    expect(card.status).toBe(200);
    expect(card.body).toMatchObject({ invocation: { id: ids[0], state: 'success' } });
    const listed = (await onB.get('/api/invocations')).body as { invocation: { id: string } }[];
    expect(listed.map((c) => c.invocation.id)).toEqual(expect.arrayContaining([...ids, fromB]));
    const listedOnA = (await onA.get('/api/invocations')).body as { invocation: { id: string } }[];
    expect(listedOnA.map((c) => c.invocation.id)).toContain(fromB);
    // Another user finds nothing of alice's on either instance.
    const bob = await ConsoleClient.signIn(b.url, { userId: 'bob' });
    expect((await bob.get(`/api/invocations/${ids[0]}`)).status).toBe(404);

    for (const client of [onA, onB]) {
      expect((await client.post('/api/audit/verify')).body).toEqual({ ok: true });
    }
  }, 60_000);

  it("serves a session made on one instance from the other, and moves and ends the session's tabs on both", async () => {
    const [a, b] = await consoles.pair({ together: true });
    const onA = await ConsoleClient.signIn(a.url, { userId: 'carol', workspaceId: 'team' });
    // The same browser's cookie, sent to the other instance (a load balancer without sticky sessions).
    const onB = onA.at(b.url);
    expect((await onB.get('/api/session')).body).toMatchObject({ userId: 'carol', workspaceId: 'team' });
    const tabOnA = await onA.openEvents();
    consoles.track(tabOnA);

    // Switched and signed out on B: A's tab of the session moves, then ends, without a request of its own.
    expect((await onB.post('/api/session/workspace', { workspaceId: 'other' })).status).toBe(200);
    const moved = await tabOnA.waitFor((e) => e.event === 'session.workspace', 'the move told on A');
    expect(moved.data).toEqual({ workspaceId: 'other' });
    expect((await onA.get('/api/session')).body).toMatchObject({ workspaceId: 'other' });
    expect((await onB.delete('/api/session')).status).toBe(200);
    await tabOnA.waitFor((e) => e.event === 'session.ended', 'the sign-out told on A');
    // The stream ends (before or while this waits, as it happens).
    await expect(tabOnA.waitFor(() => false, 'anything after the sign-out')).rejects.toThrow(/the event stream ended/);
    expect((await onA.get('/api/session')).status).toBe(401);
  }, 60_000);
});

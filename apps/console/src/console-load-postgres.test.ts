// A load run through two consoles on one PostgreSQL database (a real server, started by test/support/postgres): 50
// users, each with a tab on both instances, make 20 calls each, alternating the instance they call on, and every
// permission question is answered from the other instance's tab. Then: every call ended in success (none lost), each
// question was decided once (one audited answer per call, a second answer refused), and the one chain verifies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoServers } from '@airlock/console';
import { PostgresConsoles } from './testing/postgres-consoles.js';
import { ConsoleClient } from './testing/console-client.js';

const USERS = 50;
const CALLS = 20;

// One demo process for everyone, set explicitly: the run loads the questions shared between instances, and 50 users
// on the console's default (a process per user) would start 100 demo processes.
const consoles = new PostgresConsoles('postgres load test', {
  servers: demoServers().map((s) => ({ ...s, isolation: 'shared' as const })),
});

beforeAll(() => consoles.start(), 60_000);
afterAll(() => consoles.close());

describe('two consoles on one PostgreSQL database under load', () => {
  it(`runs ${USERS} users x ${CALLS} calls with every question answered on the other instance`, async () => {
    const [a, b] = await consoles.pair();

    const user = async (n: number) => {
      const sides = await Promise.all(
        [a, b].map(async (instance) => {
          const client = await ConsoleClient.signIn(instance.url, { userId: `user-${n}` });
          const tab = await client.openEvents();
          consoles.track(tab);
          return { client, tab };
        }),
      );
      const ids: string[] = [];
      for (let i = 0; i < CALLS; i++) {
        const [here, there] = i % 2 === 0 ? [sides[0], sides[1]] : [sides[1], sides[0]];
        if (here === undefined || there === undefined) throw new Error('two sides');
        const id = await here.client.startCall('demo__echo', { text: `user ${n} call ${i}` });
        await there.tab.waitForPermission(id);
        const answered = await there.client.post(`/api/permission-requests/${id}`, { decision: 'allow_once' });
        expect(answered.status).toBe(200);
        expect((await here.tab.waitForEnd(id)).invocation.state).toBe('success');
        ids.push(id);
      }
      // A second answer, from the instance that ran the last call, is refused.
      const again = await sides[1]?.client.post(`/api/permission-requests/${ids.at(-1) ?? ''}`, {
        decision: 'deny_once',
      });
      expect(again?.status).toBe(409);
      return { client: sides[0]?.client, ids };
    };
    const runs = await Promise.all(Array.from({ length: USERS }, (_, n) => user(n)));

    const all = runs.flatMap((r) => r.ids);
    expect(new Set(all).size).toBe(USERS * CALLS);
    // A call's end is told before its grouped commit: each instance's own audit query commits what it still holds
    // first, so B's decisions are in the database before A reads them.
    await b.host.audit.query({ scope: { userId: 'user-0', workspaceId: 'default' }, limit: 1 });
    for (let n = 0; n < USERS; n++) {
      const audit = await a.host.audit.query({ scope: { userId: `user-${n}`, workspaceId: 'default' }, limit: 10_000 });
      const decided = audit.filter((e) => e.type === 'permission.decision' && e.data['origin'] === 'user_prompt');
      expect(decided.map((e) => e.invocationId).sort()).toEqual([...(runs[n]?.ids ?? [])].sort());
    }
    expect(await a.host.audit.verify()).toMatchObject({ ok: true });
    expect(await b.host.audit.verify()).toMatchObject({ ok: true });
  }, 300_000);
});

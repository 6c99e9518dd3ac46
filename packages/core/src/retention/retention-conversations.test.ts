import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { HostConfig } from '../host/host-config.js';
import type { ConversationRecord } from '../store/conversation-record.js';
import type { HostStore } from '../store/host-store.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import { FakeClock } from '../testing/fake-clock.js';
import { auditInput, decision } from '../testing/host-store-fixtures.js';
import { scratchDir } from '../testing/scratch-dir.js';
import { DAY_MS } from './retention-config.js';

const ANA = { userId: 'ana', workspaceId: 'w1' } as const;
const BO = { userId: 'bo', workspaceId: 'team' } as const;

const hosts: Host[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});

const stores = [
  [
    'SqliteStore (a real file)',
    () => new SqliteStore({ database: new Database(join(scratchDir('airlock-ret-conv-'), 'a.db')) }),
  ],
  ['MemoryStore', () => new MemoryStore()],
] as const;

function conversation(tenant: typeof ANA | typeof BO, id: string, updatedAt: number): ConversationRecord {
  return { ...tenant, id, title: id, createdAt: updatedAt, updatedAt, messages: '[]', lines: '[]', context: '{}' };
}

/** A host over `store` whose sweep runs only when asked. */
async function start(store: HostStore, clock: FakeClock, retention: HostConfig['retention']) {
  const host = createHost({ store, clock, retention: { ...retention, schedule: false } });
  hosts.push(host);
  await host.permissions.ready();
  return host;
}

describe.each(stores)('retention of conversations and expired decisions on %s', (_name, open) => {
  it('deletes every tenant’s conversations not updated within the window, with an audit event, and keeps the rest', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const store = open();
    const now = clock.t;
    await store.write([
      { kind: 'conversation.put', record: conversation(ANA, 'old', now - 40 * DAY_MS) },
      { kind: 'conversation.put', record: conversation(BO, 'theirs-old', now - 31 * DAY_MS) },
      { kind: 'conversation.put', record: conversation(ANA, 'recent', now - 29 * DAY_MS) },
    ]);
    const host = await start(store, clock, { conversations: 30, audit: null });

    expect(await host.retention.sweep({ dryRun: true })).toMatchObject({ conversations: 2 });
    expect((await store.listConversations(ANA)).map((c) => c.id)).toEqual(['recent', 'old']);
    expect(await host.retention.sweep()).toMatchObject({ conversations: 2 });
    expect((await store.listConversations(ANA)).map((c) => c.id)).toEqual(['recent']);
    expect(await store.listConversations(BO)).toEqual([]);
    const [event] = await store.queryAudit({ type: 'retention.sweep' });
    expect(event?.data).toMatchObject({ kind: 'conversations', count: 2, before: now - 30 * DAY_MS });
  });

  it('keeps conversations when no window is set for them', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const store = open();
    await store.write([{ kind: 'conversation.put', record: conversation(ANA, 'ancient', clock.t - 4000 * DAY_MS) }]);
    const host = await start(store, clock, { results: 1, history: 1 });
    expect(await host.retention.sweep()).toMatchObject({ conversations: 0 });
    expect((await store.listConversations(ANA)).map((c) => c.id)).toEqual(['ancient']);
  });

  it('deletes decisions 30 days past their expiry by default, and the engine forgets them too', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const store = open();
    const now = clock.t;
    // An allow for one conversation of a gateway session long ended, one that ran out recently, one for good.
    const stale = decision({ ...ANA, conversationId: 'gw-session-1', tool: 'a', expiresAt: now - 31 * DAY_MS });
    const fresh = decision({ ...ANA, tool: 'b', expiresAt: now - 2 * DAY_MS });
    const forever = decision({ ...ANA, tool: 'c', expiresAt: null });
    const theirs = decision({ ...BO, tool: 'd', expiresAt: now - 100 * DAY_MS });
    for (const d of [stale, fresh, forever, theirs]) {
      await store.write([
        {
          kind: 'decision.put',
          decision: d,
          audit: auditInput(d.tool, { userId: d.userId, workspaceId: d.workspaceId }),
        },
      ]);
    }
    const host = await start(store, clock, { audit: null });
    const ids = (ds: readonly { id: string }[]) => ds.map((d) => d.id).sort();

    expect(await host.retention.sweep({ dryRun: true })).toMatchObject({ expiredDecisions: 2 });
    expect(ids(await store.listDecisions({}))).toHaveLength(4);
    expect(await host.retention.sweep()).toMatchObject({ expiredDecisions: 2 });
    expect(ids(await store.listDecisions({}))).toEqual(ids([fresh, forever]));
    expect(ids(host.permissions.list({ scope: { ...ANA, conversationId: 'x' } }))).toEqual(ids([fresh, forever]));
    expect(host.permissions.list({ scope: { ...BO, conversationId: 'x' } })).toEqual([]);
    const removed = (await store.queryAudit({ type: 'permission.decision' })).filter(
      (e) => e.data['via'] === 'retention',
    );
    expect(removed.map((e) => e.data['decisionId']).sort()).toEqual(ids([stale, theirs]));
    expect(removed.every((e) => e.data['decision'] === 'revoke')).toBe(true);
  });

  it('keeps expired decisions when their window is null', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const store = open();
    const old = decision({ ...ANA, expiresAt: clock.t - 400 * DAY_MS });
    await store.write([{ kind: 'decision.put', decision: old, audit: auditInput('old', { ...ANA }) }]);
    const host = await start(store, clock, { expiredDecisions: null, audit: null });
    expect(await host.retention.sweep()).toMatchObject({ expiredDecisions: 0 });
    expect(await store.listDecisions({})).toHaveLength(1);
  });
});

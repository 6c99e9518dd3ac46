// A revoked allow never runs a call on another instance, even before that instance has heard of the revoke: two hosts
// on one real PostgreSQL database (test/support/postgres), a stored allow made on A, revoked on B while A's LISTEN
// notifications are held back (or deleted by SQL, which notifies no one), and A's very next call; and a call whose
// allow cannot be confirmed because the table cannot be read, denied and audited.
import { existsSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { createHost } from '../../host/create-host.js';
import type { PermissionRequest } from '../../permissions/permission-request.js';
import { demoServer } from '../../testing/demo-fixture.js';
import { SCOPE } from '../../testing/host-store-fixtures.js';
import type { DecisionTenant, HostStore } from '../../store/host-store.js';
import { startPostgres } from '../../../../../test/support/postgres/postgres-server.js';
import type { PostgresServer } from '../../../../../test/support/postgres/postgres-server.js';
import { PostgresStore } from './postgres-store.js';

let server: PostgresServer;
const hosts: Host[] = [];
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  await server?.stop();
});

function pool(url: string): pg.Pool {
  const made = new pg.Pool({ connectionString: url, max: 4 });
  made.on('error', () => undefined);
  return made;
}

/** A store whose decision notifications reach the host only when `release` is called: a notification still on its way. */
function holdingNotifications(store: PostgresStore) {
  const listeners: ((tenant: DecisionTenant | undefined) => void)[] = [];
  let holding = false;
  const held: (DecisionTenant | undefined)[] = [];
  store.watchDecisions((tenant) => {
    if (holding) held.push(tenant);
    else for (const listener of listeners) listener(tenant);
  });
  const wrapped = new Proxy(store, {
    get(target, key) {
      if (key === 'watchDecisions') {
        return (listener: (tenant: DecisionTenant | undefined) => void) => {
          listeners.push(listener);
          return () => undefined;
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  }) as HostStore;
  return {
    store: wrapped,
    hold: () => void (holding = true),
    held,
  };
}

async function twoHosts() {
  const url = await server.createDatabase();
  const demo = demoServer();
  const asked: PermissionRequest[] = [];
  const storeA = holdingNotifications(await PostgresStore.open({ pool: pool(url) }));
  const open = (store: HostStore) =>
    createHost({
      servers: [demo.config],
      store,
      surface: {
        askPermission: (request) => {
          asked.push(request);
          return Promise.resolve('deny_once');
        },
      },
    });
  const a = open(storeA.store);
  const b = open(await PostgresStore.open({ pool: pool(url) }));
  hosts.push(a, b);
  await Promise.all([a.servers.settled(), b.servers.settled(), a.permissions.ready(), b.permissions.ready()]);
  const calls = () => (existsSync(demo.log) ? readFileSync(demo.log, 'utf8').trim().split('\n').length : 0);
  const echo = (host: Host, text: string) =>
    host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'demo__echo', args: { text } });
  return { url, a, b, storeA, asked, calls, echo };
}

describe('a stored allow revoked on another instance, before its notification arrives', () => {
  it('runs a call the store still allows, and asks (here: denied) the very next call after a revoke on B', async () => {
    const { a, b, storeA, asked, calls, echo } = await twoHosts();
    const stored = await a.permissions.decide({ scope: SCOPE, tool: 'demo__echo', decision: 'allow_always' });
    await expect.poll(() => b.permissions.list({ scope: SCOPE })).toEqual([stored]);

    const allowed = await echo(a, 'still allowed');
    expect(allowed.outcome).toBe('success');
    expect(asked).toHaveLength(0);
    const ran = calls();

    storeA.hold();
    expect(await b.permissions.revoke({ scope: SCOPE, id: stored.id })).toBe(1);
    // A has not heard: its memory still holds the allow.
    expect(a.permissions.list({ scope: SCOPE })).toEqual([stored]);

    const next = await echo(a, 'after the revoke');
    expect(next.outcome).toBe('permission_denied');
    expect(asked.map((r) => r.tool.name)).toEqual(['demo__echo']);
    expect(calls()).toBe(ran);
    // The store's answer corrected A's memory, notification or not.
    expect(a.permissions.list({ scope: SCOPE })).toEqual([]);
    // An audit query drains the history writer first: the call's decision is there once the call has ended.
    const audit = await a.audit.query({ scope: SCOPE, invocationId: next.invocationId });
    expect(audit.find((e) => e.type === 'permission.decision')?.data).toMatchObject({ origin: 'user_prompt' });
  }, 60_000);

  it('asks the next call after the allow is deleted by SQL, which notifies no instance', async () => {
    const { url, a, asked, calls, echo } = await twoHosts();
    await a.permissions.decide({ scope: SCOPE, tool: 'demo__echo', decision: 'allow_always' });
    expect((await echo(a, 'allowed')).outcome).toBe('success');
    const ran = calls();

    const direct = new pg.Client({ connectionString: url });
    await direct.connect();
    await direct.query('DELETE FROM permission_decisions');
    await direct.end();

    expect((await echo(a, 'after the delete')).outcome).toBe('permission_denied');
    expect(asked).toHaveLength(1);
    expect(calls()).toBe(ran);
  }, 60_000);

  it('denies, and audits, a call whose stored allow the store cannot be read to confirm', async () => {
    const { url, a, asked, calls, echo } = await twoHosts();
    const stored = await a.permissions.decide({ scope: SCOPE, tool: 'demo__echo', decision: 'allow_always' });
    expect((await echo(a, 'allowed')).outcome).toBe('success');
    const ran = calls();

    const direct = new pg.Client({ connectionString: url });
    await direct.connect();
    await direct.query('ALTER TABLE permission_decisions RENAME TO permission_decisions_away');
    try {
      const refused = await echo(a, 'unconfirmed');
      expect(refused.outcome).toBe('permission_denied');
      expect(asked).toHaveLength(0);
      expect(calls()).toBe(ran);
      const audit = await a.audit.query({ scope: SCOPE, invocationId: refused.invocationId });
      expect(audit.find((e) => e.type === 'permission.decision')?.data).toEqual({
        decision: 'deny',
        origin: 'store_unreadable',
        decisionId: stored.id,
        reason: expect.stringContaining('could not be checked against the shared store'),
      });
    } finally {
      await direct.query('ALTER TABLE permission_decisions_away RENAME TO permission_decisions');
      await direct.end();
    }
  }, 60_000);
});

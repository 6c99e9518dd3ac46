// The PostgreSQL store against a real server: a throwaway cluster this file starts (test/support/postgres), one fresh
// database per case. A machine without PostgreSQL fails here, naming what to install; it is never skipped.
import pg from 'pg';
import { describeHostStoreContract } from '@airlock/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../../host/create-host.js';
import { demoServer } from '../../testing/demo-fixture.js';
import type { DecisionTenant } from '../../store/host-store.js';
import { verifyChain } from '../../audit/audit-chain.js';
import { startPostgres } from '../../../../../test/support/postgres/postgres-server.js';
import type { PostgresServer } from '../../../../../test/support/postgres/postgres-server.js';
import {
  SCOPE,
  TENANT,
  auditInput,
  auditWrites,
  createWrite,
  decision,
  decisionAudit,
  deleteWrite,
  invocation,
  labels,
  move,
  putWrite,
  resultFor,
  transitionWrite,
} from '../../testing/host-store-fixtures.js';
import { POSTGRES_MIGRATIONS, applyPostgresMigrations } from './postgres-migrations.js';
import { PostgresStore } from './postgres-store.js';

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

function pool(url: string, max = 4): pg.Pool {
  const made = new pg.Pool({ connectionString: url, max });
  // An idle connection the server drops as the cluster stops at the end is no failure of a case.
  made.on('error', () => undefined);
  return made;
}

describeHostStoreContract({
  name: 'PostgresStore',
  open: async () => {
    const url = await server.createSchema();
    let current = await PostgresStore.open({ pool: pool(url) });
    return {
      store: current,
      reopen: async () => {
        await current.close();
        current = await PostgresStore.open({ pool: pool(url) });
        return current;
      },
      cleanup: () => current.close(),
    };
  },
});

describe('PostgresStore with several instances on one database', () => {
  it('migrates once when two instances start together, and both open', async () => {
    const url = await server.createDatabase();
    const pools = [pool(url), pool(url)];
    const applied = await Promise.all(pools.map((p) => applyPostgresMigrations(p)));
    const all = POSTGRES_MIGRATIONS.map((m) => m.version);
    expect(applied.map((a) => a.length).sort()).toEqual([0, all.length]);
    expect(applied.flat().sort((x, y) => x - y)).toEqual(all);

    const stores = await Promise.all(pools.map((p) => PostgresStore.open({ pool: p })));
    const check = pool(url, 1);
    const { rows } = await check.query('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r: { version: number }) => r.version)).toEqual(all);
    await check.end();
    await Promise.all(stores.map((s) => s.close()));
  });

  it('keeps one audit chain when two instances append at once: every event once, no fork, verify holds', async () => {
    const url = await server.createDatabase();
    const [a, b] = await Promise.all([
      PostgresStore.open({ pool: pool(url) }),
      PostgresStore.open({ pool: pool(url) }),
    ]);
    if (a === undefined || b === undefined) throw new Error('two stores');
    const rounds = 40;
    // Each instance appends batches of one to three events, each batch also creating and ending a call, as the
    // history writer does; neither waits for the other.
    const run = async (store: PostgresStore, name: string) => {
      for (let i = 0; i < rounds; i += 1) {
        const record = invocation({ createdAt: 1_700_000_000_000 + i });
        const events = Array.from({ length: (i % 3) + 1 }, (_, j) => auditInput(`${name}-${i}-${j}`));
        await store.write([
          createWrite(record, events[0]),
          transitionWrite(move(record, 2, 'pending', 'running')),
          ...auditWrites(events.slice(1)),
        ]);
      }
    };
    await Promise.all([run(a, 'a'), run(b, 'b'), run(a, 'a2'), run(b, 'b2')]);

    const chain = await a.queryAudit({ limit: 10_000 });
    const expected = 4 * Array.from({ length: rounds }, (_, i) => (i % 3) + 1).reduce((x, y) => x + y, 0);
    expect(chain).toHaveLength(expected);
    expect(chain.map((e) => e.seq)).toEqual(Array.from({ length: expected }, (_, i) => i + 1));
    expect(new Set(labels(chain)).size).toBe(expected);
    expect(verifyChain(chain)).toMatchObject({ ok: true, count: expected });
    expect(await b.queryAudit({ limit: 10_000 })).toEqual(chain);
    // The events of each batch are consecutive in the chain: no other writer's event slipped in between.
    for (const name of ['a', 'b', 'a2', 'b2']) {
      for (let i = 0; i < rounds; i += 1) {
        const seqs = chain.filter((e) => String(e.data['label']).startsWith(`${name}-${i}-`)).map((e) => e.seq);
        expect(seqs.at(-1)! - seqs[0]!).toBe(seqs.length - 1);
      }
    }
    await Promise.all([a.close(), b.close()]);
  });

  it('keeps a 20 MB result with NUL characters whole, as bytea, and reads it from the other instance', async () => {
    const url = await server.createDatabase();
    const [a, b] = await Promise.all([
      PostgresStore.open({ pool: pool(url) }),
      PostgresStore.open({ pool: pool(url) }),
    ]);
    if (a === undefined || b === undefined) throw new Error('two stores');
    const line = 'a line with NUL \u0000, ü, 𝄞 and a tab\t\n';
    const text = line.repeat(Math.ceil(20_000_000 / line.length));
    const record = invocation();
    const result = { ...resultFor(record.id), fullText: text, rawJson: JSON.stringify({ text }) };
    await a.write([createWrite(record)]);
    await a.write([transitionWrite(move(record, 2, 'pending', 'running'))]);
    await a.write([transitionWrite(move(record, 3, 'running', 'success', 'success'), { result })]);

    const read = await b.getResult(SCOPE, record.id);
    expect(read?.fullText.length).toBe(text.length);
    expect(read?.fullText === text).toBe(true);
    expect(read?.rawJson === result.rawJson).toBe(true);
    const check = pool(url, 1);
    const { rows } = await check.query(
      'SELECT pg_typeof(full_text)::text AS type, octet_length(full_text) AS bytes FROM invocation_results',
    );
    expect(rows[0]).toEqual({ type: 'bytea', bytes: Buffer.byteLength(text, 'utf8') });
    await check.end();
    await Promise.all([a.close(), b.close()]);
  }, 60_000);

  it('refuses a database whose schema is newer than this code, naming both versions', async () => {
    const url = await server.createDatabase();
    const setup = pool(url, 1);
    await applyPostgresMigrations(setup);
    await setup.query("INSERT INTO schema_migrations VALUES (99, 'from the future', 0)");
    await setup.end();
    await expect(PostgresStore.open({ pool: pool(url) })).rejects.toMatchObject({
      code: 'store_error',
      message: expect.stringContaining('schema version 99, newer than version'),
    });
  });

  it('fails to open with store_error naming the cause when the database does not exist', async () => {
    await expect(PostgresStore.open({ pool: pool(server.url('no_such_database')) })).rejects.toMatchObject({
      code: 'store_error',
      message: expect.stringContaining('no_such_database'),
    });
  });
});

describe('PostgresStore telling instances of decision changes (LISTEN/NOTIFY)', () => {
  /** The tenants a store is told of, and a promise of the next one. */
  function watch(store: PostgresStore) {
    const told: (DecisionTenant | undefined)[] = [];
    let wake: (() => void) | undefined;
    store.watchDecisions((tenant) => {
      told.push(tenant);
      wake?.();
    });
    const next = async (count: number) => {
      while (told.length < count) await new Promise<void>((resolve) => (wake = resolve));
    };
    return { told, next };
  }

  it('tells every instance, itself included, of each committed change, and nothing of a refused batch', async () => {
    const url = await server.createDatabase();
    const [a, b] = await Promise.all([
      PostgresStore.open({ pool: pool(url) }),
      PostgresStore.open({ pool: pool(url) }),
    ]);
    const onA = watch(a);
    const onB = watch(b);
    // Each instance hears its own change first: then both are listening.
    await a.write(auditWrites([auditInput('start')]));
    const d = decision();
    await a.write([putWrite(d, decisionAudit(d, 'put'))]);
    await Promise.all([onA.next(1), onB.next(1)]);
    expect(onA.told).toEqual([TENANT]);
    expect(onB.told).toEqual([TENANT]);

    const clash = decision({ id: d.id, tool: 'write' });
    await expect(b.write([putWrite(clash, decisionAudit(clash, 'clash'))])).rejects.toMatchObject({
      code: 'store_error',
    });
    const other = { userId: 'user-b', workspaceId: 'workspace-b' };
    const theirs = decision({ ...other });
    await b.write([
      putWrite(theirs, decisionAudit(theirs, 'theirs')),
      deleteWrite([d.id], [decisionAudit(d, 'revoke')]),
    ]);
    await Promise.all([onA.next(2), onB.next(2)]);
    // One notification per tenant the committed batch changed; the refused batch told nothing.
    for (const { told } of [onA, onB]) {
      expect(told).toHaveLength(3);
      expect(told.slice(1)).toEqual(expect.arrayContaining([TENANT, other]));
    }
    await Promise.all([a.close(), b.close()]);
  });

  it("applies a decision stored on one host to another host's decisions at once, and a revoke likewise", async () => {
    const url = await server.createDatabase();
    const demo = demoServer();
    const open = async () =>
      createHost({
        servers: [demo.config],
        store: await PostgresStore.open({ pool: pool(url) }),
        surface: { askPermission: () => Promise.resolve('deny_once' as const) },
      });
    const [hostA, hostB] = [await open(), await open()];
    await Promise.all([hostA.servers.settled(), hostB.servers.settled()]);
    await Promise.all([hostA.permissions.ready(), hostB.permissions.ready()]);
    const stored = await hostA.permissions.decide({ scope: SCOPE, tool: 'demo__echo', decision: 'allow_always' });

    await expect.poll(() => hostB.permissions.list({ scope: SCOPE })).toEqual([stored]);
    const allowed = await hostB.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'demo__echo',
      args: { text: 'hi' },
    });
    expect(allowed.outcome).toBe('success');

    expect(await hostB.permissions.revoke({ scope: SCOPE, id: stored.id })).toBe(1);
    await expect.poll(() => hostA.permissions.list({ scope: SCOPE })).toEqual([]);
    const asked = await hostA.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'demo__echo',
      args: { text: 'hi' },
    });
    expect(asked.outcome).toBe('permission_denied');
    await Promise.all([hostA.close(), hostB.close()]);
  });
});

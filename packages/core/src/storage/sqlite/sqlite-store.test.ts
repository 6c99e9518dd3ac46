import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describeHostStoreContract } from '@airlock/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GENESIS_HASH, auditHash, verifyChain } from '../../audit/audit-chain.js';
import { HostError } from '../../errors/host-error.js';
import { SQLITE_MIGRATIONS, SQLITE_SCHEMA_VERSION, applySqliteMigrations } from './sqlite-migrations.js';
import { SqliteStore } from './sqlite-store.js';
import {
  SCOPE,
  auditInput,
  auditWrites,
  createWrite,
  decision,
  decisionAudit,
  expectRejection,
  invocation,
  labels,
  opening,
  putWrite,
} from '../../testing/host-store-fixtures.js';
import { INVOCATION_COLUMNS, TRANSITION_COLUMNS, invocationParams, transitionParams } from '../sql/call-rows.js';
import { DECISION_COLUMNS, decisionParams } from '../sql/decision-rows.js';

// The kill-mid-write and multi-process tests are in sqlite-store-crash.test.ts.

async function freshDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'airlock-sqlite-'));
}

describeHostStoreContract({
  name: 'SqliteStore',
  open: async () => {
    const dir = await freshDir();
    const file = join(dir, 'history.db');
    let current = new SqliteStore({ database: new Database(file) });
    return {
      store: current,
      reopen: async () => {
        await current.close();
        current = new SqliteStore({ database: new Database(file) });
        return current;
      },
      cleanup: async () => {
        await current.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
});

describe('SqliteStore on a file', () => {
  let dir: string;
  let file: string;
  const open: Database.Database[] = [];

  /** A connection to the test's file, closed after the test. */
  function connect(): Database.Database {
    const database = new Database(file);
    open.push(database);
    return database;
  }

  beforeEach(async () => {
    dir = await freshDir();
    file = join(dir, 'history.db');
  });
  afterEach(async () => {
    for (const database of open.splice(0)) if (database.open) database.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('opens in WAL with synchronous NORMAL, foreign keys on and a busy timeout', () => {
    const database = connect();
    new SqliteStore({ database, busyTimeoutMs: 2500 });

    expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(database.pragma('synchronous', { simple: true })).toBe(1);
    expect(database.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(database.pragma('busy_timeout', { simple: true })).toBe(2500);
  });

  it('refuses a busy timeout that is not a whole number of milliseconds', () => {
    expect(() => new SqliteStore({ database: connect(), busyTimeoutMs: -1 })).toThrow(
      expect.objectContaining({ code: 'config_invalid' }),
    );
  });

  it('applies each migration exactly once, however often the file is opened', async () => {
    await new SqliteStore({ database: connect() }).close();
    const again = connect();
    await new SqliteStore({ database: again }).close();
    const database = connect();

    expect(applySqliteMigrations(database)).toEqual([]);
    const rows = database.prepare('SELECT version FROM schema_migrations ORDER BY version').all();
    expect(rows).toEqual(SQLITE_MIGRATIONS.map((m) => ({ version: m.version })));
  });

  it('numbers its migrations in strictly increasing order', () => {
    const versions = SQLITE_MIGRATIONS.map((m) => m.version);
    expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
    expect(versions.at(-1)).toBe(SQLITE_SCHEMA_VERSION);
  });

  it('refuses a database written by a newer version, naming both versions', async () => {
    await new SqliteStore({ database: connect() }).close();
    const newer = SQLITE_SCHEMA_VERSION + 1;
    const writer = connect();
    writer.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(newer, Date.now());
    writer.close();

    let refusal: unknown;
    try {
      new SqliteStore({ database: connect() });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(HostError);
    expect(refusal).toMatchObject({
      code: 'store_error',
      data: { databaseVersion: newer, knownVersion: SQLITE_SCHEMA_VERSION },
    });
    expect((refusal as HostError).message).toContain(`schema version ${newer}`);
    expect((refusal as HostError).message).toContain(`version ${SQLITE_SCHEMA_VERSION} that this Airlock knows`);
  });

  it('reports a value the driver cannot store as store_error and keeps nothing of it', async () => {
    const store = new SqliteStore({ database: connect() });
    const record = invocation({ args: { big: 10n } });

    const error = await expectRejection(store.write([createWrite(record)]), 'store_error');
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(await store.getInvocation(SCOPE, record.id)).toBeUndefined();
    await store.close();
  });

  it('upgrades a version 1 file to the current schema and keeps its history', async () => {
    const old = connect();
    old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)');
    old.exec(SQLITE_MIGRATIONS.find((m) => m.version === 1)?.sql ?? '');
    old.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (1, ?)').run(Date.now());
    const record = invocation();
    // Version 1's columns: those of today but the ones later migrations added (model_call_id, 7; message_id, 11).
    old
      .prepare(
        `INSERT INTO invocations (${INVOCATION_COLUMNS.replace(', model_call_id, message_id', '')}) VALUES (${marks(16)})`,
      )
      .run(...invocationParams(record).slice(0, 16));
    old
      .prepare(`INSERT INTO invocation_transitions (${TRANSITION_COLUMNS}) VALUES (${marks(7)})`)
      .run(...transitionParams(opening(record)));
    old.close();

    const database = connect();
    const store = new SqliteStore({ database });

    const versions = database.prepare('SELECT version FROM schema_migrations ORDER BY version').all();
    expect(versions).toEqual(SQLITE_MIGRATIONS.map((m) => ({ version: m.version })));
    expect(versions).toContainEqual({ version: 2 });
    expect(await store.getInvocation(SCOPE, record.id)).toEqual(record);
    const d = decision();
    await store.write([putWrite(d, decisionAudit(d, 'first'))]);
    expect(await store.listDecisions({})).toEqual([d]);
    expect(await store.queryAudit({})).toMatchObject([{ seq: 1, prevHash: GENESIS_HASH }]);
    await store.close();
  });

  it("keeps one decision row per key in the schema itself, a per-tool decision's args hash stored as ''", async () => {
    const store = new SqliteStore({ database: connect() });
    const d = decision();
    await store.write([putWrite(d, decisionAudit(d, 'put'))]);
    const raw = connect();

    expect(raw.prepare('SELECT id, args_hash FROM permission_decisions').all()).toEqual([{ id: d.id, args_hash: '' }]);
    const insert = raw.prepare(`INSERT INTO permission_decisions (${DECISION_COLUMNS}) VALUES (${marks(14)})`);
    expect(() => insert.run(...decisionParams({ ...d, id: 'same-key' }))).toThrow(/UNIQUE/);
    expect(() => insert.run(...decisionParams(decision({ effect: 'maybe' as 'allow' })))).toThrow(/CHECK/);
    expect(() => insert.run(...decisionParams(decision({ riskTier: 'extreme' as 'low' })))).toThrow(/CHECK/);
    await store.close();
  });

  describe('audit chain', () => {
    /** A store on the test's file holding five events, written each way an event is written. */
    async function fiveEvents(): Promise<SqliteStore> {
      const store = new SqliteStore({ database: connect() });
      await store.write(auditWrites([auditInput('e1'), auditInput('e2', { at: 1_700_000_000_002 })]));
      const d = decision();
      await store.write([putWrite(d, decisionAudit(d, 'e3'))]);
      const record = invocation();
      const pending = auditInput('e4', { type: 'invocation.transition', invocationId: record.id });
      await store.write([{ kind: 'create', record, first: opening(record), audit: pending }]);
      await store.write(auditWrites([auditInput('e5', { type: 'elicitation' })]));
      expect(verifyChain(await store.queryAudit({}))).toMatchObject({ ok: true, count: 5 });
      return store;
    }

    /** Every column of an event row. */
    function eventRow(database: Database.Database, seq: number): Record<string, unknown> {
      return database.prepare('SELECT * FROM audit_events WHERE seq = ?').get(seq) as Record<string, unknown>;
    }

    it("detects an event whose data was edited in the file, at that event's seq", async () => {
      const store = await fiveEvents();
      connect().prepare(`UPDATE audit_events SET data = json_set(data, '$.decision', 'deny') WHERE seq = 3`).run();

      expect(verifyChain(await store.queryAudit({}))).toMatchObject({
        ok: false,
        seq: 3,
        problem: expect.stringContaining('event 3 was edited'),
      });
      await store.close();
    });

    it('detects an edited event whose hash was recomputed, at the event after it', async () => {
      const store = await fiveEvents();
      const [third] = await store.queryAudit({ afterSeq: 2, limit: 1 });
      if (third === undefined) throw new Error('event 3 is missing');
      const edited = { ...third, data: { ...third.data, decision: 'deny' } };
      const { hash: _hash, ...forged } = edited;
      connect()
        .prepare('UPDATE audit_events SET data = ?, hash = ? WHERE seq = 3')
        .run(JSON.stringify(forged.data), auditHash(forged));

      expect(verifyChain(await store.queryAudit({}))).toMatchObject({
        ok: false,
        seq: 4,
        problem: expect.stringContaining('event 4 does not link'),
      });
      await store.close();
    });

    it('detects a removed middle event, at the event after the gap', async () => {
      const store = await fiveEvents();
      connect().prepare('DELETE FROM audit_events WHERE seq = 3').run();

      expect(verifyChain(await store.queryAudit({}))).toMatchObject({
        ok: false,
        seq: 4,
        problem: expect.stringContaining('expected event 3 but found 4'),
      });
      await store.close();
    });

    it('detects two events whose contents were swapped, at the first of them', async () => {
      const store = await fiveEvents();
      const raw = connect();
      const [second, fourth] = [eventRow(raw, 2), eventRow(raw, 4)];
      const columns = Object.keys(second).filter((column) => column !== 'seq');
      const overwrite = raw.prepare(
        `UPDATE audit_events SET ${columns.map((c) => `${c} = @${c}`).join(', ')} WHERE seq = @seq`,
      );
      overwrite.run({ ...fourth, seq: 2 });
      overwrite.run({ ...second, seq: 4 });
      expect(labels(await store.queryAudit({}))).toEqual(['e1', 'e4', 'e3', 'e2', 'e5']);

      expect(verifyChain(await store.queryAudit({}))).toMatchObject({
        ok: false,
        seq: 2,
        problem: expect.stringContaining('event 2 does not link'),
      });
      await store.close();
    });

    it('shows a cut tail only against a last hash remembered elsewhere', async () => {
      const store = await fiveEvents();
      const remembered = verifyChain(await store.queryAudit({}));
      connect().prepare('DELETE FROM audit_events WHERE seq = 5').run();

      const verdict = verifyChain(await store.queryAudit({}));
      expect(verdict).toMatchObject({ ok: true, count: 4 });
      expect(verdict.ok && remembered.ok && verdict.lastHash !== remembered.lastHash).toBe(true);
      await store.close();
    });

    it('builds one chain from two connections to the same file writing in turn', async () => {
      const stores = [new SqliteStore({ database: connect() }), new SqliteStore({ database: connect() })] as const;
      const expected: string[] = [];
      for (let i = 0; i < 10; i += 1) {
        const store = stores[i % 2 === 0 ? 0 : 1];
        await store.write(auditWrites([auditInput(`append ${i}`)]));
        const d = decision({ tool: `tool-${i}` });
        await store.write([putWrite(d, decisionAudit(d, `decide ${i}`))]);
        const record = invocation();
        const pending = auditInput(`call ${i}`, { type: 'invocation.transition', invocationId: record.id });
        await store.write([{ kind: 'create', record, first: opening(record), audit: pending }]);
        expected.push(`append ${i}`, `decide ${i}`, `call ${i}`);
      }

      const chain = await stores[0].queryAudit({});
      expect(await stores[1].queryAudit({})).toEqual(chain);
      expect(labels(chain)).toEqual(expected);
      expect(verifyChain(chain)).toMatchObject({ ok: true, count: 30 });
      expect(await stores[1].listDecisions({})).toHaveLength(10);
      for (const store of stores) await store.close();
    });
  });
});

function marks(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostError } from '../errors/host-error.js';
import { SQLITE_MIGRATIONS, SQLITE_SCHEMA_VERSION, applySqliteMigrations } from './sqlite-migrations.js';
import { SqliteStore } from './sqlite-store.js';
import { describeHostStoreContract } from './testing/host-store-contract.js';
import { SCOPE, expectRejection, invocation, opening } from './testing/host-store-fixtures.js';

const BUILT_STORE = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/storage/sqlite-store.js');
const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

async function freshDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'airlock-sqlite-'));
}

describeHostStoreContract('SqliteStore', async () => {
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

    const error = await expectRejection(store.createInvocation(record, opening(record)), 'store_error');
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(await store.getInvocation(SCOPE, record.id)).toBeUndefined();
    await store.close();
  });

  it.each([
    ['creating an invocation', 'first-transition', undefined],
    ['storing the result with the final transition', 'result', 'running'],
  ] as const)(
    'loses nothing and half-writes nothing when the writer is killed while %s',
    async (_, stopBefore, leaves) => {
      if (!existsSync(BUILT_STORE)) {
        throw new Error(`${BUILT_STORE} is missing: run "npx tsc -b packages/core" (or "npm run build") first`);
      }
      const script = join(dir, 'writer.mjs');
      await writeFile(script, writerScript(), 'utf8');
      const args = [script, file, String(KILL_AFTER), stopBefore];
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const ended = new Promise<NodeJS.Signals | null>((done) => child.on('close', (_code, signal) => done(signal)));
      const reported: string[] = [];
      let interrupted: string | undefined;
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (line.startsWith('mid-write ')) {
          interrupted = line.slice('mid-write '.length);
          child.kill('SIGKILL');
        } else {
          reported.push(line);
        }
      });

      expect(await ended, `the writer should run until killed; its stderr: ${stderr}`).toBe('SIGKILL');
      expect(reported).toHaveLength(KILL_AFTER);
      expect(interrupted).toBe(`crash-${KILL_AFTER}`);

      const database = connect();
      const store = new SqliteStore({ database });
      for (const id of reported) {
        const n = Number(id.slice('crash-'.length));
        expect(await store.getInvocation(SCOPE, id)).toMatchObject({ state: 'success', outcome: 'success' });
        expect((await store.listTransitions(SCOPE, id)).map((t) => t.to)).toEqual(['pending', 'running', 'success']);
        const result = await store.getResult(SCOPE, id);
        expect(result?.fullText === crashText(n), `the result of ${id} is whole`).toBe(true);
      }
      const cut = `crash-${KILL_AFTER}`;
      expect((await store.getInvocation(SCOPE, cut))?.state, 'the interrupted write is rolled back whole').toBe(leaves);
      expect(await store.getResult(SCOPE, cut)).toBeUndefined();
      const count = (sql: string) => (database.prepare(sql).get() as { n: number }).n;
      expect(count(ORPHAN_INVOCATIONS), 'invocations without their first transition').toBe(0);
      expect(count(ORPHAN_RESULTS), 'results without a final transition').toBe(0);
      expect(count(STATE_MISMATCHES), 'invocations whose state is not their last transition').toBe(0);
      expect(count(ENDED_WITHOUT_RESULT), 'finished invocations without their result').toBe(0);
      expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
      await store.close();
    },
  );
});

const KILL_AFTER = 200;

const ORPHAN_INVOCATIONS = `SELECT count(*) AS n FROM invocations i WHERE NOT EXISTS
  (SELECT 1 FROM invocation_transitions t WHERE t.invocation_id = i.id AND t.seq = 1 AND t.to_state = 'pending')`;
const ORPHAN_RESULTS = `SELECT count(*) AS n FROM invocation_results r WHERE NOT EXISTS
  (SELECT 1 FROM invocation_transitions t WHERE t.invocation_id = r.invocation_id
     AND t.to_state IN ('success', 'error', 'cancelled'))`;
const STATE_MISMATCHES = `SELECT count(*) AS n FROM invocations i WHERE i.state IS NOT
  (SELECT t.to_state FROM invocation_transitions t WHERE t.invocation_id = i.id ORDER BY t.seq DESC LIMIT 1)`;
// The writer ends every call with a result, so here (not in general) a finished call without one is a torn write.
const ENDED_WITHOUT_RESULT = `SELECT count(*) AS n FROM invocations i
  WHERE i.state IN ('success', 'error', 'cancelled') AND i.id NOT IN (SELECT invocation_id FROM invocation_results)`;

const CRASH_TEXT_REPEAT = 5000;

/** The full text the writer stores for call `n`: about 64 KB, different per call, so a torn write would show. */
function crashText(n: number): string {
  return `result ${n} ✓ `.repeat(CRASH_TEXT_REPEAT);
}

/**
 * A writer that creates, runs and finishes calls with the BUILT store, printing each id once its last write has
 * committed. Call number `stopAt` is interrupted inside a transaction: the database it hands the store wraps
 * better-sqlite3 (the store takes any driver of the right shape) and, just before the chosen statement, prints
 * `mid-write <id>` and blocks until the test kills it. Killed there, a store without atomic writes leaves a half-write.
 */
function writerScript(): string {
  return `
import Database from ${JSON.stringify(pathToFileURL(DRIVER).href)};
import { SqliteStore } from ${JSON.stringify(pathToFileURL(BUILT_STORE).href)};

const [file, stopAtText, stopBefore] = process.argv.slice(2);
const stopAt = Number(stopAtText);
const raw = new Database(file);
let current = -1;

function stopsHere(sql, params) {
  if (current !== stopAt) return false;
  if (stopBefore === 'result') return sql.startsWith('INSERT INTO invocation_results');
  return sql.startsWith('INSERT INTO invocation_transitions') && params[1] === 1;
}

const database = {
  prepare(sql) {
    const statement = raw.prepare(sql);
    return {
      run(...params) {
        if (stopsHere(sql, params)) {
          process.stdout.write('mid-write crash-' + current + '\\n');
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
        }
        return statement.run(...params);
      },
      get: (...params) => statement.get(...params),
      all: (...params) => statement.all(...params),
    };
  },
  exec: (sql) => raw.exec(sql),
  pragma: (sql) => raw.pragma(sql),
  transaction: (fn) => raw.transaction(fn),
  close: () => raw.close(),
};

const store = new SqliteStore({ database });
const scope = ${JSON.stringify(SCOPE)};
const crashText = (n) => ('result ' + n + ' ✓ ').repeat(${CRASH_TEXT_REPEAT});
for (let n = 0; n <= stopAt; n += 1) {
  current = n;
  const id = 'crash-' + n;
  const at = 1700000000000 + n * 10;
  const move = (seq, from, to, outcome) => ({ invocationId: id, seq, from, to, at: at + seq, outcome, error: null });
  await store.createInvocation(
    { id, scope, caller: { kind: 'model' }, tool: 'echo', serverId: null, originalName: 'echo', definitionHash: 'd',
      args: { n }, argsHash: 'a', state: 'pending', outcome: null, error: null, createdAt: at, updatedAt: at },
    { invocationId: id, seq: 1, from: null, to: 'pending', at, outcome: null, error: null },
  );
  await store.recordTransition(scope, move(2, 'pending', 'running', null));
  const fullText = crashText(n);
  await store.recordTransition(scope, move(3, 'running', 'success', 'success'), {
    invocationId: id,
    model: { content: [{ type: 'text', text: fullText.slice(0, 100) }], text: fullText.slice(0, 100), isError: false },
    screen: { blocks: [], isError: false, handle: 'h' },
    fullText,
    rawJson: JSON.stringify({ content: [{ type: 'text', text: fullText }] }),
  });
  process.stdout.write(id + '\\n');
}
process.stderr.write('the writer finished without being stopped mid-write\\n');
`;
}

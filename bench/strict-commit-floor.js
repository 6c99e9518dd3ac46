// One line of npm run bench (issue 38, target 5): what a commit of its own costs a call under durability 'strict' on
// SQLite, and so the least strict can cost beside 'grouped' while each call keeps that commit.
// 1. Through a host (native echo, SqliteStore, checkpoints held off so the WAL keeps every frame): the commits and the
//    WAL frames (pages written) per call under each durability.
// 2. better-sqlite3 alone, in interleaved rounds: CPU per commit of a transaction that inserts one row into each of k
//    tables, one commit per set of rows against 32 sets per commit. k = 9 is the B-trees one call's rows reach
//    (invocations and two indexes, transitions, results and its key, audit events and two indexes).
// 3. What writing one call's batch (the strict host's, as JSON) to a file of its own costs, one write() per call: the
//    same durability as a commit under synchronous = NORMAL (the kernel has it; a killed process cannot take it back).
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { createHost } from '@airlock/core';
import { SqliteStore } from '@airlock/core/sqlite';
import { MACHINE, spread } from './bench-stats.js';

const ROUNDS = Number(process.env.AIRLOCK_BENCH_ROUNDS ?? 5);
const CALLS = Number(process.env.AIRLOCK_BENCH_BLOCK ?? 2000);
const dir = mkdtempSync(join(tmpdir(), 'airlock-bench-'));
const scope = { userId: 'bench', workspaceId: 'bench', conversationId: 'bench' };

/** Commits and WAL frames per call of a host under `durability`; also hands back one call's batch. */
async function framesPerCall(durability) {
  const database = new Database(join(dir, `frames-${durability}.db`));
  const store = new SqliteStore({
    database,
    checkpointOnThread: false,
    checkpointEveryWrites: Number.MAX_SAFE_INTEGER,
    idleCheckpointMs: 2 ** 30,
  });
  let commits = 0;
  let lastBatch;
  const write = store.write.bind(store);
  store.write = (batch) => {
    commits += 1;
    lastBatch = batch;
    return write(batch);
  };
  const host = createHost({
    servers: { mcpServers: {} },
    store,
    durability,
    permissions: { rules: [{ effect: 'allow', tool: 'echo' }] },
    tools: [
      {
        name: 'echo',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
        run: (args) => Promise.resolve({ content: [{ type: 'text', text: String(args.text) }] }),
      },
    ],
  });
  const run = async (n) => {
    for (let i = 0; i < n; i++)
      await host.invoke({ scope, caller: { kind: 'model' }, tool: 'echo', args: { text: `hello ${i}` } });
    await host.history.list({ scope, limit: 1 });
  };
  await run(1000);
  // A full checkpoint now lets the next commit start the WAL over: its frames from then on are this run's.
  database.pragma('wal_checkpoint(TRUNCATE)');
  commits = 0;
  await run(CALLS);
  const [{ log }] = database.pragma('wal_checkpoint(PASSIVE)');
  await host.close();
  return { commits: commits / CALLS, frames: log / CALLS, batch: lastBatch };
}

/** A database of `tables` tables and a transaction inserting `sets` rows into each. */
function rawDatabase(tables) {
  const database = new Database(join(dir, `raw-${tables}.db`));
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('wal_autocheckpoint = 0');
  for (let t = 0; t < tables; t++) database.exec(`CREATE TABLE t${t} (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`);
  const inserts = Array.from({ length: tables }, (_, t) => database.prepare(`INSERT INTO t${t} (v) VALUES (?)`));
  const row = 'x'.repeat(300);
  const insert = database.transaction((sets) => {
    for (let s = 0; s < sets; s++) for (const statement of inserts) statement.run(row);
  });
  return {
    /** CPU µs per set of rows over `n` sets, `perCommit` sets to a commit. */
    cpuPerSet(n, perCommit) {
      const cpu = process.cpuUsage();
      for (let i = 0; i < n; i += perCommit) insert.immediate(perCommit);
      const used = process.cpuUsage(cpu);
      database.pragma('wal_checkpoint(PASSIVE)');
      return (used.user + used.system) / n;
    },
    close: () => database.close(),
  };
}

const grouped = await framesPerCall('grouped');
const strict = await framesPerCall('strict');

const raw = { 1: rawDatabase(1), 9: rawDatabase(9) };
const commitUs = { 1: [], 9: [] };
const appendUs = [];
const log = openSync(join(dir, 'batches.log'), 'a');
for (const db of Object.values(raw)) db.cpuPerSet(CALLS, 1);
for (let round = 0; round < ROUNDS; round++) {
  for (const k of round % 2 === 0 ? [1, 9] : [9, 1]) {
    // What a set of rows costs in a commit of its own, less what it costs with 31 others in one commit.
    commitUs[k].push(raw[k].cpuPerSet(CALLS, 1) - raw[k].cpuPerSet(CALLS * 2, 32));
  }
  const cpu = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) writeSync(log, `${JSON.stringify(strict.batch)}\n`);
  const used = process.cpuUsage(cpu);
  appendUs.push((used.user + used.system) / CALLS);
}
closeSync(log);
for (const db of Object.values(raw)) db.close();
rmSync(dir, { recursive: true, force: true });

const r1 = (x) => Math.round(x * 10) / 10;
console.log(
  JSON.stringify({
    bench: 'strict_commit_floor',
    store: 'sqlite',
    ...MACHINE,
    rounds: ROUNDS,
    calls_per_round: CALLS,
    commits_per_call: { grouped: r1(grouped.commits * 100) / 100, strict: r1(strict.commits * 100) / 100 },
    wal_frames_per_call: { grouped: r1(grouped.frames), strict: r1(strict.frames) },
    commit_of_its_own_cpu_us: { tables_1: spread(commitUs[1], 1), tables_9: spread(commitUs[9], 1) },
    batch_append_cpu_us: spread(appendUs, 1),
    batch_bytes: JSON.stringify(strict.batch).length,
  }),
);

// A diagnostic of the store worker's CPU per call (issue 38, target 1), not a line of npm run bench: the writes of one
// real call (server-everything's echo over stdio, allowed always, durability 'grouped'), captured once and replayed
// for new invocation ids in batches of CALLS_PER_BATCH calls, as the worker does them: each batch encoded as it
// crosses (outside the count), then decoded and written by a SqliteStore on this thread (inside it). CPU per call is
// this thread's own (schedstat, ns) and the whole process's (the checkpointer's thread included), medians of
// interleaved rounds with the least and the most. AIRLOCK_BENCH_BASE_DIST names another build of core's dist to
// compare against in the same rounds (the order of the sides swapped every round).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { createHost, MemoryStore } from '@airlock/core';
import { rewrite } from './call-writes.js';
import { MACHINE, processCpuUs, spread, threadCpuUs } from './bench-stats.js';

const env = process.env;
const ROUNDS = Number(env.AIRLOCK_BENCH_ROUNDS ?? 5);
const BATCHES = Number(env.AIRLOCK_BENCH_BATCHES ?? 300);
const CALLS_PER_BATCH = Number(env.AIRLOCK_BENCH_CALLS_PER_BATCH ?? 16);
const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'airlock-bench-'));

/** One call's writes, as the host hands them to its store. */
async function captureCall() {
  const store = new MemoryStore();
  const batches = [];
  const write = store.write.bind(store);
  store.write = (batch) => {
    batches.push(batch);
    return write(batch);
  };
  const args = [join(here, '../node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];
  const host = createHost({
    servers: { mcpServers: { echo: { command: process.execPath, args } } },
    store,
    surface: { askPermission: () => Promise.resolve('deny_once') },
  });
  await host.servers.settled();
  const scope = { userId: 'bench', workspaceId: 'bench', conversationId: 'c0' };
  await host.permissions.decide({ scope, tool: 'echo__echo', decision: 'allow_always' });
  await host.history.list({ scope, limit: 1 });
  batches.length = 0;
  const r = await host.invoke({ scope, caller: { kind: 'model' }, tool: 'echo__echo', args: { message: 'hello' } });
  if (r.outcome !== 'success') throw new Error(`capture call failed: ${r.text}`);
  await host.history.list({ scope, limit: 1 });
  await host.close();
  return batches.flat();
}

async function side(name, dist) {
  const { SqliteStore } = await import(pathToFileURL(join(dist, 'storage/sqlite/index.js')).href);
  const { encodeBatch, decodeBatch } = await import(
    pathToFileURL(join(dist, 'storage/worker/worker-batch-codec.js')).href
  );
  const { newInvocationId } = await import(pathToFileURL(join(dist, 'invocations/invocation-id.js')).href);
  const store = new SqliteStore({ database: new Database(join(dir, `${name}.db`)) });
  return { name, store, encodeBatch, decodeBatch, newInvocationId, threadUs: [], processUs: [] };
}

const call = await captureCall();
if (env.AIRLOCK_BENCH_SHOW_CALL) console.error(JSON.stringify(call, null, 1));
const sides = [await side('head', resolve(here, '../packages/core/dist'))];
if (env.AIRLOCK_BENCH_BASE_DIST) sides.push(await side('base', resolve(env.AIRLOCK_BENCH_BASE_DIST)));
// Ids as the host makes them (UUID v7: each index keyed by the call's id takes a new row at its end).
const batchesFor = (s) =>
  Array.from({ length: BATCHES }, () =>
    s.encodeBatch(Array.from({ length: CALLS_PER_BATCH }, () => rewrite(call, s.newInvocationId(Date.now()))).flat()),
  );
const runRound = async (s, record) => {
  const wire = batchesFor(s);
  const t0 = threadCpuUs();
  const p0 = processCpuUs();
  for (const encoded of wire) await s.store.write(s.decodeBatch(encoded));
  const calls = BATCHES * CALLS_PER_BATCH;
  if (record) {
    s.threadUs.push((threadCpuUs() - t0) / calls);
    s.processUs.push((processCpuUs() - p0) / calls);
  }
};
for (const s of sides) await runRound(s, false);
const load = [loadavg()[0]];
for (let round = 0; round < ROUNDS; round++) {
  for (const s of round % 2 === 0 ? sides : [...sides].reverse()) await runRound(s, true);
  load.push(loadavg()[0]);
}
for (const s of sides) await s.store.close();
rmSync(dir, { recursive: true, force: true });
console.log(
  JSON.stringify({
    bench: 'store_write_cpu_per_call',
    ...MACHINE,
    rounds: ROUNDS,
    calls_per_batch: CALLS_PER_BATCH,
    writes_per_call: call.length,
    audit_events_per_call: call.filter((w) => w.audit !== undefined).length,
    load_average: spread(load, 2),
    ...Object.fromEntries(
      sides.map((s) => [s.name, { thread_us: spread(s.threadUs, 1), process_us: spread(s.processUs, 1) }]),
    ),
  }),
);

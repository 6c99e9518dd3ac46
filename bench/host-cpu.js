// Lines of npm run bench for targets 2 and 3 of issue 22, in a process of their own (run.js starts it).
// Target 2: the host's own path on the call thread: host.invoke of a native echo tool a rule allows, history in a
// worker store (so recording's SQLite work is off the call thread), no server: at most 10 µs of CPU per call.
// Target 3: recording, every thread: the history rows and audit events of one allowed call, through the host's write
// queue into a worker store (SQLite): at most 60 µs of CPU per call.
// Each figure is the median of RUNS runs with the least and the most, beside the machine's core count. CPU on one
// thread is read from /proc/thread-self/schedstat (Linux); elsewhere the call-thread figures are null.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, MemoryStore } from '@airlock/core';
import { WorkerStore } from '@airlock/core/worker';
import { HistoryWriter } from '../packages/core/dist/history/history-writer.js';
import { newInvocationId } from '../packages/core/dist/invocations/invocation-id.js';
import { rewrite } from './call-writes.js';
import { MACHINE, processCpuUs, spread, threadCpuUs } from './bench-stats.js';

const env = process.env;
const RUNS = Number(env.AIRLOCK_BENCH_RUNS ?? 5);
const CALLS = Number(env.AIRLOCK_BENCH_CPU_CALLS ?? 10_000);
const WARMUP = Number(env.AIRLOCK_BENCH_CPU_WARMUP ?? 10_000);
const scope = { userId: 'bench', workspaceId: 'bench', conversationId: 'bench' };
const echo = {
  name: 'echo',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  run: (args) => Promise.resolve({ content: [{ type: 'text', text: String(args.text) }] }),
};

function openWorkerStore() {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-bench-'));
  const store = new WorkerStore({
    module: new URL('./store-worker.js', import.meta.url),
    workerData: { path: join(dir, 'bench.db') },
  });
  return { store, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

async function openHost(store) {
  const host = createHost({
    servers: { mcpServers: {} },
    store,
    surface: { askPermission: () => Promise.resolve('deny_once') },
    tools: [echo],
    // A native tool is allowed by a rule (decisions are stored for MCP tools only): the gate still runs and audits.
    permissions: { rules: [{ effect: 'allow', tool: 'echo' }] },
  });
  return host;
}

async function invoke(host, i) {
  const r = await host.invoke({ scope, caller: { kind: 'model' }, tool: 'echo', args: { text: `hello ${i}` } });
  if (r.outcome !== 'success') throw new Error(`bench call failed: ${r.text}`);
}

// Target 2.
{
  const { store, remove } = openWorkerStore();
  const host = await openHost(store);
  let n = 0;
  for (let i = 0; i < WARMUP; i++) await invoke(host, n++);
  await host.history.list({ scope, limit: 1 });
  const thread = [];
  const all = [];
  for (let run = 0; run < RUNS; run++) {
    const t0 = threadCpuUs();
    const p0 = processCpuUs();
    for (let i = 0; i < CALLS; i++) await invoke(host, n++);
    const t1 = threadCpuUs();
    // The store's share is counted in the all-threads figure: the run's history is written before it is read.
    await host.history.list({ scope, limit: 1 });
    all.push((processCpuUs() - p0) / CALLS);
    if (t0 !== undefined && t1 !== undefined) thread.push((t1 - t0) / CALLS);
  }
  await host.close();
  remove();
  console.log(
    JSON.stringify({
      bench: 'target_2_call_thread_cpu',
      ...MACHINE,
      runs: RUNS,
      calls_per_run: CALLS,
      tool: 'native echo, allowed by a rule',
      store: 'sqlite_worker',
      call_thread_cpu_us_per_call: thread.length === RUNS ? spread(thread, 1) : null,
      all_threads_cpu_us_per_call: spread(all, 1),
      // Every other thread (the store's worker writing these calls' history, the garbage collector's helpers).
      other_threads_cpu_us_per_call:
        thread.length === RUNS
          ? spread(
              all.map((a, r) => a - thread[r]),
              1,
            )
          : null,
      target_call_thread_us: 10,
    }),
  );
}

/** The history writes one allowed call makes (as the host queues them), recorded from a real host call. */
async function writesOfOneCall() {
  const written = [];
  const store = new MemoryStore();
  const write = store.write.bind(store);
  store.write = (batch) => {
    written.push(...batch);
    return write(batch);
  };
  const host = await openHost(store);
  await host.history.list({ scope, limit: 1 });
  written.length = 0;
  await invoke(host, 0);
  await host.history.list({ scope, limit: 1 });
  await host.close();
  if (written.length === 0) throw new Error('host-cpu.js: the host call wrote no history');
  return written;
}

// Target 3: the writes of each call queued as the host queues them, acknowledged as the host acknowledges a call
// (which holds the caller back when the store falls behind), then drained; CPU of every thread over the run. The
// writes are built before the run: what is counted is the recording, not the copying of the template.
{
  const template = await writesOfOneCall();
  const { store, remove } = openWorkerStore();
  const queue = new HistoryWriter({ store });
  const record = async (calls) => {
    const batches = Array.from({ length: calls }, () => rewrite(template, newInvocationId(Date.now())));
    const p0 = processCpuUs();
    const t0 = threadCpuUs();
    for (const writes of batches) {
      for (const write of writes) queue.write(write);
      await queue.acknowledge(Promise.resolve());
    }
    await queue.drain();
    const t1 = threadCpuUs();
    return { all: (processCpuUs() - p0) / calls, thread: t0 === undefined ? undefined : (t1 - t0) / calls };
  };
  await record(WARMUP);
  const all = [];
  const thread = [];
  for (let run = 0; run < RUNS; run++) {
    const r = await record(CALLS);
    all.push(r.all);
    if (r.thread !== undefined) thread.push(r.thread);
  }
  await store.close();
  remove();
  console.log(
    JSON.stringify({
      bench: 'target_3_recording_cpu',
      ...MACHINE,
      runs: RUNS,
      calls_per_run: CALLS,
      writes_per_call: template.length,
      store: 'sqlite_worker',
      all_threads_cpu_us_per_call: spread(all, 1),
      call_thread_cpu_us_per_call: thread.length === RUNS ? spread(thread, 1) : null,
      target_all_threads_us: 60,
    }),
  );
}

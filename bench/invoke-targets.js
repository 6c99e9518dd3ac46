// Lines of npm run bench for targets 1 and 4 of issue 22, in a process of their own (run.js starts it).
// Target 1: host.invoke (a tool allowed always, default durability 'grouped', history in a worker store) at most 1.10x
// a bare client.callTool at the median, and at or below the lightest peer client (the AI SDK's MCP client), all three
// on the same stdio echo server, in interleaved slices of 50 calls.
// Target 4: 64 concurrent conversations calling echo through the host: calls per second at least 0.9x a bare client
// issuing the same 64 concurrent calls, and p99 at most 1.25x bare's. Beside it, as a diagnostic and not the target,
// the same host whose store drops each call's history and audit writes: what the host costs without its recording.
// Each figure is given as the median of RUNS runs with the least and the most, beside the machine's core count.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createMCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { createHost } from '@airlock/core';
import { WorkerStore } from '@airlock/core/worker';
import { cpuSplit, MACHINE, processCpuUs, quantile, spread, threadCpuUs, threadsCpuUs } from './bench-stats.js';

const env = process.env;
const RUNS = Number(env.AIRLOCK_BENCH_RUNS ?? 5);
/** Calls each side makes per run, in slices of SLICE, after WARMUP calls each before the first run. */
const CALLS = Number(env.AIRLOCK_BENCH_CALLS ?? 1000);
const WARMUP = Number(env.AIRLOCK_BENCH_WARMUP ?? 3000);
const SLICE = 50;
const CALLERS = 64;
const CALLS_PER_CALLER = 50;

// The echo server: server-everything's (as the issue measured) unless AIRLOCK_BENCH_SERVER=demo.
const here = dirname(fileURLToPath(import.meta.url));
const SERVERS = {
  everything: {
    args: [join(here, '../node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
    echo: (i) => ({ message: `hello ${i}` }),
  },
  demo: {
    args: [join(dirname(fileURLToPath(import.meta.resolve('@airlock/demo-server'))), 'bin.js')],
    echo: (i) => ({ text: `hello ${i}` }),
  },
};
const serverName = env.AIRLOCK_BENCH_SERVER ?? 'everything';
const server = SERVERS[serverName];
if (server === undefined) throw new Error(`AIRLOCK_BENCH_SERVER must be one of ${Object.keys(SERVERS).join(', ')}`);

async function openBare() {
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: server.args, stderr: 'ignore' }));
  await client.listTools();
  return {
    name: 'bare',
    call: (i) => client.callTool({ name: 'echo', arguments: server.echo(i) }),
    settle: () => Promise.resolve(),
    close: () => client.close(),
  };
}

/** The AI SDK's MCP client, used as an application would: its tool set's `execute`. */
async function openAiSdk() {
  const client = await createMCPClient({
    transport: new Experimental_StdioMCPTransport({ command: process.execPath, args: server.args, stderr: 'ignore' }),
  });
  const { echo } = await client.tools();
  const options = { toolCallId: 'bench', messages: [] };
  return {
    name: 'ai_sdk',
    call: (i) => echo.execute(server.echo(i), options),
    settle: () => Promise.resolve(),
    close: () => client.close(),
  };
}

/**
 * The host as the target states it: allow always, durability 'grouped', SQLite history in a worker; or, named
 * 'unrecorded', the same with the diagnostic worker that drops each call's recording (unrecorded-store-worker.js).
 */
async function openHost(name = 'host') {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-bench-'));
  const tid = new Int32Array(new SharedArrayBuffer(4));
  const store = new WorkerStore({
    module: new URL(name === 'host' ? './store-worker.js' : './unrecorded-store-worker.js', import.meta.url),
    workerData: { path: join(dir, 'bench.db'), tid },
  });
  const host = createHost({
    servers: { mcpServers: { echo: { command: process.execPath, args: server.args } } },
    store,
    surface: { askPermission: () => Promise.resolve('deny_once') },
  });
  await host.servers.settled();
  const scopes = Array.from({ length: CALLERS }, (_, c) => ({
    userId: 'bench',
    workspaceId: 'bench',
    conversationId: `c${c}`,
  }));
  await host.permissions.decide({ scope: scopes[0], tool: 'echo__echo', decision: 'allow_always' });
  return {
    name,
    storeTid: () => Atomics.load(tid, 0),
    call: async (i, caller = 0) => {
      const r = await host.invoke({
        scope: scopes[caller],
        caller: { kind: 'model' },
        tool: 'echo__echo',
        args: server.echo(i),
      });
      if (r.outcome !== 'success') throw new Error(`bench call failed: ${r.text}`);
    },
    // A read stores everything queued first: the slice's history is written before the next side's slice starts.
    settle: () => host.history.list({ scope: scopes[0], limit: 1 }),
    close: async () => {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const sides = [await openBare(), await openAiSdk(), await openHost()];
let n = 0;
for (let i = 0; i < WARMUP; i++) for (const side of sides) await side.call(n++);
for (const side of sides) await side.settle();

// Target 1: per run, each side's median over interleaved slices (the order of the sides turns every slice, so none
// always follows the same one); CPU per call counts every thread, the store's worker and the settling included, and
// apart from it the call thread's own (the settling's one history read each 50 calls included).
const perRun = Object.fromEntries(sides.map((s) => [s.name, { medians: [], cpu: [], thread: [] }]));
for (let run = 0; run < RUNS; run++) {
  const samples = Object.fromEntries(sides.map((s) => [s.name, []]));
  const cpu = Object.fromEntries(sides.map((s) => [s.name, 0]));
  const thread = Object.fromEntries(sides.map((s) => [s.name, 0]));
  for (let slice = 0; slice * SLICE < CALLS; slice++) {
    for (let k = 0; k < sides.length; k++) {
      const side = sides[(slice + k) % sides.length];
      const before = processCpuUs();
      const threadBefore = threadCpuUs();
      for (let i = 0; i < SLICE; i++) {
        const start = performance.now();
        await side.call(n++);
        samples[side.name].push(performance.now() - start);
      }
      await side.settle();
      cpu[side.name] += processCpuUs() - before;
      if (threadBefore !== undefined) thread[side.name] += threadCpuUs() - threadBefore;
    }
  }
  for (const side of sides) {
    perRun[side.name].medians.push(quantile(samples[side.name], 0.5));
    perRun[side.name].cpu.push(cpu[side.name] / samples[side.name].length);
    perRun[side.name].thread.push(thread[side.name] / samples[side.name].length);
  }
}
const ratios = (a, b) => perRun[a].medians.map((m, r) => m / perRun[b].medians[r]);
console.log(
  JSON.stringify({
    bench: 'target_1_wall_vs_peers',
    server: serverName,
    ...MACHINE,
    runs: RUNS,
    calls_per_side_per_run: CALLS,
    warmup_calls: WARMUP,
    store: 'sqlite_worker',
    durability: 'grouped',
    bare_median_ms: spread(perRun.bare.medians),
    ai_sdk_median_ms: spread(perRun.ai_sdk.medians),
    host_median_ms: spread(perRun.host.medians),
    host_vs_bare: spread(ratios('host', 'bare')),
    host_vs_ai_sdk: spread(ratios('host', 'ai_sdk')),
    // Issue 38's target 3 asks for every run, not the median of runs: each run's ratio, in run order.
    host_vs_ai_sdk_per_run: ratios('host', 'ai_sdk').map((r) => Math.round(r * 1000) / 1000),
    ai_sdk_vs_bare: spread(ratios('ai_sdk', 'bare')),
    target_host_vs_bare: 1.1,
    goal_host_vs_ai_sdk: 1,
    cpu_us_per_call_all_threads: {
      bare: spread(perRun.bare.cpu, 1),
      ai_sdk: spread(perRun.ai_sdk.cpu, 1),
      host: spread(perRun.host.cpu, 1),
    },
    cpu_us_per_call_call_thread:
      threadCpuUs() === undefined
        ? null
        : {
            bare: spread(perRun.bare.thread, 1),
            ai_sdk: spread(perRun.ai_sdk.thread, 1),
            host: spread(perRun.host.thread, 1),
          },
  }),
);

// Target 4: rounds of 64 callers of 50 calls each, bare and host alternating (which goes first turns each round).
// Each caller is a conversation of its own on the host; bare's callers share its one client, as the host's share its
// one connection to the server.
async function concurrentRound(side) {
  const latencies = [];
  const threads = threadsCpuUs();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CALLERS }, async (_, caller) => {
      for (let i = 0; i < CALLS_PER_CALLER; i++) {
        const t = performance.now();
        await side.call(n++, caller);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  await side.settle();
  const cpu = cpuSplit(threads, threadsCpuUs(), latencies.length, side.storeTid?.() ?? 0);
  return { perSecond: latencies.length / seconds, p99: quantile(latencies, 0.99), cpu };
}
const [bare, , host] = sides;
const unrecorded = await openHost('unrecorded');
for (let i = 0; i < WARMUP; i++) await unrecorded.call(n++);
const rotation = [bare, host, unrecorded];
for (const side of rotation) await concurrentRound(side);
const rounds = { bare: [], host: [], unrecorded: [] };
for (let round = 0; round < RUNS; round++) {
  for (let k = 0; k < rotation.length; k++) {
    const side = rotation[(round + k) % rotation.length];
    rounds[side.name].push(await concurrentRound(side));
  }
}
const vsBare = (name, key) => spread(rounds[name].map((r, i) => r[key] / rounds.bare[i][key]));
const pick = (name, key) => rounds[name].map((r) => r[key]);
const cpuOf = (name) =>
  Object.fromEntries(
    ['call_thread', 'store_worker', 'other_threads'].map((k) => [
      k,
      spread(
        rounds[name].map((r) => r.cpu[k]),
        1,
      ),
    ]),
  );
console.log(
  JSON.stringify({
    bench: 'target_4_concurrent_64',
    server: serverName,
    ...MACHINE,
    rounds: RUNS,
    callers: CALLERS,
    calls_per_caller: CALLS_PER_CALLER,
    bare_calls_per_s: spread(pick('bare', 'perSecond'), 0),
    host_calls_per_s: spread(pick('host', 'perSecond'), 0),
    bare_p99_ms: spread(pick('bare', 'p99')),
    host_p99_ms: spread(pick('host', 'p99')),
    throughput_vs_bare: vsBare('host', 'perSecond'),
    // CPU per call by thread (the store's history written before the round ends): what holds throughput on few cores.
    cpu_us_per_call:
      rounds.bare[0].cpu === null
        ? null
        : {
            bare: cpuOf('bare'),
            host: cpuOf('host'),
          },
    p99_vs_bare: vsBare('host', 'p99'),
    target_throughput_vs_bare: 0.9,
    target_p99_vs_bare: 1.25,
    // Not the target (every measured call must be recorded): the host with its recording dropped, to show what holds it.
    diagnostic_without_recording: {
      throughput_vs_bare: vsBare('unrecorded', 'perSecond'),
      p99_vs_bare: vsBare('unrecorded', 'p99'),
      cpu_us_per_call: rounds.bare[0].cpu === null ? null : cpuOf('unrecorded'),
    },
  }),
);

for (const side of [...sides, unrecorded]) await side.close();

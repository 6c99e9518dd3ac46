// One line of npm run bench (issue 38, target 2): stalls seen as an open loop sees them. Calls are offered on a fixed
// schedule at half of a bare client's measured closed-loop rate (64 callers), to server-everything's echo over stdio,
// by a bare client and by the host (allow always, grouped, SQLite history in a worker); each call's time runs from
// when it was due, so a stall that delays the calls behind it shows in the tail, as it would to users. Sides take
// turns in ROUNDS rounds of SECONDS each, the order swapped every round. Target: the host's p99 at most 1.25x bare's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createHost } from '@airlock/core';
import { WorkerStore } from '@airlock/core/worker';
import { MACHINE, quantile, spread } from './bench-stats.js';

const env = process.env;
const ROUNDS = Number(env.AIRLOCK_BENCH_ROUNDS ?? 3);
const SECONDS = Number(env.AIRLOCK_BENCH_SECONDS ?? 3);
const CALLERS = 64;
const here = dirname(fileURLToPath(import.meta.url));
const everything = [join(here, '../node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];

async function openBare() {
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: everything, stderr: 'ignore' }));
  await client.listTools();
  return {
    name: 'bare',
    call: (i) => client.callTool({ name: 'echo', arguments: { message: `hello ${i}` } }),
    close: () => client.close(),
  };
}

async function openHost() {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-bench-open-loop-'));
  const store = new WorkerStore({
    module: new URL('./store-worker.js', import.meta.url),
    workerData: { path: join(dir, 'bench.db'), tid: new Int32Array(new SharedArrayBuffer(4)) },
  });
  const host = createHost({
    servers: { mcpServers: { echo: { command: process.execPath, args: everything } } },
    store,
    surface: { askPermission: () => Promise.resolve('deny_once') },
  });
  await host.servers.settled();
  const scope = { userId: 'bench', workspaceId: 'bench', conversationId: 'open-loop' };
  await host.permissions.decide({ scope, tool: 'echo__echo', decision: 'allow_always' });
  return {
    name: 'host',
    call: async (i) => {
      const r = await host.invoke({ scope, caller: { kind: 'model' }, tool: 'echo__echo', args: { message: `${i}` } });
      if (r.outcome !== 'success') throw new Error(`bench call failed: ${r.text}`);
    },
    close: async () => {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Calls per second with CALLERS callers each awaiting its calls, over about `calls` calls. */
async function closedLoopRate(side, calls) {
  let n = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (n < calls) await side.call(n++);
    }),
  );
  return (calls / (performance.now() - start)) * 1000;
}

/** Offers `rate` calls per second for SECONDS on a fixed schedule; each call's time counts from when it was due. */
async function openLoop(side, rate) {
  const times = [];
  const pending = [];
  const start = performance.now();
  const total = Math.floor(rate * SECONDS);
  let issued = 0;
  while (issued < total) {
    const now = performance.now();
    while (issued < total && start + (issued * 1000) / rate <= now) {
      const due = start + (issued * 1000) / rate;
      pending.push(Promise.resolve(side.call(issued)).then(() => times.push(performance.now() - due)));
      issued += 1;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(pending);
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
}

const bare = await openBare();
const host = await openHost();
try {
  await closedLoopRate(bare, 2000);
  await closedLoopRate(host, 2000);
  const bareRate = await closedLoopRate(bare, 6400);
  const rate = bareRate / 2;
  const results = { bare: [], host: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 === 0 ? [bare, host] : [host, bare])
      results[side.name].push(await openLoop(side, rate));
  }
  const of = (name, key) => spread(results[name].map((r) => r[key]));
  const ratios = results.host.map((r, i) => r.p99 / results.bare[i].p99);
  process.stdout.write(
    `${JSON.stringify({
      bench: 'open_loop_half_bare_rate',
      bareClosedLoopPerSecond: Math.round(bareRate),
      offeredPerSecond: Math.round(rate),
      seconds: SECONDS,
      rounds: ROUNDS,
      bareP50Ms: of('bare', 'p50'),
      bareP99Ms: of('bare', 'p99'),
      hostP50Ms: of('host', 'p50'),
      hostP99Ms: of('host', 'p99'),
      p99Ratio: spread(ratios),
      target_p99_ratio: 1.25,
      ...MACHINE,
    })}\n`,
  );
} finally {
  await bare.close();
  await host.close();
}

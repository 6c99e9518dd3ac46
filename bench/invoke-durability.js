// One line of npm run bench (run.js starts it once per store): what durability 'strict' costs per call beside the
// default 'grouped' (issue 15). Two hosts in this process, one per durability, each with its own store of the kind
// named in argv[2] on a file of its own, call a native echo tool a rule allows, the caller awaiting each call (an
// agent's loop). They take turns in rounds of BLOCK calls, the order swapped every round, so drift in the machine's
// load hits both alike; each block ends with a history read, so the grouped host pays its last commit inside the block
// too. Reported: the median per-call cost over the rounds with the least and the most, wall time and CPU time (every
// thread, the store's worker included), and the strict/grouped ratio of each round, as a median with min and max.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { createHost } from '@airlock/core';
import { SqliteStore } from '@airlock/core/sqlite';
import { WorkerStore } from '@airlock/core/worker';

const KINDS = ['sqlite', 'sqlite_worker'];
const kind = process.argv[2];
if (!KINDS.includes(kind))
  throw new Error(`invoke-durability.js: the store must be one of ${KINDS.join(', ')}, not ${kind}`);

const ROUNDS = Number(process.env.AIRLOCK_BENCH_ROUNDS ?? 9);
const BLOCK = Number(process.env.AIRLOCK_BENCH_BLOCK ?? 2000);
const WARMUP = Number(process.env.AIRLOCK_BENCH_WARMUP ?? 5000);

const dir = mkdtempSync(join(tmpdir(), 'airlock-bench-'));
const scope = { userId: 'bench', workspaceId: 'bench', conversationId: 'bench' };

function openHost(durability) {
  const path = join(dir, `${durability}.db`);
  const store =
    kind === 'sqlite'
      ? new SqliteStore({ database: new Database(path) })
      : new WorkerStore({ module: new URL('./store-worker.js', import.meta.url), workerData: { path } });
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
  let n = 0;
  return {
    durability,
    host,
    wallUs: [],
    cpuUs: [],
    /** Runs `calls` calls and stores them; returns [wall, cpu] µs per call. */
    async block(calls) {
      const cpu = process.cpuUsage();
      const start = performance.now();
      for (let i = 0; i < calls; i++) {
        const r = await host.invoke({ scope, caller: { kind: 'model' }, tool: 'echo', args: { text: `hello ${n++}` } });
        if (r.outcome !== 'success') throw new Error(`bench call failed: ${r.text}`);
      }
      await host.history.list({ scope, limit: 1 });
      const used = process.cpuUsage(cpu);
      return [((performance.now() - start) * 1000) / calls, (used.user + used.system) / calls];
    },
  };
}

const grouped = openHost('grouped');
const strict = openHost('strict');
await grouped.block(WARMUP);
await strict.block(WARMUP);
const ratios = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const side of round % 2 === 0 ? [grouped, strict] : [strict, grouped]) {
    const [wall, cpu] = await side.block(BLOCK);
    side.wallUs.push(wall);
    side.cpuUs.push(cpu);
  }
  ratios.push(strict.wallUs[round] / grouped.wallUs[round]);
}
await grouped.host.close();
await strict.host.close();
rmSync(dir, { recursive: true, force: true });

/** Median, least and most of a sample, rounded to `digits`. */
function spread(samples, digits = 1) {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (x) => Math.round(x * 10 ** digits) / 10 ** digits;
  return { median: round(sorted[sorted.length >> 1]), min: round(sorted[0]), max: round(sorted.at(-1)) };
}

const g = spread(grouped.wallUs);
const s = spread(strict.wallUs);
console.log(
  JSON.stringify({
    bench: 'invoke_durability',
    store: kind,
    rounds: ROUNDS,
    calls_per_round: BLOCK,
    grouped_us_per_call: g,
    strict_us_per_call: s,
    strict_added_us_median: Math.round((s.median - g.median) * 10) / 10,
    strict_ratio: spread(ratios, 3),
    grouped_cpu_us_per_call: spread(grouped.cpuUs),
    strict_cpu_us_per_call: spread(strict.cpuUs),
  }),
);

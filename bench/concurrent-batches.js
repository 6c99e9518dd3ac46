// One line of npm run bench (issue 38): how many calls share a commit when 64 callers run on a store that answers
// later (the worker store), under each durability. 64 callers (a conversation each) call a native echo tool a rule
// allows, which answers on the next turn of the event loop, so the host's own path and its recording are all that
// is measured; the two hosts take turns in rounds, the order swapped every round. Reported per durability: calls
// ended per batch handed to the store, wall and CPU (every thread, the store's worker included) per call, as medians
// of the rounds with the least and the most. A writer that sent a batch for each call its bound held back fell to
// about one call a batch here, which kept the worker behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createHost } from '@airlock/core';
import { WorkerStore } from '@airlock/core/worker';
import { MACHINE, spread } from './bench-stats.js';

const ROUNDS = Number(process.env.AIRLOCK_BENCH_ROUNDS ?? 5);
const CALLS = Number(process.env.AIRLOCK_BENCH_BLOCK ?? 6400);
const CALLERS = 64;
const dir = mkdtempSync(join(tmpdir(), 'airlock-bench-'));
const scopes = Array.from({ length: CALLERS }, (_, c) => ({
  userId: 'bench',
  workspaceId: 'bench',
  conversationId: `c${c}`,
}));

function openSide(durability) {
  const store = new WorkerStore({
    module: new URL('./store-worker.js', import.meta.url),
    workerData: { path: join(dir, `${durability}.db`) },
  });
  const counts = { batches: 0, ends: 0 };
  const write = store.write.bind(store);
  store.write = (batch) => {
    counts.batches += 1;
    for (const w of batch) if (w.kind === 'transition' && w.result !== undefined) counts.ends += 1;
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
        run: (args) =>
          new Promise((resolve) =>
            setImmediate(() => resolve({ content: [{ type: 'text', text: String(args.text) }] })),
          ),
      },
    ],
  });
  const side = { durability, host, perBatch: [], wallUs: [], cpuUs: [] };
  /** 64 callers share `calls` calls; the history is read at the end, so the last batch is inside the round. */
  side.round = async (calls) => {
    counts.batches = 0;
    counts.ends = 0;
    let next = 0;
    const cpu = process.cpuUsage();
    const start = performance.now();
    await Promise.all(
      scopes.map(async (scope) => {
        while (next < calls) {
          next += 1;
          const r = await host.invoke({
            scope,
            caller: { kind: 'model' },
            tool: 'echo',
            args: { text: `hello ${next}` },
          });
          if (r.outcome !== 'success') throw new Error(`bench call failed: ${r.text}`);
        }
      }),
    );
    await host.history.list({ scope: scopes[0], limit: 1 });
    const used = process.cpuUsage(cpu);
    return {
      perBatch: counts.ends / counts.batches,
      wall: ((performance.now() - start) * 1000) / calls,
      cpu: (used.user + used.system) / calls,
    };
  };
  return side;
}

const sides = [openSide('grouped'), openSide('strict')];
for (const side of sides) await side.round(CALLS);
for (let round = 0; round < ROUNDS; round++) {
  for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
    const r = await side.round(CALLS);
    side.perBatch.push(r.perBatch);
    side.wallUs.push(r.wall);
    side.cpuUs.push(r.cpu);
  }
}
for (const side of sides) await side.host.close();
rmSync(dir, { recursive: true, force: true });

console.log(
  JSON.stringify({
    bench: 'concurrent_batches',
    store: 'sqlite_worker',
    ...MACHINE,
    callers: CALLERS,
    rounds: ROUNDS,
    calls_per_round: CALLS,
    ...Object.fromEntries(
      sides.map((s) => [
        s.durability,
        {
          calls_per_batch: spread(s.perBatch, 1),
          wall_us_per_call: spread(s.wallUs, 1),
          cpu_us_per_call: spread(s.cpuUs, 1),
        },
      ]),
    ),
  }),
);

// One line of npm run bench per side (issue 38, target 2): the tail of an agent's call loop while the SQLite store
// checkpoints its WAL during a long burst, on the writer's thread (every 1,000 or 100 commits) or on a thread of its
// own. Hosts in this process, one per side, each on a file of its own, call a native echo tool a rule allows, awaiting each call; they take turns in rounds of BLOCK
// calls, the order rotated every round. The idle checkpoint is pushed out of the way so that only the in-burst one is
// measured. Reported per interval: the median over rounds (with min and max) of each round's p50, p99, p99.9 and max
// call time, and of its wall time per call.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { createHost } from '@airlock/core';
import { SqliteStore } from '@airlock/core/sqlite';
import { MACHINE, quantile, spread } from './bench-stats.js';

const ROUNDS = Number(process.env.AIRLOCK_BENCH_ROUNDS ?? 5);
const BLOCK = Number(process.env.AIRLOCK_BENCH_BLOCK ?? 5000);
const WARMUP = Number(process.env.AIRLOCK_BENCH_WARMUP ?? 2000);
// Each side: where the store checkpoints during a burst, and how often.
const SIDES = [
  { onThread: false, every: 1000 },
  { onThread: true, every: 1000 },
  { onThread: false, every: 100 },
];
// Strict by default: each call is its own commit, so a round of BLOCK calls crosses the checkpoint interval often.
const DURABILITY = process.env.AIRLOCK_BENCH_DURABILITY ?? 'strict';

const dir = mkdtempSync(join(tmpdir(), 'airlock-bench-checkpoint-'));
const scope = { userId: 'bench', workspaceId: 'bench', conversationId: 'bench' };

function openHost({ onThread, every }) {
  const store = new SqliteStore({
    database: new Database(join(dir, `${onThread ? 'thread' : 'inline'}-${every}.db`)),
    checkpointEveryWrites: every,
    checkpointOnThread: onThread,
    idleCheckpointMs: 3_600_000,
  });
  const host = createHost({
    servers: { mcpServers: {} },
    store,
    durability: DURABILITY,
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
    onThread,
    every,
    host,
    rounds: [],
    async block(calls) {
      const times = [];
      const start = performance.now();
      for (let i = 0; i < calls; i++) {
        const t = performance.now();
        const r = await host.invoke({ scope, caller: { kind: 'model' }, tool: 'echo', args: { text: `hello ${n++}` } });
        times.push(performance.now() - t);
        if (r.outcome !== 'success') throw new Error(`bench call failed: ${r.text}`);
      }
      await host.history.list({ scope, limit: 1 });
      const wallUs = ((performance.now() - start) * 1000) / calls;
      return {
        p50: quantile(times, 0.5),
        p99: quantile(times, 0.99),
        p999: quantile(times, 0.999),
        max: Math.max(...times),
        wallUs,
      };
    },
  };
}

try {
  const hosts = SIDES.map(openHost);
  for (const h of hosts) await h.block(WARMUP);
  for (let round = 0; round < ROUNDS; round++) {
    const order = hosts.map((_, i) => hosts[(i + round) % hosts.length]);
    for (const h of order) h.rounds.push(await h.block(BLOCK));
  }
  for (const h of hosts) {
    const of = (key) => spread(h.rounds.map((r) => r[key]));
    process.stdout.write(
      `${JSON.stringify({
        bench: 'checkpoint_stalls',
        checkpoint: h.onThread ? 'thread' : 'inline',
        checkpointEveryWrites: h.every,
        durability: DURABILITY,
        rounds: ROUNDS,
        callsPerRound: BLOCK,
        p50Ms: of('p50'),
        p99Ms: of('p99'),
        p999Ms: of('p999'),
        maxMs: of('max'),
        wallUsPerCall: of('wallUs'),
        ...MACHINE,
      })}\n`,
    );
  }
  for (const h of hosts) await h.host.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// npm run bench: each benchmark prints one JSON line. Targets (issue 2): host.invoke with SQLite history at most
// 1.10x a bare client.callTool at the median, on the same stdio demo server; bounding a 10 MB text under 50 ms.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import Database from 'better-sqlite3';
import { boundResult, createHost, MemoryStore, parseServersConfig, serverIdentity } from '@airlock/core';
import { SqliteStore } from '@airlock/core/sqlite';

const demoBin = join(dirname(fileURLToPath(import.meta.resolve('@airlock/demo-server'))), 'bin.js');

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p99: at(0.99), n: sorted.length };
}

const round = (ms) => Math.round(ms * 1000) / 1000;

// host.invoke against a bare client.callTool, once per store, each pair in a process of its own: what one host keeps
// in memory, or the threads it runs, cannot slow the calls of another.
for (const store of ['sqlite', 'sqlite_worker', 'memory']) {
  const pair = spawnSync(process.execPath, [fileURLToPath(new URL('./invoke-pair.js', import.meta.url)), store], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (pair.status !== 0) throw new Error(`the ${store} pair failed (exit ${pair.status ?? pair.signal})`);
  process.stdout.write(pair.stdout);
}

// What durability 'strict' costs per call beside the default 'grouped' (issue 15): the host's own path in a process of
// its own per store, medians of interleaved rounds with the least and the most.
for (const store of ['sqlite', 'sqlite_worker']) {
  const run = spawnSync(process.execPath, [fileURLToPath(new URL('./invoke-durability.js', import.meta.url)), store], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.status !== 0) throw new Error(`the ${store} durability bench failed (exit ${run.status ?? run.signal})`);
  process.stdout.write(run.stdout);
}

// The PostgreSQL store (issue 21): host.invoke with history on PostgreSQL over a unix socket against SQLite, and two
// hosts on one database serving 50 users, in a process of its own with a throwaway cluster.
{
  const run = spawnSync(process.execPath, [fileURLToPath(new URL('./invoke-postgres.js', import.meta.url))], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.status !== 0) throw new Error(`the PostgreSQL bench failed (exit ${run.status ?? run.signal})`);
  process.stdout.write(run.stdout);
}

// Issue 22's targets, each in a process of its own: wall time beside a bare client and the AI SDK's MCP client, and
// 64 concurrent conversations (invoke-targets.js); CPU on the call thread and CPU of recording (host-cpu.js); the
// console opening a conversation of 1,000 cards in Chromium and one event reaching 100 tabs (console-targets.js).
// Issue 32: the gateway hop (airlock gateway over stdio in front of server-everything) against the same client calling
// server-everything directly (gateway-hop.js). Issue 38, target 2: an agent loop's tail while the SQLite store
// checkpoints mid-burst on the writer's thread or on its own (checkpoint-stalls.js), and calls offered on a fixed
// schedule at half of bare's rate, host against bare (open-loop.js). Target 5: what a commit of its own costs a strict
// call on SQLite, WAL frames and CPU, beside appending the call's batch to a file (strict-commit-floor.js). How many
// calls share a commit with 64 callers on a worker store, under each durability (concurrent-batches.js). Target 4:
// one, two and three instance processes on one PostgreSQL database, calls per second together (scale-out.js).
for (const file of [
  './invoke-targets.js',
  './host-cpu.js',
  './console-targets.js',
  './gateway-hop.js',
  './checkpoint-stalls.js',
  './open-loop.js',
  './strict-commit-floor.js',
  './concurrent-batches.js',
  './scale-out.js',
]) {
  const run = spawnSync(process.execPath, [fileURLToPath(new URL(file, import.meta.url))], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.status !== 0) throw new Error(`${file} failed (exit ${run.status ?? run.signal})`);
  process.stdout.write(run.stdout);
}

// The host's own path in one process: host.invoke of a native echo tool a rule allows, with SQLite history on the
// call's thread, no pipe and no server process. What the host costs per call when nothing else competes for the core.
{
  const dir = mkdtempSync(join(tmpdir(), 'airlock-bench-'));
  const host = createHost({
    servers: { mcpServers: {} },
    store: new SqliteStore({ database: new Database(join(dir, 'bench.db')) }),
    surface: { askPermission: () => Promise.resolve('deny') },
    permissions: { rules: [{ effect: 'allow', tool: 'echo' }] },
    tools: [
      {
        name: 'echo',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
        run: (args) => Promise.resolve({ content: [{ type: 'text', text: String(args.text) }] }),
      },
    ],
  });
  const scope = { userId: 'bench', workspaceId: 'bench', conversationId: 'bench' };
  const call = async (i) => {
    const r = await host.invoke({ scope, caller: { kind: 'model' }, tool: 'echo', args: { text: `hello ${i}` } });
    if (r.outcome !== 'success') throw new Error(`bench call failed: ${r.text}`);
  };
  const CALLS = 20_000;
  for (let i = 0; i < 5_000; i++) await call(i);
  const samples = [];
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    await call(i);
    samples.push(performance.now() - t);
  }
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  await host.history.list({ scope, limit: 1 });
  await host.close();
  rmSync(dir, { recursive: true, force: true });
  const p = stats(samples);
  console.log(
    JSON.stringify({
      bench: 'invoke_in_process',
      store: 'sqlite',
      calls: CALLS,
      median_us: Math.round(p.median * 1000 * 10) / 10,
      p99_us: Math.round(p.p99 * 1000 * 10) / 10,
      mean_us: Math.round((wallMs / CALLS) * 1000 * 10) / 10,
      cpu_us_per_call: Math.round(((used.user + used.system) / CALLS) * 10) / 10,
    }),
  );
}

const line = 'x'.repeat(99);
const tenMb = Array.from({ length: 100_000 }, (_, i) => `${String(i).padStart(8, '0')}${line}`.slice(0, 99)).join('\n');
const result = { content: [{ type: 'text', text: tenMb }] };
const samples = [];
for (let i = 0; i < 30; i++) {
  const start = performance.now();
  boundResult({ result, source: { tool: 'huge', serverId: 'demo' }, handle: 'airlock:result/x' });
  samples.push(performance.now() - start);
}
const s = stats(samples.slice(5));
console.log(
  JSON.stringify({
    bench: 'bound_10mb_text',
    chars: tenMb.length,
    median_ms: round(s.median),
    p99_ms: round(s.p99),
    target_ms: 50,
  }),
);

// A cached permission lookup with 100,000 stored decisions: what the gate does before every call (rules, then the
// in-memory decision map), measured through host.permissions.explain. Target: under 20 µs at the median.
{
  const store = new MemoryStore();
  const servers = parseServersConfig({ mcpServers: { demo: { command: process.execPath, args: [demoBin] } } });
  const scope = { userId: 'bench', workspaceId: 'bench', conversationId: 'bench' };
  const identity = serverIdentity(servers[0]);
  const audit = {
    type: 'permission.decision',
    at: 0,
    userId: 'x',
    workspaceId: 'x',
    conversationId: null,
    serverId: 'demo',
    tool: 'x',
    argsHash: null,
    riskTier: 'low',
    invocationId: null,
    data: {},
  };
  const seedStart = performance.now();
  for (let i = 0; i < 100_000; i++) {
    await store.write([
      {
        kind: 'decision.put',
        decision: {
          id: `seed-${i}`,
          userId: `user-${i % 1000}`,
          workspaceId: `ws-${i % 7}`,
          serverId: 'demo',
          serverIdentity: identity,
          tool: `tool_${i}`,
          argsHash: null,
          definitionHash: 'x'.repeat(64),
          effect: 'allow',
          riskTier: 'low',
          grantedAt: Date.now(),
          expiresAt: null,
          grantedBy: `user-${i % 1000}`,
        },
        audit,
      },
    ]);
  }
  const seedMs = performance.now() - seedStart;
  const reopened = createHost({
    servers,
    store,
    surface: { askPermission: () => Promise.resolve('allow_once') },
  });
  const loadStart = performance.now();
  await reopened.permissions.ready();
  const loadMs = performance.now() - loadStart;
  await reopened.servers.settled();
  await reopened.permissions.decide({ scope, tool: 'demo__echo', decision: 'allow_always' });
  const samples = [];
  for (let i = 0; i < 20_000; i++) {
    const start = performance.now();
    const explanation = reopened.permissions.explain({ scope, tool: 'demo__echo', args: { text: 'hello' } });
    samples.push(performance.now() - start);
    if (explanation.source !== 'stored_decision') throw new Error('the lookup missed the stored decision');
  }
  await reopened.close();
  const l = stats(samples.slice(2_000));
  console.log(
    JSON.stringify({
      bench: 'cached_decision_lookup',
      stored_decisions: 100_001,
      median_us: Math.round(l.median * 1000 * 10) / 10,
      p99_us: Math.round(l.p99 * 1000 * 10) / 10,
      load_all_ms: round(loadMs),
      seed_ms: Math.round(seedMs),
      target_median_us: 20,
    }),
  );
}

// The web components in headless Chromium: a card with a 5 MB text result (target under 100 ms) and a page of 500
// cards (target under 2 s).
{
  const { runElementsBench } = await import('../packages/elements/bench/elements-bench.mjs');
  for (const result of await runElementsBench()) console.log(JSON.stringify(result));
}

// One line of npm run bench (run.js starts it once per store): host.invoke with the store named in argv[2] against a
// bare client.callTool, the two alone in one process, on the same stdio demo server. Target (issue 2): at most 1.10x
// at the median.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createHost, MemoryStore, SqliteStore, WorkerStore } from '@airlock/core';

const KINDS = ['sqlite', 'sqlite_worker', 'memory'];
const kind = process.argv[2];
if (!KINDS.includes(kind)) throw new Error(`invoke-pair.js: the store must be one of ${KINDS.join(', ')}, not ${kind}`);

const demoBin = join(dirname(fileURLToPath(import.meta.resolve('@airlock/demo-server'))), 'bin.js');
const CALLS = Number(process.env.AIRLOCK_BENCH_CALLS ?? 1000);
const WARMUP = 200;
// Each side talks to several demo server processes, one slice of calls each in turn. How fast one client and one
// server process answer each other depends on where the scheduler puts the pair (one core or two), and that differs
// from process to process by as much as the 10 % being measured; turns over several processes average it out.
const PROCESSES = Number(process.env.AIRLOCK_BENCH_PROCESSES ?? 4);

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p99: at(0.99), n: sorted.length };
}

const round = (ms) => Math.round(ms * 1000) / 1000;

async function openBare() {
  const clients = [];
  for (let k = 0; k < PROCESSES; k++) {
    const client = new Client({ name: 'bench', version: '0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [demoBin], stderr: 'ignore' }));
    await client.listTools();
    clients.push(client);
  }
  return {
    call: (i, k) => clients[k].callTool({ name: 'echo', arguments: { text: `hello ${i}` } }),
    settle: () => Promise.resolve(),
    close: () => Promise.all(clients.map((client) => client.close())),
  };
}

async function openHost(kind) {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-bench-'));
  const path = join(dir, 'bench.db');
  const store =
    kind === 'sqlite'
      ? new SqliteStore({ database: new Database(path) })
      : kind === 'sqlite_worker'
        ? new WorkerStore({ module: new URL('./store-worker.js', import.meta.url), workerData: { path } })
        : new MemoryStore();
  const mcpServers = {};
  for (let k = 0; k < PROCESSES; k++) mcpServers[`demo${k}`] = { command: process.execPath, args: [demoBin] };
  const host = createHost({
    servers: { mcpServers },
    store,
    surface: { askPermission: () => Promise.resolve('allow_once') },
  });
  await host.servers.settled();
  const scope = { userId: 'bench', workspaceId: 'bench', conversationId: 'bench' };
  // The steady state of a tool the user allowed always: every call still passes the gate (a stored-decision lookup
  // and its audit event) but no person is asked, so what is measured is the host, not a prompt.
  const tools = Object.keys(mcpServers).map((id) => `${id}__echo`);
  for (const tool of tools) await host.permissions.decide({ scope, tool, decision: 'allow_always' });
  return {
    call: async (i, k) => {
      const r = await host.invoke({
        scope,
        caller: { kind: 'model' },
        tool: tools[k],
        args: { text: `hello ${i}` },
      });
      if (r.outcome !== 'success') throw new Error(`bench call failed: ${r.text}`);
    },
    // A read stores everything queued first: the slice's history is written before the next target's slice starts.
    settle: () => host.history.list({ scope, limit: 1 }),
    close: async () => {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// They run side by side, in alternating slices of 50 calls, so drift in the machine's load hits both alike. After its
// slice the host writes what it has queued (untimed), so its history is never written in the bare client's slice.
const targets = [
  { name: 'bare', ...(await openBare()), samples: [] },
  { name: `host_${kind}`, ...(await openHost(kind)), samples: [] },
];
const SLICE = 50;
let n = 0;
for (let i = 0; i < WARMUP; i++) for (const t of targets) await t.call(n++, i % PROCESSES);
for (let done = 0, slice = 0; done < CALLS; done += SLICE, slice++) {
  for (const t of targets) {
    for (let i = 0; i < SLICE; i++) {
      const start = performance.now();
      await t.call(n++, slice % PROCESSES);
      t.samples.push(performance.now() - start);
    }
    await t.settle();
  }
}
for (const t of targets) await t.close();
const [b, ...hosts] = targets.map((t) => ({ name: t.name, ...stats(t.samples) }));
for (const h of hosts) {
  console.log(
    JSON.stringify({
      bench: `invoke_vs_bare_callTool`,
      store: h.name.slice('host_'.length),
      calls: CALLS,
      server_processes: PROCESSES,
      bare_median_ms: round(b.median),
      bare_p99_ms: round(b.p99),
      host_median_ms: round(h.median),
      host_p99_ms: round(h.p99),
      host_added_us_median: Math.round((h.median - b.median) * 1000),
      ratio_median: Math.round((h.median / b.median) * 1000) / 1000,
      ratio_p99: Math.round((h.p99 / b.p99) * 1000) / 1000,
      target_ratio_median: 1.1,
    }),
  );
}

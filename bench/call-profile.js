// A diagnostic, not a line of npm run bench: one side of target 3 alone in its process, making sequential calls to
// server-everything's echo over stdio: `bare` (the v2 SDK client), `ai_sdk` (the AI SDK's MCP client), `host` (allow
// always, SQLite history on its worker) or `unrecorded` (the same host, its worker dropping each call's recording).
// Prints wall and CPU per call by thread. AIRLOCK_PROFILE=FILE writes a V8 CPU profile of the measured calls only
// (not start-up nor warm-up) to FILE, to read self time by function per call.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createMCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { createHost } from '@airlock/core';
import { WorkerStore } from '@airlock/core/worker';
import { cpuSplit, processCpuUs, quantile, threadCpuUs, threadsCpuUs } from './bench-stats.js';

const side = process.argv[2] ?? 'host';
const CALLS = Number(process.env.AIRLOCK_BENCH_CALLS ?? 5000);
const WARMUP = Number(process.env.AIRLOCK_BENCH_WARMUP ?? 2000);
const here = dirname(fileURLToPath(import.meta.url));
const args = [join(here, '../node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];

async function open() {
  if (side === 'bare') {
    const client = new Client({ name: 'bench', version: '0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
    await client.listTools();
    return {
      call: (i) => client.callTool({ name: 'echo', arguments: { message: `hello ${i}` } }),
      close: () => client.close(),
    };
  }
  if (side === 'ai_sdk') {
    const client = await createMCPClient({
      transport: new Experimental_StdioMCPTransport({ command: process.execPath, args, stderr: 'ignore' }),
    });
    const { echo } = await client.tools();
    const options = { toolCallId: 'bench', messages: [] };
    return { call: (i) => echo.execute({ message: `hello ${i}` }, options), close: () => client.close() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'airlock-bench-'));
  const tid = new Int32Array(new SharedArrayBuffer(4));
  const store = new WorkerStore({
    module: new URL(side === 'unrecorded' ? './unrecorded-store-worker.js' : './store-worker.js', import.meta.url),
    workerData: { path: join(dir, 'bench.db'), tid },
  });
  const host = createHost({
    servers: { mcpServers: { echo: { command: process.execPath, args } } },
    store,
    surface: { askPermission: () => Promise.resolve('deny_once') },
  });
  await host.servers.settled();
  const scope = { userId: 'bench', workspaceId: 'bench', conversationId: 'c0' };
  await host.permissions.decide({ scope, tool: 'echo__echo', decision: 'allow_always' });
  return {
    storeTid: () => Atomics.load(tid, 0),
    call: async (i) => {
      const r = await host.invoke({
        scope,
        caller: { kind: 'model' },
        tool: 'echo__echo',
        args: { message: `hello ${i}` },
      });
      if (r.outcome !== 'success') throw new Error(`bench call failed: ${r.text}`);
    },
    close: async () => {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * AIRLOCK_PHASES=1: each measured call cut in four by when it writes its request to the server's pipe and when the
 * answer's bytes are pushed to it (every side uses a net.Socket both ways): before the write (the side's own work
 * before sending), the write, the wait (the server, the wake-ups and whatever the side does meanwhile), and after
 * the push (the side's own work on the answer), and the whole call. Median and 90th percentile, in µs.
 */
const phases = process.env.AIRLOCK_PHASES === '1' ? { start: 0, wrote: 0, written: 0, pushed: 0, rows: [] } : undefined;
if (phases !== undefined) {
  const write = Socket.prototype.write;
  Socket.prototype.write = function (...a) {
    if (phases.wrote === 0) phases.wrote = performance.now();
    const r = write.apply(this, a);
    if (phases.written === 0) phases.written = performance.now();
    return r;
  };
  const push = Socket.prototype.push;
  Socket.prototype.push = function (chunk, ...a) {
    if (chunk !== null && phases.pushed === 0 && phases.written !== 0) phases.pushed = performance.now();
    return push.call(this, chunk, ...a);
  };
}
const s = await open();
let n = 0;
for (let i = 0; i < WARMUP; i++) await s.call(n++);
// AIRLOCK_PROFILE=FILE: the measured calls only (not start-up nor warm-up), profiled by V8 and written to FILE.
const session = process.env.AIRLOCK_PROFILE === undefined ? undefined : new Session();
if (session !== undefined) {
  session.connect();
  await post(session, 'Profiler.setSamplingInterval', { interval: 50 });
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.start');
}
const t0 = threadCpuUs();
const threads0 = threadsCpuUs();
const p0 = processCpuUs();
const w0 = performance.now();
for (let i = 0; i < CALLS; i++) {
  if (phases === undefined) await s.call(n++);
  else {
    phases.wrote = phases.written = phases.pushed = 0;
    phases.start = performance.now();
    await s.call(n++);
    const end = performance.now();
    const { start, wrote, written, pushed } = phases;
    if (wrote !== 0 && pushed !== 0)
      phases.rows.push([wrote - start, written - wrote, pushed - written, end - pushed, end - start]);
  }
}
const wall = (performance.now() - w0) / CALLS;
console.log(
  JSON.stringify({
    side,
    calls: CALLS,
    wall_ms: +wall.toFixed(4),
    thread_us: +((threadCpuUs() - t0) / CALLS).toFixed(1),
    all_us: +((processCpuUs() - p0) / CALLS).toFixed(1),
    ...(phases === undefined
      ? {}
      : {
          phases_us: Object.fromEntries(
            ['before_write', 'write', 'wait', 'after_push', 'whole'].map((k, i) => {
              const column = phases.rows.map((r) => r[i]);
              return [k, [0.5, 0.9].map((q) => Math.round(quantile(column, q) * 10000) / 10)];
            }),
          ),
        }),
    split: cpuSplit(threads0, threadsCpuUs(), CALLS, s.storeTid?.() ?? 0),
  }),
);
if (session !== undefined) {
  const { profile } = await post(session, 'Profiler.stop');
  writeFileSync(process.env.AIRLOCK_PROFILE, JSON.stringify(profile));
}
await s.close();

function post(on, method, params) {
  return new Promise((resolve, reject) =>
    on.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

// A line of npm run bench for issue 32, in a process of its own (run.js starts it): what the gateway hop costs. One v2
// SDK client calls server-everything's echo directly over stdio; another calls the same echo through `airlock gateway`
// over stdio (the built bin, SQLite history on a worker thread, a rule allowing echo, server-everything behind it).
// Interleaved slices of 50 calls (the order turns every slice); per run each side's median and p99, and the gateway
// process's CPU per call (every thread of it, from /proc). Each figure: the median of RUNS runs with the least and the
// most. Target: the hop adds at most 150 µs at the median. Beside them, as diagnostics of the floor, a third client
// calls through a bare relay process (bytes piped both ways, nothing parsed): what any process in between costs on
// this machine; and a fourth through a bare v2 SDK relay (sdk-relay.js: SDK Server to SDK Client, no host): what the
// SDK alone costs.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { MACHINE, quantile, spread } from './bench-stats.js';

const env = process.env;
const RUNS = Number(env.AIRLOCK_BENCH_RUNS ?? 5);
const CALLS = Number(env.AIRLOCK_BENCH_CALLS ?? 1000);
const WARMUP = Number(env.AIRLOCK_BENCH_WARMUP ?? 3000);
const SLICE = 50;

const here = dirname(fileURLToPath(import.meta.url));
const everything = [join(here, '../node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];
const gatewayBin = join(here, '../packages/cli/dist/bin.js');
/** The floor of a hop: a process that starts the server and pipes bytes both ways, parsing nothing. */
const RELAY = `const c = require('node:child_process').spawn(process.execPath, ${JSON.stringify(everything)}, { stdio: ['pipe', 'pipe', 'ignore'] });
process.stdin.pipe(c.stdin); c.stdout.pipe(process.stdout); c.on('exit', () => process.exit());`;

/** CPU time of every thread of a process, in microseconds (Linux: /proc/PID/task/TID/schedstat, in nanoseconds). */
function processTreeCpuUs(pid) {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return total;
}

async function open(name, tool, command, args) {
  const transport = new StdioClientTransport({ command, args, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  if (!tools.some((t) => t.name === tool)) throw new Error(`${name}: no tool ${tool}`);
  return {
    name,
    pid: transport.pid,
    call: async (i) => {
      const result = await client.callTool({ name: tool, arguments: { message: `hello ${i}` } });
      if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    },
    close: () => client.close(),
  };
}

const dir = mkdtempSync(join(tmpdir(), 'airlock-bench-gateway-'));
const config = join(dir, 'airlock.config.json');
writeFileSync(
  config,
  JSON.stringify({
    mcpServers: { everything: { command: process.execPath, args: everything } },
    permissions: { rules: [{ effect: 'allow', server: 'everything', tool: 'echo' }] },
  }),
);
const sides = [
  await open('direct', 'echo', process.execPath, everything),
  await open('gateway', 'everything__echo', process.execPath, [
    gatewayBin,
    'gateway',
    '--config',
    config,
    '--store',
    join(dir, 'airlock.db'),
  ]),
];
const gateway = sides[1];
sides.push(await open('relay', 'echo', process.execPath, ['-e', RELAY]));
sides.push(await open('sdk', 'echo', process.execPath, [join(here, 'sdk-relay.js')]));

let n = 0;
for (let i = 0; i < WARMUP; i++) for (const side of sides) await side.call(n++);

const perRun = Object.fromEntries(sides.map((s) => [s.name, { medians: [], p99s: [] }]));
const added = { median: [], p99: [], gatewayCpu: [], relayMedian: [], relayCpu: [], sdkMedian: [], sdkCpu: [] };
for (let run = 0; run < RUNS; run++) {
  const samples = Object.fromEntries(sides.map((s) => [s.name, []]));
  let gatewayCpu = 0;
  let relayCpu = 0;
  let sdkCpu = 0;
  for (let slice = 0; slice * SLICE < CALLS; slice++) {
    for (let k = 0; k < sides.length; k++) {
      const side = sides[(slice + k) % sides.length];
      const before = side.name === 'direct' ? 0 : processTreeCpuUs(side.pid);
      for (let i = 0; i < SLICE; i++) {
        const start = performance.now();
        await side.call(n++);
        samples[side.name].push(performance.now() - start);
      }
      if (side === gateway) gatewayCpu += processTreeCpuUs(side.pid) - before;
      if (side.name === 'relay') relayCpu += processTreeCpuUs(side.pid) - before;
      if (side.name === 'sdk') sdkCpu += processTreeCpuUs(side.pid) - before;
    }
  }
  for (const side of sides) {
    perRun[side.name].medians.push(quantile(samples[side.name], 0.5));
    perRun[side.name].p99s.push(quantile(samples[side.name], 0.99));
  }
  added.median.push((perRun.gateway.medians[run] - perRun.direct.medians[run]) * 1000);
  added.p99.push((perRun.gateway.p99s[run] - perRun.direct.p99s[run]) * 1000);
  added.gatewayCpu.push(gatewayCpu / samples.gateway.length);
  added.relayMedian.push((perRun.relay.medians[run] - perRun.direct.medians[run]) * 1000);
  added.relayCpu.push(relayCpu / samples.relay.length);
  added.sdkMedian.push((perRun.sdk.medians[run] - perRun.direct.medians[run]) * 1000);
  added.sdkCpu.push(sdkCpu / samples.sdk.length);
}
for (const side of sides) await side.close();
rmSync(dir, { recursive: true, force: true });

console.log(
  JSON.stringify({
    bench: 'gateway_hop_vs_direct',
    server: 'everything',
    ...MACHINE,
    runs: RUNS,
    calls_per_side_per_run: CALLS,
    warmup_calls: WARMUP,
    store: 'sqlite on a worker thread',
    direct_median_ms: spread(perRun.direct.medians),
    direct_p99_ms: spread(perRun.direct.p99s),
    gateway_median_ms: spread(perRun.gateway.medians),
    gateway_p99_ms: spread(perRun.gateway.p99s),
    added_median_us: spread(added.median, 1),
    added_p99_us: spread(added.p99, 1),
    gateway_cpu_us_per_call: spread(added.gatewayCpu, 1),
    target_added_median_us: 150,
    diagnostic_relay_added_median_us: spread(added.relayMedian, 1),
    diagnostic_relay_cpu_us_per_call: spread(added.relayCpu, 1),
    diagnostic_sdk_relay_added_median_us: spread(added.sdkMedian, 1),
    diagnostic_sdk_relay_cpu_us_per_call: spread(added.sdkCpu, 1),
  }),
);

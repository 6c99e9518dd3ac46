// One line per durability of npm run bench (issue 38, target 4): do instances add capacity? One, two and three
// instances, each a Node process of its own with a host on one PostgreSQL database (a throwaway cluster over a unix
// socket, fsync on), each driven by the same number of callers in a closed loop for a fixed time; the counts are
// interleaved in rounds (the order rotated each round) so drift in the machine hits every count alike. Reported: calls
// per second of all instances together, the ratios to one instance per round, and where the CPU went (the instances,
// the database's processes, the machine's idle share), since on a machine of two cores the sum of those is the
// ceiling. The audit chain is verified after every round. An instance here is the host the console runs on PostgreSQL
// (its HTTP front is not in the path of a call the model makes), calling a native echo tool a rule allows.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PostgresStore } from '@airlock/core/postgres';
import { MACHINE, spread } from './bench-stats.js';
import { echoHost, postgresCpuUs } from './postgres-bench-parts.js';

const ROUNDS = Number(process.env.AIRLOCK_BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.AIRLOCK_BENCH_SECONDS ?? 4);
const CALLERS = Number(process.env.AIRLOCK_BENCH_CALLERS ?? 32);
const COUNTS = [1, 2, 3];

function openHost(url, durability) {
  return PostgresStore.open({ pool: new pg.Pool({ connectionString: url, max: 10 }) }).then((store) =>
    echoHost(store, durability),
  );
}

/**
 * An instance: opens its host, says "ready", and on "go" runs CALLERS callers (a user each) for SECONDS, then prints
 * what it did as one JSON line and exits.
 */
async function instance(url, durability, name) {
  const host = await openHost(url, durability);
  // A warm-up, so every instance starts the measured window with its code compiled and its pool connected.
  const warmScope = { userId: `${name}-warm`, workspaceId: 'bench', conversationId: 'bench' };
  for (let i = 0; i < 200; i++)
    await host.invoke({ scope: warmScope, caller: { kind: 'model' }, tool: 'echo', args: {} });
  console.log('ready');
  const input = createInterface({ input: process.stdin });
  await new Promise((resolve) => input.once('line', resolve));
  input.close();
  const cpu = process.cpuUsage();
  const until = Date.now() + SECONDS * 1000;
  let calls = 0;
  const caller = async (c) => {
    const scope = { userId: `${name}-user-${c}`, workspaceId: 'bench', conversationId: 'bench' };
    while (Date.now() < until) {
      const r = await host.invoke({ scope, caller: { kind: 'model' }, tool: 'echo', args: { text: `hello ${calls}` } });
      if (r.outcome !== 'success') throw new Error(`bench call failed: ${r.text}`);
      calls += 1;
    }
  };
  await Promise.all(Array.from({ length: CALLERS }, (_, c) => caller(c)));
  const used = process.cpuUsage(cpu);
  console.log(JSON.stringify({ calls, cpuUs: used.user + used.system }));
  await host.close();
}

/** The machine's idle and total time so far, in clock ticks, from /proc/stat's first line. */
function machineTicks() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { idle: fields[3] + fields[4], total: fields.reduce((a, b) => a + b, 0) };
}

/** Starts `count` instances, waits until all are ready, lets them run at once, and sums what they did. */
async function runInstances(server, url, durability, count, round) {
  const children = Array.from({ length: count }, (_, i) =>
    spawn(
      process.execPath,
      [fileURLToPath(import.meta.url), '--instance', url, durability, `r${round}-n${count}-i${i}`],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    ),
  );
  const lines = children.map((child) => createInterface({ input: child.stdout })[Symbol.asyncIterator]());
  const next = async (it, child) => {
    const { value, done } = await it.next();
    if (done) throw new Error(`an instance ended early (exit ${child.exitCode})`);
    return value;
  };
  for (const [i, it] of lines.entries()) {
    const line = await next(it, children[i]);
    if (line !== 'ready') throw new Error(`an instance said "${line}" where it should say ready`);
  }
  const serverBefore = postgresCpuUs(server.pid);
  const machineBefore = machineTicks();
  const waits = sampleWaits(url);
  for (const child of children) child.stdin.end('go\n');
  const reports = await Promise.all(lines.map(async (it, i) => JSON.parse(await next(it, children[i]))));
  const machine = machineTicks();
  const waited = await waits.stop();
  const serverUs = postgresCpuUs(server.pid) - serverBefore;
  await Promise.all(
    children.map(
      (child) => new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve))),
    ),
  );
  const calls = reports.reduce((sum, r) => sum + r.calls, 0);
  return {
    callsPerS: calls / SECONDS,
    instanceCpuUsPerCall: reports.reduce((sum, r) => sum + r.cpuUs, 0) / calls,
    serverCpuUsPerCall: serverUs / calls,
    idleShare: (machine.idle - machineBefore.idle) / (machine.total - machineBefore.total),
    waits: waited,
  };
}

/**
 * What the database's busy backends wait on while the instances run: pg_stat_activity sampled every 20 ms, each
 * active backend counted by its wait (CPU when it waits on nothing). A profile of the shared part, so a flat line of
 * calls per second says whether the instances queue on a lock, on the WAL or on CPU.
 */
function sampleWaits(url) {
  const client = new pg.Client({ connectionString: url });
  const counts = new Map();
  let samples = 0;
  let stopped = false;
  const sampling = (async () => {
    await client.connect();
    while (!stopped) {
      const { rows } = await client.query(
        `SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS wait FROM pg_stat_activity
          WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
      );
      samples += 1;
      for (const { wait } of rows) counts.set(wait, (counts.get(wait) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await client.end();
  })();
  return {
    async stop() {
      stopped = true;
      await sampling;
      // Busy backends per sample, by what they wait on: the four largest.
      return Object.fromEntries(
        [...counts]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 4)
          .map(([wait, n]) => [wait, Math.round((n / samples) * 100) / 100]),
      );
    },
  };
}

async function main() {
  const { startPostgres } = await import('../test/support/postgres/postgres-server.js');
  const server = await startPostgres({ fsync: true });
  try {
    for (const durability of ['grouped', 'strict']) {
      const url = await server.createDatabase(`bench_scale_${durability}`);
      const results = new Map(COUNTS.map((n) => [n, []]));
      for (let round = 0; round < ROUNDS; round++) {
        const order = COUNTS.map((_, i) => COUNTS[(i + round) % COUNTS.length]);
        for (const n of order) results.get(n).push(await runInstances(server, url, durability, n, round));
        const verifier = await openHost(url, durability);
        const verified = await verifier.audit.verify();
        await verifier.close();
        if (!verified.ok)
          throw new Error(`the audit chain does not verify after round ${round}: ${JSON.stringify(verified)}`);
      }
      const of = (n, key, digits = 1) =>
        spread(
          results.get(n).map((r) => r[key]),
          digits,
        );
      const ratio = (n) =>
        spread(
          results.get(n).map((r, i) => r.callsPerS / results.get(1)[i].callsPerS),
          2,
        );
      console.log(
        JSON.stringify({
          bench: 'target_4_scale_out_postgres',
          ...MACHINE,
          durability,
          rounds: ROUNDS,
          seconds: SECONDS,
          callers_per_instance: CALLERS,
          calls_per_s: Object.fromEntries(COUNTS.map((n) => [`instances_${n}`, of(n, 'callsPerS', 0)])),
          two_vs_one: ratio(2),
          three_vs_one: ratio(3),
          target_two_vs_one: 1.7,
          instance_cpu_us_per_call: Object.fromEntries(
            COUNTS.map((n) => [`instances_${n}`, of(n, 'instanceCpuUsPerCall')]),
          ),
          database_cpu_us_per_call: Object.fromEntries(
            COUNTS.map((n) => [`instances_${n}`, of(n, 'serverCpuUsPerCall')]),
          ),
          machine_idle_share: Object.fromEntries(COUNTS.map((n) => [`instances_${n}`, of(n, 'idleShare', 3)])),
          // The last round's: busy backends per sample by what they waited on.
          database_waits: Object.fromEntries(COUNTS.map((n) => [`instances_${n}`, results.get(n).at(-1).waits])),
          chain_verified: true,
        }),
      );
    }
  } finally {
    await server.stop();
  }
}

if (process.argv[2] === '--instance') await instance(process.argv[3], process.argv[4], process.argv[5]);
else await main();

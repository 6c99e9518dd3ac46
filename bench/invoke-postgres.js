// Lines of npm run bench (run.js starts this in a process of its own): host.invoke with history on PostgreSQL (a
// throwaway cluster of the machine's server, over a unix socket, fsync on) against the same with SQLite, under both
// durabilities, in interleaved rounds; then calls per second through two hosts on one PostgreSQL database with 50
// users calling at once. The host's own path: a native echo tool a rule allows, so the store is what differs.
// CPU per call counts this process and, for PostgreSQL, the server's processes too (from /proc).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import pg from 'pg';
import { PostgresStore } from '@airlock/core/postgres';
import { SqliteStore } from '@airlock/core/sqlite';
import { startPostgres } from '../test/support/postgres/postgres-server.js';
import { echoHost, postgresCpuUs } from './postgres-bench-parts.js';

const CALLS = Number(process.env.AIRLOCK_BENCH_CALLS ?? 4000);
const WARMUP = Number(process.env.AIRLOCK_BENCH_WARMUP ?? 2000);
const ROUNDS = 8;

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p99: at(0.99) };
}

const us = (ms) => Math.round(ms * 1000 * 10) / 10;

async function call(host, scope, i) {
  const r = await host.invoke({ scope, caller: { kind: 'model' }, tool: 'echo', args: { text: `hello ${i}` } });
  if (r.outcome !== 'success') throw new Error(`bench call failed: ${r.text}`);
}

const server = await startPostgres({ fsync: true });
const dir = mkdtempSync(join(tmpdir(), 'airlock-bench-pg-'));
try {
  const sides = [];
  for (const durability of ['grouped', 'strict']) {
    const url = await server.createDatabase(`bench_${durability}`);
    const postgres = await PostgresStore.open({ pool: new pg.Pool({ connectionString: url, max: 4 }) });
    // The server's commit without waiting for the WAL flush: what SQLite's synchronous = NORMAL promises (a commit
    // survives the host's crash, not a power loss), set per connection as an operator would in the URL.
    const lazy = await PostgresStore.open({
      pool: new pg.Pool({ connectionString: url, max: 4, options: '-c synchronous_commit=off' }),
    });
    const sqlite = new SqliteStore({ database: new Database(join(dir, `bench-${durability}.db`)) });
    for (const [name, store] of [
      ['postgres_unix_socket', postgres],
      ['postgres_unix_socket_synchronous_commit_off', lazy],
      ['sqlite', sqlite],
    ]) {
      sides.push({ name, durability, host: echoHost(store, durability), samples: [], cpu: 0, serverCpu: 0 });
    }
  }
  const scope = { userId: 'bench', workspaceId: 'bench', conversationId: 'bench' };
  for (const side of sides) for (let i = 0; i < WARMUP; i++) await call(side.host, scope, i);
  const perRound = Math.ceil(CALLS / ROUNDS);
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of sides) {
      const cpu = process.cpuUsage();
      const onPostgres = side.name.startsWith('postgres');
      const serverBefore = onPostgres ? postgresCpuUs(server.pid) : 0;
      for (let i = 0; i < perRound; i++) {
        const t = performance.now();
        await call(side.host, scope, i);
        side.samples.push(performance.now() - t);
      }
      // What the host still owes the store (grouped durability) is part of the calls' cost.
      await side.host.history.list({ scope, limit: 1 });
      const used = process.cpuUsage(cpu);
      side.cpu += used.user + used.system;
      if (onPostgres) side.serverCpu += postgresCpuUs(server.pid) - serverBefore;
    }
  }
  for (const side of sides) {
    const s = stats(side.samples);
    const n = side.samples.length;
    console.log(
      JSON.stringify({
        bench: 'invoke_history_store',
        store: side.name,
        durability: side.durability,
        calls: n,
        median_us: us(s.median),
        p99_us: us(s.p99),
        cpu_us_per_call: Math.round((side.cpu / n) * 10) / 10,
        ...(side.name.startsWith('postgres')
          ? { server_cpu_us_per_call: Math.round((side.serverCpu / n) * 10) / 10 }
          : {}),
      }),
    );
    await side.host.close();
  }

  // Two hosts (two instances) on one database, 50 users at once (25 on each), 20 calls each under durability
  // 'strict' (each call returns once its history is committed): what the shared database serves.
  {
    const url = await server.createDatabase('bench_two_instances');
    const open = async () =>
      echoHost(await PostgresStore.open({ pool: new pg.Pool({ connectionString: url, max: 10 }) }), 'strict');
    const hosts = [await open(), await open()];
    const USERS = 50;
    const EACH = Number(process.env.AIRLOCK_BENCH_USER_CALLS ?? 20);
    const user = async (u) => {
      const host = hosts[u % 2];
      const userScope = { userId: `user-${u}`, workspaceId: 'bench', conversationId: 'bench' };
      for (let i = 0; i < EACH; i++) await call(host, userScope, i);
    };
    await Promise.all(Array.from({ length: USERS }, (_, u) => user(u)));
    const start = performance.now();
    const cpu = process.cpuUsage();
    const serverBefore = postgresCpuUs(server.pid);
    await Promise.all(Array.from({ length: USERS }, (_, u) => user(u)));
    const wallMs = performance.now() - start;
    const used = process.cpuUsage(cpu);
    const serverUsed = postgresCpuUs(server.pid) - serverBefore;
    const verified = await hosts[0].audit.verify();
    if (!verified.ok) throw new Error(`the audit chain does not verify: ${JSON.stringify(verified)}`);
    const calls = USERS * EACH;
    console.log(
      JSON.stringify({
        bench: 'invoke_two_instances_postgres',
        users: USERS,
        calls,
        durability: 'strict',
        calls_per_s: Math.round(calls / (wallMs / 1000)),
        cpu_us_per_call: Math.round(((used.user + used.system) / calls) * 10) / 10,
        server_cpu_us_per_call: Math.round((serverUsed / calls) * 10) / 10,
        chain_verified: verified.ok,
      }),
    );
    await Promise.all(hosts.map((h) => h.close()));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  await server.stop();
}

import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, statSync, watch, writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import { seeded } from '../testing/seeded.js';
import { HISTORY_LOSS_BOUND } from './history-writer.js';

// Acknowledged calls are not lost (issue 15): a child process loops over host.invoke on a native tool and, after each
// call returns, appends its invocation id to an ack file with fsync; the test kills it with SIGKILL once a number of
// acks chosen by a seeded generator is in the file (watched, never slept on), reopens the SQLite file and counts the
// acknowledged calls that have no row in a terminal state. The child runs the BUILT package (packages/core/dist):
// run "npx tsc -b packages/core" first.
//
// 8 combinations (SqliteStore on the call's thread, WorkerStore with a SqliteStore on a worker thread while another
// thread of the child burns a core; a caller that yields with setImmediate between calls and one that never yields,
// `for (;;) await host.invoke(...)`; durability 'grouped' and 'strict'), KILLS kills each: 32 kills, about 20 s on a
// 2-core machine.

const KILLS = 4;
/** How many acks to wait for before the kill: drawn in this range, per kill. */
const ACKS_BEFORE_KILL = { least: 40, most: 1200 } as const;
/** Slack on the time bound for the child's own steps between a call's last write and its ack stamp. */
const STAMP_SLACK_MS = 10;

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist');
const BUILT = {
  core: join(DIST, 'index.js'),
  sqlite: join(DIST, 'storage/sqlite/index.js'),
  worker: join(DIST, 'storage/worker/index.js'),
};
const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');
/** An ack line: the invocation id (36 characters), a space, the ack's time in ms (12 characters), a newline. */
const ACK_LINE = 50;
const TERMINAL = new Set(['success', 'error', 'cancelled']);

type StoreKind = 'sqlite' | 'worker';
type LoopShape = 'yielding' | 'tight';
type Durability = 'grouped' | 'strict';

/** What one kill left: how many calls were acknowledged, how many of those were lost, and over how long. */
interface KillReport {
  readonly acked: number;
  readonly lost: number;
  /** From the first lost call's ack to the last's, in ms (0 when at most one was lost). */
  readonly lostSpanMs: number;
}

const random = seeded(15);
const reports: string[] = [];
let dir: string;

beforeAll(async () => {
  for (const file of Object.values(BUILT)) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run "npx tsc -b packages/core" first`);
  }
  dir = await mkdtemp(join(tmpdir(), 'airlock-crash-durability-'));
  await writeFile(join(dir, 'store-worker.mjs'), STORE_WORKER, 'utf8');
  await writeFile(join(dir, 'looper.mjs'), LOOPER, 'utf8');
});
afterAll(async () => {
  // AIRLOCK_CRASH_REPORT=<file> appends what each kill lost there (the figures of issue 15).
  const report = process.env['AIRLOCK_CRASH_REPORT'];
  if (report !== undefined) appendFileSync(report, `${reports.join('\n')}\n`);
  await rm(dir, { recursive: true, force: true });
});

describe('acknowledged calls after a kill -9', () => {
  const cases: [StoreKind, LoopShape, Durability][] = [];
  for (const store of ['sqlite', 'worker'] as const)
    for (const loop of ['yielding', 'tight'] as const)
      for (const durability of ['grouped', 'strict'] as const) cases.push([store, loop, durability]);

  it.each(cases)(
    '%s store, %s caller, %s durability: the acknowledged calls lost per kill stay within the bound',
    async (store, loop, durability) => {
      const kills: KillReport[] = [];
      for (let kill = 0; kill < KILLS; kill++) {
        const acks =
          ACKS_BEFORE_KILL.least + Math.floor(random.next() * (ACKS_BEFORE_KILL.most - ACKS_BEFORE_KILL.least));
        const name = `${store}-${loop}-${durability}-${kill}`;
        kills.push(await killAfter({ name, store, loop, durability, acks }));
      }
      reports.push(
        `${store} ${loop} ${durability}: ${kills.map((k) => `${k.lost}/${k.acked} lost (${k.lostSpanMs.toFixed(1)} ms)`).join(', ')}`,
      );
      const bound = durability === 'strict' ? 0 : HISTORY_LOSS_BOUND.calls;
      for (const k of kills) {
        expect(k.acked, 'the child acknowledged calls before it was killed').toBeGreaterThan(0);
        expect(k.lost, `acknowledged calls lost in one kill (${JSON.stringify(kills)})`).toBeLessThanOrEqual(bound);
        expect(k.lostSpanMs, 'the lost calls were acknowledged within the stated time').toBeLessThanOrEqual(
          HISTORY_LOSS_BOUND.ms + STAMP_SLACK_MS,
        );
      }
    },
    60_000,
  );
});

/** Runs the looper until `acks` calls are acknowledged, kills it, and counts what the store kept of them. */
async function killAfter(run: {
  name: string;
  store: StoreKind;
  loop: LoopShape;
  durability: Durability;
  acks: number;
}): Promise<KillReport> {
  const file = join(dir, `${run.name}.db`);
  const ackFile = join(dir, `${run.name}.acks`);
  writeFileSync(ackFile, '');
  let reached!: (enough: boolean) => void;
  const enough = new Promise<boolean>((done) => (reached = done));
  // Watched before the child starts, so no ack goes unseen.
  const watcher = watch(ackFile, () => {
    if (statSync(ackFile).size >= run.acks * ACK_LINE) reached(true);
  });
  const child = spawn(process.execPath, [join(dir, 'looper.mjs'), file, ackFile, run.store, run.loop, run.durability], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const ended = new Promise<NodeJS.Signals | null>((exit) => child.on('close', (_code, signal) => exit(signal)));
  void ended.then(() => reached(false));
  const ran = await enough;
  watcher.close();
  if (ran) child.kill('SIGKILL');
  const signal = await ended;
  expect(ran, `the looper ended before ${run.acks} acks; its stderr: ${stderr}`).toBe(true);
  expect(signal, `the looper should run until killed; its stderr: ${stderr}`).toBe('SIGKILL');

  const acked = readFileSync(ackFile, 'utf8')
    .split('\n')
    .filter((line) => line.length === ACK_LINE - 1)
    .map((line) => ({ id: line.slice(0, 36), at: Number(line.slice(37)) }));
  const database = new Database(file);
  // Opened as the store first: a child killed before its store ever opened left a file with no tables.
  const store = new SqliteStore({ database });
  const states = new Map(
    (database.prepare('SELECT id, state FROM invocations').all() as { id: string; state: string }[]).map((row) => [
      row.id,
      row.state,
    ]),
  );
  const lost = acked.filter((a) => !TERMINAL.has(states.get(a.id) ?? 'absent'));
  // The audit chain verifies after every kill: what a crash took back, it took back whole.
  const host = createHost({ store });
  const verified = await host.audit.verify();
  await host.close();
  expect(verified, `the audit chain after the kill of ${run.name}`).toMatchObject({ ok: true });
  const span = lost.length < 2 ? 0 : Math.max(...lost.map((l) => l.at)) - Math.min(...lost.map((l) => l.at));
  return { acked: acked.length, lost: lost.length, lostSpanMs: span };
}

/** The store's worker thread: a SqliteStore of the built core over the child's file. */
const STORE_WORKER = [
  `import { createRequire } from 'node:module';`,
  `import { parentPort, workerData } from 'node:worker_threads';`,
  `import { SqliteStore } from ${JSON.stringify(pathToFileURL(BUILT.sqlite).href)};`,
  `import { serveStore } from ${JSON.stringify(pathToFileURL(BUILT.worker).href)};`,
  `const Database = createRequire(import.meta.url)(${JSON.stringify(DRIVER)});`,
  `serveStore(new SqliteStore({ database: new Database(workerData.path) }), parentPort);`,
].join('\n');

/**
 * The child: a host with a native echo tool a rule allows, called in a loop forever; each result is acknowledged by
 * appending its id and the time to the ack file, fsynced, before the next call. With the worker store, another
 * thread burns a core meanwhile, so the store's thread (at background priority) competes for CPU.
 */
const LOOPER = [
  `import { fsyncSync, openSync, writeSync } from 'node:fs';`,
  `import { createRequire } from 'node:module';`,
  `import { Worker } from 'node:worker_threads';`,
  `import { createHost } from ${JSON.stringify(pathToFileURL(BUILT.core).href)};`,
  `import { SqliteStore } from ${JSON.stringify(pathToFileURL(BUILT.sqlite).href)};`,
  `import { WorkerStore } from ${JSON.stringify(pathToFileURL(BUILT.worker).href)};`,
  `const Database = createRequire(import.meta.url)(${JSON.stringify(DRIVER)});`,
  `const [file, ackFile, kind, loop, durability] = process.argv.slice(2);`,
  `const store = kind === 'sqlite'`,
  `  ? new SqliteStore({ database: new Database(file) })`,
  `  : new WorkerStore({ module: new URL('./store-worker.mjs', import.meta.url), workerData: { path: file } });`,
  `if (kind === 'worker') new Worker('for (;;);', { eval: true });`,
  `const host = createHost({`,
  `  store,`,
  `  durability,`,
  `  permissions: { rules: [{ effect: 'allow', tool: 'echo' }] },`,
  `  tools: [{`,
  `    name: 'echo',`,
  `    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },`,
  `    run: (args) => Promise.resolve({ content: [{ type: 'text', text: String(args.text) }] }),`,
  `  }],`,
  `});`,
  `const scope = { userId: 'crash', workspaceId: 'crash', conversationId: 'crash' };`,
  `const fd = openSync(ackFile, 'a');`,
  `const ack = (result) => {`,
  `  if (result.outcome !== 'success') throw new Error('the call failed: ' + result.text);`,
  `  writeSync(fd, result.invocationId + ' ' + performance.now().toFixed(3).padStart(12, '0') + '\\n');`,
  `  fsyncSync(fd);`,
  `};`,
  `const call = (i) => host.invoke({ scope, caller: { kind: 'model' }, tool: 'echo', args: { text: 'call ' + i } });`,
  `if (loop === 'tight') for (let i = 0; ; i++) ack(await call(i));`,
  `else for (let i = 0; ; i++) { ack(await call(i)); await new Promise((resolve) => setImmediate(resolve)); }`,
].join('\n');

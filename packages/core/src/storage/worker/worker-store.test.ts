import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { describeHostStoreContract } from '@airlock/core/testing';
import { describe, expect, it } from 'vitest';
import { SCOPE, createWrite, invocation } from '../../testing/host-store-fixtures.js';
import { MemoryStore } from '../memory/memory-store.js';
import type { StoreWrite } from '../../store/host-store.js';
import { BACKGROUND_NICENESS, serveStore, WorkerStore } from './worker-store.js';

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../../../dist');
/** The built subpath entries, as the package ships them: @airlock/core/sqlite and @airlock/core/worker. */
const BUILT_SQLITE = join(DIST, 'storage/sqlite/index.js');
const BUILT_WORKER = join(DIST, 'storage/worker/index.js');
const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

/**
 * A worker module, written at test time, that serves a SqliteStore of the built core over a file. When workerData
 * holds a `tid` buffer, it also puts its thread id there, read from /proc as the scheduler knows it.
 */
async function workerModule(dir: string, options = ''): Promise<URL> {
  for (const built of [BUILT_SQLITE, BUILT_WORKER]) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run "npm run build" first`);
  }
  const file = join(dir, 'store-worker.mjs');
  await writeFile(
    file,
    [
      `import { readlinkSync } from 'node:fs';`,
      `import { parentPort, workerData } from 'node:worker_threads';`,
      `import { createRequire } from 'node:module';`,
      `import { SqliteStore } from ${JSON.stringify(pathToFileURL(BUILT_SQLITE).href)};`,
      `import { serveStore } from ${JSON.stringify(pathToFileURL(BUILT_WORKER).href)};`,
      `const Database = createRequire(import.meta.url)(${JSON.stringify(DRIVER)});`,
      `serveStore(new SqliteStore({ database: new Database(workerData.path) }), parentPort${options});`,
      `if (workerData.tid) new Int32Array(workerData.tid)[0] = Number(readlinkSync('/proc/thread-self').split('/').pop());`,
    ].join('\n'),
  );
  return pathToFileURL(file);
}

/** A thread's niceness, read from outside it: field 19 of /proc/self/task/<tid>/stat. */
function nicenessOf(tid: number): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

describeHostStoreContract({
  name: 'WorkerStore over SqliteStore',
  open: async () => {
    const dir = await mkdtemp(join(tmpdir(), 'airlock-worker-store-'));
    const module = await workerModule(dir);
    const workerData = { path: join(dir, 'history.db') };
    let current = new WorkerStore({ module, workerData });
    return {
      store: current,
      reopen: async () => {
        await current.close();
        current = new WorkerStore({ module, workerData });
        return current;
      },
      cleanup: async () => {
        await current.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
});

describe('WorkerStore', () => {
  it('fails every call clearly once its worker has died', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'airlock-worker-store-'));
    const file = join(dir, 'dies.mjs');
    await writeFile(
      file,
      `import { parentPort } from 'node:worker_threads'; parentPort.once('message', () => { throw new Error('boom'); });`,
    );
    const store = new WorkerStore({ module: pathToFileURL(file) });
    const record = invocation();
    await expect(store.write([createWrite(record)])).rejects.toMatchObject({
      code: 'store_error',
      message: expect.stringMatching(/the store worker stopped: boom/),
    });
    await expect(store.getInvocation(SCOPE, record.id)).rejects.toMatchObject({ code: 'store_error' });
    await rm(dir, { recursive: true, force: true });
  });

  it("says why its worker could not open the store, though the driver's error lost its message on the way", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'airlock-worker-store-'));
    // The directory itself as the database file: better-sqlite3 throws its SqliteError in the worker.
    const store = new WorkerStore({ module: await workerModule(dir), workerData: { path: dir } });
    await expect(store.listDecisions({})).rejects.toMatchObject({
      code: 'store_error',
      message: 'the store worker stopped: SQLITE_CANTOPEN',
    });
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses calls clearly when its worker stopped while idle, instead of waiting forever', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'airlock-worker-store-'));
    const file = join(dir, 'exits.mjs');
    await writeFile(file, `process.exit(3);`);
    const store = new WorkerStore({ module: pathToFileURL(file) });
    await store.stopped;
    await expect(store.getInvocation(SCOPE, 'x')).rejects.toMatchObject({
      code: 'store_error',
      message: 'the store worker stopped: exited with code 3',
    });
    await rm(dir, { recursive: true, force: true });
  });

  it.runIf(process.platform === 'linux')(
    'serves from a thread at background priority, leaving the calling thread as it was, unless told not to',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'airlock-worker-store-'));
      for (const [options, expected] of [
        ['', BACKGROUND_NICENESS],
        [', { background: false }', nicenessOf(process.pid)],
      ] as const) {
        const tid = new SharedArrayBuffer(4);
        const store = new WorkerStore({
          module: await workerModule(dir, options),
          workerData: { path: join(dir, 'h.db'), tid },
        });
        // The worker puts its thread id right after it starts serving; a served call means it has.
        await store.listDecisions({});
        const id = new Int32Array(tid)[0]!;
        expect(id).toBeGreaterThan(0);
        expect(nicenessOf(id)).toBe(expected);
        expect(nicenessOf(process.pid)).not.toBe(BACKGROUND_NICENESS);
        await store.close();
      }
      await rm(dir, { recursive: true, force: true });
    },
  );

  it('fails one call whose values cannot cross to the worker, and goes on', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'airlock-worker-store-'));
    const store = new WorkerStore({ module: await workerModule(dir), workerData: { path: join(dir, 'h.db') } });
    const record = invocation();
    const bad = { ...record, args: { f: () => 1 } } as unknown as typeof record;
    await expect(store.write([createWrite(bad)])).rejects.toMatchObject({ code: 'store_error' });
    await store.write([createWrite(record)]);
    expect((await store.getInvocation(SCOPE, record.id))?.id).toBe(record.id);
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves writes one after another in the order sent, and a read after the writes sent before it', async () => {
    // The history writer sends a batch without waiting for the one before to be answered; a served store whose write
    // awaits (here: until the test opens the gate) must still apply them in order, and not be read in between.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const started: string[] = [];
    class SlowStore extends MemoryStore {
      override async write(batch: readonly StoreWrite[]): Promise<void> {
        const id = batch[0]?.kind === 'create' ? batch[0].record.id : '?';
        started.push(id);
        if (started.length === 1) await gate;
        return super.write(batch);
      }
    }
    const { port1, port2 } = new MessageChannel();
    serveStore(new SlowStore(), port1, { background: false });
    const replies = new Map<number, { ok: boolean; value?: unknown }>();
    let replied!: () => void;
    const allReplied = new Promise<void>((resolve) => (replied = resolve));
    port2.on('message', (reply: { id: number; ok: boolean; value?: unknown }) => {
      if (reply.id === 4) return;
      replies.set(reply.id, reply);
      if (replies.size === 3) replied();
    });
    const [a, b] = [invocation(), invocation()];
    port2.postMessage({ id: 1, method: 'write', args: [[createWrite(a)]] });
    port2.postMessage({ id: 2, method: 'write', args: [[createWrite(b)]] });
    port2.postMessage({ id: 3, method: 'getInvocation', args: [SCOPE, b.id] });
    // A call the server answers at once (an unknown method): once it is answered, the three before it have arrived.
    await new Promise<void>((resolve) => {
      port2.on('message', (reply: { id: number }) => reply.id === 4 && resolve());
      port2.postMessage({ id: 4, method: 'nope' });
    });
    expect(started).toEqual([a.id]);

    open();
    await allReplied;
    expect(started).toEqual([a.id, b.id]);
    expect(replies.get(3)).toMatchObject({ ok: true, value: { id: b.id, state: 'pending' } });
    port2.close();
  });
});

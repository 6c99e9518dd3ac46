import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeHostStoreContract } from './testing/host-store-contract.js';
import { invocation, opening, SCOPE } from './testing/host-store-fixtures.js';
import { WorkerStore } from './worker-store.js';

const BUILT = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/index.js');
const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

/** A worker module, written at test time, that serves a SqliteStore of the built core over a file. */
async function workerModule(dir: string): Promise<URL> {
  if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: run "npm run build" first`);
  const file = join(dir, 'store-worker.mjs');
  await writeFile(
    file,
    [
      `import { parentPort, workerData } from 'node:worker_threads';`,
      `import { createRequire } from 'node:module';`,
      `import { SqliteStore, serveStore } from ${JSON.stringify(pathToFileURL(BUILT).href)};`,
      `const Database = createRequire(import.meta.url)(${JSON.stringify(DRIVER)});`,
      `serveStore(new SqliteStore({ database: new Database(workerData.path) }), parentPort);`,
    ].join('\n'),
  );
  return pathToFileURL(file);
}

describeHostStoreContract('WorkerStore over SqliteStore', async () => {
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
    await expect(store.createInvocation(record, opening(record))).rejects.toMatchObject({
      code: 'store_error',
      message: expect.stringMatching(/the store worker stopped: boom/),
    });
    await expect(store.getInvocation(SCOPE, record.id)).rejects.toMatchObject({ code: 'store_error' });
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

  it('fails one call whose values cannot cross to the worker, and goes on', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'airlock-worker-store-'));
    const store = new WorkerStore({ module: await workerModule(dir), workerData: { path: join(dir, 'h.db') } });
    const record = invocation();
    const bad = { ...record, args: { f: () => 1 } } as unknown as typeof record;
    await expect(store.createInvocation(bad, opening(bad))).rejects.toMatchObject({ code: 'store_error' });
    await store.createInvocation(record, opening(record));
    expect((await store.getInvocation(SCOPE, record.id))?.id).toBe(record.id);
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
});

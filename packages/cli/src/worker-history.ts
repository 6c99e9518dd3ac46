import { WorkerStore } from '@airlock/core/worker';

/**
 * Opens a SQLite history on a worker thread at background priority (`store-worker.ts`), so history writes, audit
 * hashing and SQLite I/O leave the thread that relays calls: a long-running command (the gateway) pays for them
 * beside its calls, not inside them. Resolves once the file is open; one that cannot be opened fails here, named.
 */
export async function openWorkerHistory(path: string): Promise<WorkerStore> {
  const store = new WorkerStore({ module: new URL('./store-worker.js', import.meta.url), workerData: { path } });
  try {
    await store.listDecisions({ userId: '', workspaceId: '' });
  } catch (error) {
    await store.close().catch(() => undefined);
    const why = (error as Error).message.replace(/^the store worker stopped: /, '');
    throw new Error(`cannot open the history file ${path}: ${why}`);
  }
  return store;
}

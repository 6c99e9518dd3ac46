import { HostError } from '../../errors/host-error.js';
import { WorkerStore } from './worker-store.js';

/**
 * A SQLite history file on a worker thread at background priority, with no worker module of the caller's own: history
 * writes, audit hashing and SQLite I/O leave the thread that runs calls. Resolves once the file is open; a file that
 * cannot be opened rejects with `HostError('store_error')` naming it and why (the worker's first read tells).
 */
export async function openSqliteWorkerStore(options: { path: string }): Promise<WorkerStore> {
  const { path } = options;
  const store = new WorkerStore({ module: new URL('./sqlite-worker.js', import.meta.url), workerData: { path } });
  try {
    await store.listDecisions({ userId: '', workspaceId: '' });
  } catch (error) {
    await store.close().catch(() => undefined);
    const why = (error as Error).message.replace(/^the store worker stopped: /, '');
    throw new HostError('store_error', `cannot open the history file ${path}: ${why}`, {
      cause: error,
      data: { path, reason: why },
    });
  }
  return store;
}

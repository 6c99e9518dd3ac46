// The gateway's history on a worker thread: a SqliteStore over the file the gateway names, served to its WorkerStore
// at background priority (see openWorkerHistory in worker-history.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteStore } from '@airlock/core/sqlite';
import { serveStore } from '@airlock/core/worker';

if (parentPort === null) throw new Error('store-worker.js runs as a worker thread of airlock');
const { path } = workerData as { path: string };
let store: SqliteStore;
try {
  store = new SqliteStore({ path });
} catch (error) {
  // The error's class (HostError, the driver's) loses its message crossing threads; this one keeps it.
  const { message, code } = error as Error & { code?: string };
  throw new Error(code === undefined ? message : `${message} (${code})`);
}
serveStore(store, parentPort);

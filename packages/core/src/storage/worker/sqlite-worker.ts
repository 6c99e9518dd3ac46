// The worker thread of `openSqliteWorkerStore`: a SqliteStore over the file named in workerData, served to the
// WorkerStore that started it. Loaded by URL as a worker's module, never imported.
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteStore } from '../sqlite/sqlite-store.js';
import { serveStore } from './worker-store.js';

if (parentPort === null) throw new Error('sqlite-worker.js runs as a worker thread of a WorkerStore');
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

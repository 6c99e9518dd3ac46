// @airlock/core/worker: any store on a worker thread (node:worker_threads), so history writes, audit hashing and
// SQLite I/O leave the thread that runs tool calls. Node-only, hence a subpath of its own.
export { BACKGROUND_NICENESS, serveStore, WorkerStore } from './worker-store.js';
export type { ServeStoreOptions } from './worker-store.js';
export { openSqliteWorkerStore } from './open-sqlite-worker-store.js';

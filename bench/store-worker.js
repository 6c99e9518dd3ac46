// The worker side of the bench's worker-backed store: a SqliteStore over the file the bench names. It writes its own
// thread id into workerData.tid (a shared Int32Array) when given one, so a bench can tell its CPU from the others'.
import { readlinkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { SqliteStore } from '@airlock/core/sqlite';
import { serveStore } from '@airlock/core/worker';

if (workerData.tid instanceof Int32Array && process.platform === 'linux') {
  Atomics.store(workerData.tid, 0, Number(readlinkSync('/proc/thread-self').split('/').pop()));
}
serveStore(new SqliteStore({ database: new Database(workerData.path) }), parentPort);

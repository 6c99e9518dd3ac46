// A diagnostic store for the bench's target-4 line, not a store to run a host on: a worker whose store drops what a
// call records (its history rows and audit events) and keeps the rest (the permission decision the bench grants), so
// the same host, worker hand-off included, can be timed without the recording that holds throughput on few cores.
import { readlinkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { MemoryStore } from '@airlock/core';
import { serveStore } from '@airlock/core/worker';

if (workerData.tid instanceof Int32Array && process.platform === 'linux') {
  Atomics.store(workerData.tid, 0, Number(readlinkSync('/proc/thread-self').split('/').pop()));
}
const RECORDING = new Set(['create', 'transition', 'audit']);
const store = new MemoryStore();
const write = store.write.bind(store);
store.write = (batch) => write(batch.filter((w) => !RECORDING.has(w.kind)));
serveStore(store, parentPort);

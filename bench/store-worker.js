// The worker side of the bench's worker-backed store: a SqliteStore over the file the bench names.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { SqliteStore } from '@airlock/core/sqlite';
import { serveStore } from '@airlock/core/worker';

serveStore(new SqliteStore({ database: new Database(workerData.path) }), parentPort);

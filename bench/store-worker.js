// The worker side of the bench's worker-backed store: a SqliteStore over the file the bench names.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { serveStore, SqliteStore } from '@airlock/core';

serveStore(new SqliteStore({ database: new Database(workerData.path) }), parentPort);

// Opening a new SQLite file while another connection writes to it: the switch to WAL reads the file, then needs its
// write lock, and SQLite refuses that upgrade at once (no busy handler) while another connection holds the lock. Two
// processes starting on one new file together met this in 18 opens of 200. The holder here is a thread with its own
// connection, holding the write lock until it lets go.
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../../testing/scratch-dir.js';
import { SqliteStore } from './sqlite-store.js';

const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

/** A thread that opens `path` in rollback mode, takes its write lock, says so, and lets go after `holdMs`. */
function holdFile(path: string, holdMs: number): Worker {
  return new Worker(
    `
    const { parentPort, workerData } = require('node:worker_threads');
    const db = new (require(workerData.driver))(workerData.path);
    db.exec('CREATE TABLE IF NOT EXISTS held (n INTEGER)');
    db.exec('BEGIN IMMEDIATE');
    db.prepare('INSERT INTO held VALUES (1)').run();
    parentPort.postMessage('held');
    setTimeout(() => { db.exec('COMMIT'); db.close(); parentPort.postMessage('released'); }, workerData.holdMs);
    `,
    { eval: true, workerData: { driver: DRIVER, path, holdMs } },
  );
}

describe('opening a SQLite file another connection holds', () => {
  it('waits for the holder to let go and opens the file in WAL', async () => {
    const path = join(scratchDir('airlock-wal-mode-'), 'new.db');
    const holder = holdFile(path, 50);
    await once(holder, 'message');
    const store = new SqliteStore({ path, busyTimeoutMs: 10_000 });
    await store.close();
    const reader = new Database(path);
    expect(reader.pragma('journal_mode', { simple: true })).toBe('wal');
    reader.close();
    await holder.terminate();
  });

  it('refuses with "database is locked" once the busy timeout has passed', async () => {
    const path = join(scratchDir('airlock-wal-mode-'), 'new.db');
    const holder = holdFile(path, 600_000);
    await once(holder, 'message');
    expect(() => new SqliteStore({ path, busyTimeoutMs: 30 })).toThrow(
      expect.objectContaining({ code: 'store_error', message: 'could not open the SQLite store: database is locked' }),
    );
    await holder.terminate();
  });
});

// The SQLite store's WAL checkpoints during a burst, on a real file: the pages are copied into the database file by the
// checkpointer's own thread (the writer does nothing more after the burst), and closing ends the thread and leaves
// no WAL file behind.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SCOPE, createWrite, invocation, move, resultFor, transitionWrite } from '../../testing/host-store-fixtures.js';
import { scratchDir } from '../../testing/scratch-dir.js';
import { SqliteStore } from './sqlite-store.js';

/** One call's writes with a result of `chars` characters, as one batch. */
function call(chars: number) {
  const record = invocation();
  return [
    createWrite(record),
    transitionWrite(move(record, 2, 'pending', 'running')),
    transitionWrite(move(record, 3, 'running', 'success', 'success'), {
      scope: SCOPE,
      result: resultFor(record.id, 'x'.repeat(chars)),
    }),
  ];
}

describe('the SQLite store checkpointing a burst', () => {
  it('copies the pages into the database file on its own thread, with nothing more from the writer', async () => {
    const path = join(scratchDir('airlock-checkpoint-'), 'history.db');
    const store = new SqliteStore({ path, checkpointEveryWrites: 5, idleCheckpointMs: 3_600_000 });
    const before = statSync(path).size;
    // Five batches: the fifth asks the thread; 5 × 200 KB of results wait in the WAL until a checkpoint copies them.
    for (let i = 0; i < 5; i++) await store.write(call(200_000));
    await vi.waitFor(() => expect(statSync(path).size).toBeGreaterThan(before + 1_000_000), { timeout: 10_000 });
    expect((await store.listInvocations(SCOPE)).length).toBe(5);
    await store.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('checkpoints on the writer when told to keep to one thread', async () => {
    const path = join(scratchDir('airlock-checkpoint-'), 'history.db');
    const store = new SqliteStore({
      path,
      checkpointEveryWrites: 5,
      idleCheckpointMs: 3_600_000,
      checkpointOnThread: false,
    });
    const before = statSync(path).size;
    for (let i = 0; i < 5; i++) await store.write(call(200_000));
    // Done inline by the fifth write, before it resolved.
    expect(statSync(path).size).toBeGreaterThan(before + 1_000_000);
    await store.close();
  });
});

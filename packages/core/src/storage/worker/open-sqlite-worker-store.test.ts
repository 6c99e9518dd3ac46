import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// The built entry: a worker thread loads the compiled sqlite-worker.js beside it (the TypeScript source has none).
import { openSqliteWorkerStore } from '@airlock/core/worker';

const dir = mkdtempSync(join(tmpdir(), 'airlock-sqlite-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('openSqliteWorkerStore', () => {
  it('serves a SQLite file from a worker thread with no module of the caller', async () => {
    const store = await openSqliteWorkerStore({ path: join(dir, 'history.db') });
    try {
      expect(await store.listDecisions({ userId: 'ana', workspaceId: 'w' })).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('rejects a file it cannot open with store_error naming the path', async () => {
    const path = join(dir, 'no-such-folder', 'history.db');
    await expect(openSqliteWorkerStore({ path })).rejects.toMatchObject({
      code: 'store_error',
      message: expect.stringContaining(`cannot open the history file ${path}: `),
      data: { path },
    });
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeHostStoreContract } from '@airlock/core/testing';
import { describe, expect, it } from 'vitest';
import { HostError } from '../../errors/host-error.js';
import { NodeSqliteStore } from './node-sqlite-store.js';
import { SqliteStore } from './sqlite-store.js';
import { SCOPE, createWrite, invocation } from '../../testing/host-store-fixtures.js';

// The store on node:sqlite. On Node 20 (no node:sqlite) this file's cases skip; node-sqlite-on-node22.test.ts runs
// it again under a Node 22 binary, so `npm test` covers node:sqlite on any machine that can fetch one.

function hasNodeSqlite(): boolean {
  try {
    createRequire(import.meta.url)('node:sqlite');
    return true;
  } catch {
    return false;
  }
}

const NODE_SQLITE = hasNodeSqlite();

if (NODE_SQLITE) {
  describeHostStoreContract({
    name: 'NodeSqliteStore',
    open: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'airlock-node-sqlite-'));
      const file = join(dir, 'history.db');
      let current = new NodeSqliteStore({ path: file });
      return {
        store: current,
        reopen: async () => {
          await current.close();
          current = new NodeSqliteStore({ path: file });
          return current;
        },
        cleanup: async () => {
          await current.close();
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
  });
}

describe('NodeSqliteStore', () => {
  it.skipIf(!NODE_SQLITE)('shares its file with SqliteStore opened by path', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'airlock-node-sqlite-'));
    try {
      const file = join(dir, 'history.db');
      const written = new NodeSqliteStore({ path: file });
      await written.write([createWrite(invocation({ id: 'inv-1' }))]);
      await written.close();
      const read = new SqliteStore({ path: file });
      expect((await read.getInvocation(SCOPE, 'inv-1'))?.id).toBe('inv-1');
      await read.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(NODE_SQLITE)('says which Node it needs on a Node without node:sqlite', () => {
    const opening = (): NodeSqliteStore => new NodeSqliteStore({ path: join(tmpdir(), 'never.db') });
    expect(opening).toThrow(HostError);
    expect(opening).toThrow(/needs node:sqlite \(Node >= 22\.13\)/);
  });
});

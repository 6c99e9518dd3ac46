import { describe, expect, it } from 'vitest';
import type { InvocationRecord } from '../store/invocation-record.js';
import type { InvocationTask } from '../store/invocation-task.js';
import type { HostStore, StoreWrite } from '../store/host-store.js';
import type { HostStoreContractOptions, OpenedStore } from './store-contract-options.js';
import {
  createWrite,
  expectRejection,
  invocation,
  move,
  resultFor,
  SCOPE,
  transitionWrite,
} from './host-store-fixtures.js';
import { openStorePerTest } from './open-store-per-test.js';

/** The handle of `record`'s task, as the call path stores it when the server answers with the task. */
function handle(record: InvocationRecord, overrides: Partial<InvocationTask> = {}): InvocationTask {
  return {
    invocationId: record.id,
    scope: record.scope,
    serverId: 'files',
    serverIdentity: 'identity-of-files',
    tool: record.tool,
    taskId: `task-of-${record.id}`,
    era: '2025-11-25',
    pollIntervalMs: 500,
    ttlMs: 300_000,
    status: 'working',
    statusMessage: 'Gathering sources',
    createdAt: record.createdAt + 1,
    updatedAt: record.createdAt + 1,
    ...overrides,
  };
}

function put(task: InvocationTask): StoreWrite {
  return { kind: 'task.put', task };
}

/** A call created and moved to running then working, in one batch, with its task's handle. */
async function taskCall(store: HostStore, overrides: Partial<InvocationRecord> = {}): Promise<InvocationRecord> {
  const record = invocation(overrides);
  await store.write([
    createWrite(record),
    transitionWrite(move(record, 2, 'pending', 'running'), { scope: record.scope }),
    transitionWrite(move(record, 3, 'running', 'working'), { scope: record.scope }),
    put(handle(record)),
  ]);
  return record;
}

/**
 * The task part of the `HostStore` contract: a call's task handle is stored with it (in the batch that creates the
 * call too), replaced as the task moves, read only in the call's tenant, listed while open (every tenant's, or one
 * user's or workspace's), and refused with a clear error for a call that is not stored or a handle that cannot be
 * kept. Declared by `describeHostStoreContract`.
 */
export function describeTaskContract(options: HostStoreContractOptions): void {
  const { name, open } = options;
  describe(`${name} (HostStore contract: task handles)`, () => {
    let opened: OpenedStore;
    let store: HostStore;
    openStorePerTest({
      open,
      use: (next) => {
        opened = next;
        store = next.store;
      },
    });

    it('stores a task handle with the call that creates it and reads it back in the tenant only', async () => {
      const record = await taskCall(store);
      expect(await store.getTask(SCOPE, record.id)).toEqual(handle(record));
      expect(await store.getTask({ ...SCOPE, userId: 'user-b' }, record.id)).toBeUndefined();
      expect(await store.getInvocation(SCOPE, record.id)).toMatchObject({ state: 'working' });
    });

    it('replaces the handle as the task moves, keeping when it began', async () => {
      const record = await taskCall(store);
      const moved = handle(record, { status: 'input_required', statusMessage: null, updatedAt: record.createdAt + 9 });
      await store.write([transitionWrite(move(record, 4, 'working', 'input_required')), put(moved)]);
      expect(await store.getTask(SCOPE, record.id)).toEqual({ ...moved, createdAt: record.createdAt + 1 });
    });

    it('lists open tasks oldest first, of every tenant or of one, and no longer once the call ended', async () => {
      const first = await taskCall(store, { createdAt: 1_000 });
      const other = await taskCall(store, { createdAt: 2_000, scope: { ...SCOPE, userId: 'user-b' } });
      const ended = await taskCall(store, { createdAt: 3_000 });
      await store.write([
        transitionWrite(move(ended, 4, 'working', 'success', 'success'), { result: resultFor(ended.id) }),
        put(handle(ended, { status: 'completed' })),
      ]);
      const ids = (tasks: readonly InvocationTask[]) => tasks.map((t) => t.invocationId);
      expect(ids(await store.listOpenTasks({}))).toEqual([first.id, other.id]);
      expect(ids(await store.listOpenTasks({ userId: 'user-b' }))).toEqual([other.id]);
      expect(ids(await store.listOpenTasks({ userId: 'user-a', workspaceId: SCOPE.workspaceId }))).toEqual([first.id]);
      expect(ids(await store.listOpenTasks({ workspaceId: 'workspace-z' }))).toEqual([]);
    });

    it('refuses a handle for a call not stored in its scope, and leaves the batch unwritten', async () => {
      const record = invocation();
      await expectRejection(store.write([put(handle(record))]), 'not_found');
      const stored = await taskCall(store);
      const elsewhere = handle(stored, { scope: { ...SCOPE, userId: 'user-b' } });
      const later = invocation();
      await expectRejection(store.write([createWrite(later), put(elsewhere)]), 'not_found');
      expect(await store.getInvocation(SCOPE, later.id)).toBeUndefined();
    });

    it('refuses a handle it could not keep faithfully, naming the field', async () => {
      const record = await taskCall(store);
      const bad = { ...handle(record), status: 'paused' } as unknown as InvocationTask;
      const error = await expectRejection(store.write([put(bad)]), 'invalid_arguments');
      expect(error.message).toContain('unknown status paused');
      const noId = { ...handle(record), taskId: '' };
      expect((await expectRejection(store.write([put(noId)]), 'invalid_arguments')).message).toContain('taskId');
      expect(await store.getTask(SCOPE, record.id)).toEqual(handle(record));
    });

    it("keeps the task's time to live as the server gave it, or none, and refuses one that is not a duration", async () => {
      const record = await taskCall(store);
      expect(await store.getTask(SCOPE, record.id)).toMatchObject({ ttlMs: 300_000 });
      const unlimited = handle(record, { ttlMs: null, updatedAt: record.createdAt + 5 });
      await store.write([put(unlimited)]);
      expect(await store.getTask(SCOPE, record.id)).toMatchObject({ ttlMs: null });
      const negative = handle(record, { ttlMs: -1 });
      const error = await expectRejection(store.write([put(negative)]), 'invalid_arguments');
      expect(error.message).toContain('ttlMs must be a number of milliseconds or null');
      expect(await store.listOpenTasks({})).toEqual([unlimited]);
    });

    it('keeps open task handles across a reopen', async (context) => {
      if (opened.reopen === undefined) return context.skip('this store does not persist');
      const record = await taskCall(store);
      store = await opened.reopen();
      expect(await store.listOpenTasks({})).toEqual([handle(record)]);
    });
  });
}

import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../storage/memory/memory-store.js';
import type { StoreWrite } from '../store/host-store.js';
import {
  auditInput,
  auditWrites,
  createWrite,
  decision,
  decisionAudit,
  invocation,
  move,
  putWrite,
  resultFor,
  SCOPE,
  TENANT,
  transitionWrite,
} from '../testing/host-store-fixtures.js';
import { HISTORY_LOSS_BOUND, HistoryWriter } from './history-writer.js';

/** A memory store that keeps the labels of each batch it was handed, and can be told to fail. */
class WatchedStore extends MemoryStore {
  readonly batches: unknown[][] = [];
  failing = false;
  override write(batch: readonly StoreWrite[]): Promise<void> {
    this.batches.push(
      batch.map((w) => (w.kind === 'audit' || w.kind === 'decision.put' ? w.audit.data['label'] : w.kind)),
    );
    if (this.failing) return Promise.reject(new Error('disk full'));
    return super.write(batch);
  }
}

/** A memory store that answers each write only when the test says: a store on another thread, falling behind. */
class HeldStore extends MemoryStore {
  readonly held: { batch: readonly StoreWrite[]; answer: () => void; fail: (error: Error) => void }[] = [];
  override write(batch: readonly StoreWrite[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.held.push({ batch, answer: () => resolve(super.write(batch)), fail: reject });
    });
  }
}

const [first, second, third] = auditWrites([auditInput('first'), auditInput('second'), auditInput('third')]);

/** Queues the three writes of one call that runs and succeeds, as the call path does; returns the call's id. */
function call(writes: HistoryWriter): string {
  const record = invocation();
  writes.write(createWrite(record));
  writes.write(transitionWrite(move(record, 2, 'pending', 'running')));
  writes.write(
    transitionWrite(move(record, 3, 'running', 'success', 'success'), { result: resultFor(record.id, 'done') }),
  );
  return record.id;
}

/** One turn of the event loop: what a caller that never yields never lets happen. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether `promise` has settled (after the microtasks queued so far). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await turn();
  return done;
}

describe('HistoryWriter', () => {
  it('stores the writes queued in one turn as one batch, in order, and a drain waits for them', async () => {
    const store = new WatchedStore();
    const writes = new HistoryWriter({ store, commitIntervalMs: 0 });
    writes.write(first!);
    writes.write(second!);
    writes.write(third!);
    expect(store.batches).toEqual([]);

    await writes.drain();

    expect(store.batches).toEqual([['first', 'second', 'third']]);
    expect((await store.queryAudit({})).map((e) => e.data['label'])).toEqual(['first', 'second', 'third']);
  });

  it('commits a write after everything queued before it, and resolves once it is stored', async () => {
    const store = new WatchedStore();
    const writes = new HistoryWriter({ store, commitIntervalMs: 600_000 });
    writes.write(first!);
    const d = decision();

    await writes.commit(putWrite(d, decisionAudit(d, 'decided')));

    expect(store.batches).toEqual([['first'], ['decided']]);
    expect(await store.listDecisions(TENANT)).toEqual([d]);
    expect((await store.queryAudit({})).map((e) => e.data['label'])).toEqual(['first', 'decided']);
  });

  it('rejects a refused commit for its caller and goes on taking writes', async () => {
    const store = new WatchedStore();
    const errors: unknown[] = [];
    const writes = new HistoryWriter({ store, onError: (error) => errors.push(error), commitIntervalMs: 0 });
    const bad = decision({ effect: 'maybe' as 'allow' });

    await expect(writes.commit(putWrite(bad, decisionAudit(bad, 'bad')))).rejects.toMatchObject({
      code: 'invalid_arguments',
    });
    writes.write(second!);
    await writes.drain();

    expect(() => writes.assertHealthy()).not.toThrow();
    expect(errors).toEqual([]);
    expect((await store.queryAudit({})).map((e) => e.data['label'])).toEqual(['second']);
  });

  it('stops at a failed batch: it tells onError once, and every later write, commit and drain fails', async () => {
    const store = new WatchedStore();
    const errors: unknown[] = [];
    const writes = new HistoryWriter({ store, onError: (error) => errors.push(error), commitIntervalMs: 0 });
    store.failing = true;
    writes.write(first!);

    await expect(writes.drain()).rejects.toMatchObject({ code: 'store_error', message: /disk full/ });
    expect(errors).toHaveLength(1);
    expect(() => writes.write(second!)).toThrow(expect.objectContaining({ code: 'store_error' }));
    await expect(writes.commit(third!)).rejects.toMatchObject({ code: 'store_error' });
    expect(store.batches).toEqual([['first']]);
  });

  it('refuses a commit interval that is not a number of milliseconds', () => {
    expect(() => new HistoryWriter({ store: new MemoryStore(), commitIntervalMs: -1 })).toThrow(/commitIntervalMs/);
  });

  it('refuses a durability it does not know', () => {
    expect(() => new HistoryWriter({ store: new MemoryStore(), durability: 'fast' as 'strict' })).toThrow(
      expect.objectContaining({ code: 'config_invalid', message: expect.stringMatching(/durability/) }),
    );
  });
});

describe('HistoryWriter, for a caller that never yields to the event loop', () => {
  it('commits from the write that ends the 32nd call, with no timer and no turn of the event loop', async () => {
    const store = new WatchedStore();
    const writes = new HistoryWriter({ store });
    for (let i = 0; i < 32; i++) {
      call(writes);
      // What `for (;;) await host.invoke(...)` over a native tool gives the event loop: microtasks only.
      await Promise.resolve();
    }

    expect(store.batches).toHaveLength(1);
    expect(store.batches[0]).toHaveLength(96);
    expect(await store.listInvocations(SCOPE, { limit: 100 })).toHaveLength(32);
  });

  it('commits a batch whose first call ended twice the commit interval ago with the next call that ends', () => {
    const store = new WatchedStore();
    let now = 0;
    const writes = new HistoryWriter({ store, commitIntervalMs: 5, now: () => now });
    call(writes);
    now = 9.9;
    call(writes);
    expect(store.batches).toEqual([]);

    now = 10;
    call(writes);

    expect(store.batches).toHaveLength(1);
    expect(store.batches[0]).toHaveLength(9);
  });

  it(`holds a caller back once more than ${HISTORY_LOSS_BOUND.calls} calls are not known committed, until the store answers`, async () => {
    const store = new HeldStore();
    const writes = new HistoryWriter({ store, now: () => 0 });
    for (let i = 0; i < HISTORY_LOSS_BOUND.calls; i++) {
      call(writes);
      expect(await writes.acknowledge(Promise.resolve(i))).toBe(i);
    }
    // Four batches of 32 calls are with the store, none answered: the bound, not past it.
    expect(store.held.map((h) => h.batch.length)).toEqual([96, 96, 96, 96]);

    call(writes);
    const held = writes.acknowledge(Promise.resolve('the 129th'));
    expect(await settled(held)).toBe(false);

    store.held[0]!.answer();
    await expect(held).resolves.toBe('the 129th');
  });

  it(`holds a caller back while a call that ended over ${HISTORY_LOSS_BOUND.ms} ms before it is not known committed`, async () => {
    const store = new HeldStore();
    let now = 0;
    const writes = new HistoryWriter({ store, commitIntervalMs: 5, now: () => now });
    call(writes);
    now = 10;
    call(writes);
    expect(store.held).toHaveLength(1);
    now = HISTORY_LOSS_BOUND.ms;
    call(writes);
    expect(await writes.acknowledge(Promise.resolve('within'))).toBe('within');

    now = HISTORY_LOSS_BOUND.ms + 0.5;
    call(writes);
    const held = writes.acknowledge(Promise.resolve('past'));
    expect(await settled(held)).toBe(false);

    store.held[0]!.answer();
    await expect(held).resolves.toBe('past');
  });

  it('lets the calls held back while a batch is with the store share the next commit, not one each', async () => {
    const store = new HeldStore();
    let now = 0;
    const writes = new HistoryWriter({ store, commitIntervalMs: 5, now: () => now });
    call(writes);
    now = 10;
    call(writes);
    // A call that ended 25 ms before is not known committed: the next callers are held back.
    now = 25;
    call(writes);
    const c = writes.acknowledge(Promise.resolve('c'));
    expect(await settled(c)).toBe(false);
    now = 26;
    call(writes);
    const d = writes.acknowledge(Promise.resolve('d'));
    now = 27;
    call(writes);
    const e = writes.acknowledge(Promise.resolve('e'));
    expect(await settled(e)).toBe(false);
    expect(store.held.map((h) => h.batch.length)).toEqual([6, 3]);

    store.held[0]!.answer();
    await expect(Promise.all([c, d, e])).resolves.toEqual(['c', 'd', 'e']);
    store.held[1]!.answer();
    const drained = writes.drain();
    await settled(drained);
    store.held[2]!.answer();
    await drained;
    expect(store.held.map((h) => h.batch.length)).toEqual([6, 3, 6]);
  });
});

describe('HistoryWriter under durability strict', () => {
  it('hands a result back only once the batch holding its call is committed', async () => {
    const store = new HeldStore();
    const writes = new HistoryWriter({ store, durability: 'strict', commitIntervalMs: 600_000 });
    const id = call(writes);
    const result = writes.acknowledge(Promise.resolve('result'));

    expect(await settled(result)).toBe(false);
    expect(store.held).toHaveLength(1);
    expect(await store.getInvocation(SCOPE, id)).toBeUndefined();

    store.held[0]!.answer();
    await expect(result).resolves.toBe('result');
    expect(await store.getInvocation(SCOPE, id)).toMatchObject({ state: 'success' });
  });

  it('lets the calls that end while a batch is with the store share the next commit', async () => {
    const store = new HeldStore();
    const writes = new HistoryWriter({ store, durability: 'strict', commitIntervalMs: 600_000 });
    call(writes);
    const first = writes.acknowledge(Promise.resolve('first'));
    expect(await settled(first)).toBe(false);
    const ids = [call(writes), call(writes)];
    const later = [writes.acknowledge(Promise.resolve('second')), writes.acknowledge(Promise.resolve('third'))];
    expect(await settled(later[1]!)).toBe(false);
    expect(store.held.map((h) => h.batch.length)).toEqual([3]);

    store.held[0]!.answer();
    await expect(first).resolves.toBe('first');
    expect(await settled(later[0]!)).toBe(false);
    expect(store.held.map((h) => h.batch.length)).toEqual([3, 6]);

    store.held[1]!.answer();
    await expect(Promise.all(later)).resolves.toEqual(['second', 'third']);
    for (const id of ids) expect(await store.getInvocation(SCOPE, id)).toMatchObject({ state: 'success' });
  });

  it('rejects the result with store_error when the commit it waited for fails', async () => {
    const store = new HeldStore();
    const writes = new HistoryWriter({ store, durability: 'strict' });
    call(writes);
    const result = writes.acknowledge(Promise.resolve('result'));
    await turn();

    store.held[0]!.fail(new Error('disk full'));

    await expect(result).rejects.toMatchObject({ code: 'store_error', message: expect.stringMatching(/disk full/) });
  });
});

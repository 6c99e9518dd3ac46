import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../storage/memory/memory-store.js';
import type { StoreWrite } from '../storage/host-store.js';
import { auditInput, auditWrites, decision, decisionAudit, putWrite, TENANT } from '../testing/host-store-fixtures.js';
import { HistoryWriter } from './history-writer.js';

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

const [first, second, third] = auditWrites([auditInput('first'), auditInput('second'), auditInput('third')]);

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
});

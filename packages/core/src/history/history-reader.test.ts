import { describe, expect, it } from 'vitest';
import { resultHandle } from '../invocations/bound-result.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import {
  SCOPE,
  createWrite,
  invocation,
  move,
  opening,
  resultFor,
  transitionWrite,
} from '../testing/host-store-fixtures.js';
import { HistoryReader } from './history-reader.js';
import { HistoryWriter } from './history-writer.js';

const UUID = '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';

/** A reader and writer over one memory store, with a finished call (id UUID, a 30-character result) still queued. */
function queued() {
  const store = new MemoryStore();
  const writes = new HistoryWriter({ store, commitIntervalMs: 600_000 });
  const history = new HistoryReader({ store, writes });
  const record = invocation({ id: UUID });
  const result = resultFor(UUID, 'abcdefghijklmnopqrstuvwxyz0123');
  writes.write(createWrite(record));
  writes.write(transitionWrite(move(record, 2, 'pending', 'running')));
  writes.write(transitionWrite(move(record, 3, 'running', 'success', 'success'), { result }));
  return { history, record, result };
}

describe('HistoryReader', () => {
  it('lists and gets what is still queued: a read stores it first', async () => {
    const { history, record, result } = queued();

    expect((await history.list({ scope: SCOPE })).map((r) => [r.id, r.state])).toEqual([[record.id, 'success']]);
    const entry = await history.get({ scope: SCOPE, invocationId: record.id });
    expect(entry?.transitions.map((t) => t.to)).toEqual(['pending', 'running', 'success']);
    expect(entry?.transitions[0]).toEqual(opening(record));
    expect(entry?.result).toEqual(result);
  });

  it('reads the whole result behind a handle a slice at a time', async () => {
    const { history } = queued();
    const handle = resultHandle(UUID);

    expect(await history.readResult({ scope: SCOPE, handle, offset: 0, length: 26 })).toEqual({
      text: 'abcdefghijklmnopqrstuvwxyz',
      offset: 0,
      totalChars: 30,
      done: false,
    });
    expect(await history.readResult({ scope: SCOPE, handle, offset: 26 })).toEqual({
      text: '0123',
      offset: 26,
      totalChars: 30,
      done: true,
    });
  });

  it("answers another tenant's handle, and what is not a handle, as not_found", async () => {
    const { history } = queued();
    const other = { ...SCOPE, userId: 'someone-else' };

    await expect(history.readResult({ scope: other, handle: resultHandle(UUID) })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await history.get({ scope: other, invocationId: UUID })).toBeUndefined();
    expect(await history.list({ scope: other })).toEqual([]);
    await expect(history.readResult({ scope: SCOPE, handle: `x${resultHandle(UUID)}` })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('refuses a slice that does not start at a whole offset or has no length', async () => {
    const { history } = queued();
    const handle = resultHandle(UUID);

    for (const slice of [{ offset: -1 }, { offset: 1.5 }, { length: 0 }]) {
      await expect(history.readResult({ scope: SCOPE, handle, ...slice })).rejects.toMatchObject({
        code: 'invalid_arguments',
      });
    }
  });
});

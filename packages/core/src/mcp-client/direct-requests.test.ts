import { describe, expect, it } from 'vitest';
import { DirectRequests, isDirectTransport } from './direct-requests.js';
import type { DirectHandlers } from './direct-requests.js';

const handlers = (): DirectHandlers => ({
  answer: () => undefined,
  progress: () => undefined,
  closed: () => undefined,
});

describe('DirectRequests', () => {
  it('finds a waiting request by its id until it is taken, and never by an id it did not give', () => {
    const requests = new DirectRequests();
    const a = handlers();
    const id = requests.open(a)!;
    expect(id).toBeLessThan(0);
    expect(requests.find(id)).toBe(a);
    for (const other of [0, 1, -1.5, String(id), id - 65_536, id + 1, -Infinity, NaN, null, undefined, { id }]) {
      expect(requests.find(other)).toBeUndefined();
      expect(requests.take(other)).toBeUndefined();
    }
    expect(requests.take(id)).toBe(a);
    expect(requests.find(id)).toBeUndefined();
    expect(requests.take(id)).toBeUndefined();
  });

  it('reuses a freed slot under a new id, so an old id never finds the new request', () => {
    const requests = new DirectRequests();
    const first = requests.open(handlers());
    requests.take(first);
    const b = handlers();
    const second = requests.open(b);
    expect(second).not.toBe(first);
    expect((-second! - 1) % 65_536).toBe((-first! - 1) % 65_536);
    expect(requests.find(first)).toBeUndefined();
    expect(requests.find(second)).toBe(b);
  });

  it('keeps every id a safe integer: the count starts again at 0 past 2^36 requests', () => {
    const requests = new DirectRequests(2 ** 36 - 2);
    const ids = Array.from({ length: 4 }, () => requests.open(handlers())!);
    expect(ids.every((id) => Number.isSafeInteger(id) && id < 0)).toBe(true);
    expect(ids[0]).toBe(-((2 ** 36 - 2) * 65_536) - 1);
    expect(ids[2]).toBe(-2 - 1);
    for (const id of ids) expect(requests.take(id)).toBeDefined();
  });

  it('keeps a cancelled request quiet until taken: its answer is dropped, its progress is not found', () => {
    const requests = new DirectRequests();
    const told: string[] = [];
    const id = requests.open({
      answer: () => told.push('answer'),
      progress: () => told.push('progress'),
      closed: () => told.push('closed'),
    });
    expect(requests.quiet(id)).toBe(true);
    expect(requests.find(id)).toBeUndefined();
    requests.take(id)?.answer({ jsonrpc: '2.0', id: id!, result: {} });
    expect(told).toEqual([]);
    expect(requests.quiet(id)).toBe(false);
  });

  it('gives every waiting request back once when the transport closes', () => {
    const requests = new DirectRequests();
    const all = Array.from({ length: 5 }, () => handlers());
    const ids = all.map((h) => requests.open(h));
    requests.take(ids[2]);
    expect(ids.every((id) => id !== undefined && Number.isSafeInteger(id) && id < 0)).toBe(true);
    expect(requests.takeAll()).toEqual([all[0], all[1], all[3], all[4]]);
    expect(requests.takeAll()).toEqual([]);
    for (const id of ids) expect(requests.find(id)).toBeUndefined();
  });

  it('tells a transport that sends directly from one that does not', () => {
    expect(isDirectTransport({ sendDirect: () => undefined, cancelDirect: () => undefined })).toBe(true);
    expect(isDirectTransport({ send: () => undefined })).toBe(false);
    expect(isDirectTransport(undefined)).toBe(false);
  });
});

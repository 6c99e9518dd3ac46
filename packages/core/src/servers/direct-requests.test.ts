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
    const id = requests.open(a);
    expect(requests.find(id)).toBe(a);
    for (const other of [1, '1', 'a', 'a0', 'a0.', 'ax.1', 'a-1.0', 'b0.0', null, undefined, { id }]) {
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
    expect(second.split('.')[0]).toBe(first.split('.')[0]);
    expect(requests.find(first)).toBeUndefined();
    expect(requests.find(second)).toBe(b);
  });

  it('gives every waiting request back once when the transport closes', () => {
    const requests = new DirectRequests();
    const all = Array.from({ length: 5 }, () => handlers());
    const ids = all.map((h) => requests.open(h));
    requests.take(ids[2]);
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

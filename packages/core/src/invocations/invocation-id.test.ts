import { describe, expect, it } from 'vitest';
import { newInvocationId } from './invocation-id.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newInvocationId', () => {
  it('gives a version 7 UUID whose first 48 bits are the creation time in milliseconds', () => {
    const at = Date.UTC(2026, 10, 23, 12, 0, 0, 5);
    const id = newInvocationId(at);
    expect(id).toMatch(UUID_V7);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBeGreaterThanOrEqual(at);
  });

  it('gives ids that go up, in order of creation, even when the clock stands still or steps back', () => {
    const at = Date.UTC(2030, 0, 1);
    const ids = [
      ...Array.from({ length: 5000 }, () => newInvocationId(at)),
      ...Array.from({ length: 10 }, () => newInvocationId(at - 60_000)),
      newInvocationId(at + 1),
    ];
    for (const id of ids) expect(id).toMatch(UUID_V7);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('keeps ids of the same millisecond apart by their random bits', () => {
    const tails = new Set(Array.from({ length: 1000 }, () => newInvocationId(Date.UTC(2031, 0, 1)).slice(19)));
    expect(tails.size).toBe(1000);
  });
});

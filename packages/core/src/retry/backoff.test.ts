import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.js';

describe('backoffDelay', () => {
  it('doubles from the first delay up to the cap when there is no jitter', () => {
    const policy = { baseMs: 100, maxMs: 1000, jitter: 0 };
    expect([0, 1, 2, 3, 4, 10].map((attempt) => backoffDelay(attempt, policy))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });

  it('draws the jittered share of each delay at random, never above the capped value', () => {
    const policy = { baseMs: 100, maxMs: 1000, jitter: 0.5 };
    expect(backoffDelay(2, policy, () => 0)).toBe(200);
    expect(backoffDelay(2, policy, () => 0.999999)).toBe(400);
    expect(backoffDelay(5, policy, () => 0.5)).toBe(750);
  });

  it('defaults to half the delay at random', () => {
    expect(backoffDelay(0, { baseMs: 1000, maxMs: 1000 }, () => 0)).toBe(500);
  });
});

import { describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock.js';
import { RefreshGate } from './refresh-gate.js';

describe('RefreshGate', () => {
  it('lets one refresh through at a time, the next once the first leaves', async () => {
    const gate = new RefreshGate(new FakeClock());
    const order: string[] = [];
    await gate.enter();
    const second = gate.enter().then(() => order.push('second in'));
    await Promise.resolve();
    order.push('first leaves');
    gate.leave();
    await second;

    expect(order).toEqual(['first leaves', 'second in']);
  });

  it('opens by itself after its limit when a refresh never comes back', async () => {
    const clock = new FakeClock();
    const gate = new RefreshGate(clock, 1000);
    await gate.enter();
    let entered = false;
    const second = gate.enter().then(() => (entered = true));
    await Promise.resolve();
    expect(entered).toBe(false);

    clock.advance(1000);
    await second;
    expect(entered).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { ControllerPool, MAX_IDLE_CONTROLLERS } from './controller-pool.js';

describe('ControllerPool', () => {
  it("hands a finished call's controller to the next call", () => {
    const pool = new ControllerPool();
    const first = pool.take();
    pool.giveBack(first);
    expect(pool.take()).toBe(first);
  });

  it('never hands out a controller that was aborted or that something still listens to', () => {
    const pool = new ControllerPool();
    const aborted = pool.take();
    aborted.abort();
    pool.giveBack(aborted);
    const listened = pool.take();
    listened.signal.addEventListener('abort', () => undefined);
    pool.giveBack(listened);
    expect(pool.idle).toBe(0);
    const next = pool.take();
    expect(next).not.toBe(aborted);
    expect(next).not.toBe(listened);
    expect(next.signal.aborted).toBe(false);
  });

  it('keeps a bounded number of idle controllers', () => {
    const pool = new ControllerPool();
    const taken = Array.from({ length: MAX_IDLE_CONTROLLERS + 10 }, () => pool.take());
    for (const controller of taken) pool.giveBack(controller);
    expect(pool.idle).toBe(MAX_IDLE_CONTROLLERS);
  });

  it("never hands one host's controller to another host", () => {
    const one = new ControllerPool();
    const other = new ControllerPool();
    const controller = one.take();
    one.giveBack(controller);
    expect(other.take()).not.toBe(controller);
    expect(one.take()).toBe(controller);
  });
});

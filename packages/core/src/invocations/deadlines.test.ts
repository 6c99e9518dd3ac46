import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock.js';
import { DEADLINE_TIMER_MAX_WAIT_MS, Deadlines } from './deadlines.js';

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist');
const BUILT = resolve(DIST, 'invocations/deadlines.js');
const BUILT_CLOCK = resolve(DIST, 'clock.js');

/**
 * Runs a script in a fresh Node process with `Deadlines` and `systemClock` of the built core in scope, and returns what
 * it printed once it exited by itself; a process still running after 30 s is stopped, and the test fails.
 */
function inChild(body: string): string {
  if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: run "npm run build" first`);
  const script = [
    `import { Deadlines } from ${JSON.stringify(pathToFileURL(BUILT).href)};`,
    `import { systemClock } from ${JSON.stringify(pathToFileURL(BUILT_CLOCK).href)};`,
    body,
  ].join('\n');
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect({ status: child.status, signal: child.signal, stderr: child.stderr }).toEqual({
    status: 0,
    signal: null,
    stderr: '',
  });
  return child.stdout;
}

describe('Deadlines', () => {
  it('fires each deadline once, never before it is due, nearest first, and never a cancelled one', () => {
    const clock = new FakeClock();
    const deadlines = new Deadlines({ clock });
    const start = clock.monotonic();
    // Added far to near, so the one timer must move earlier each time; every second one is cancelled.
    const offsets = [120, 100, 80, 60, 40, 20];
    const fired: { offset: number; late: number }[] = [];
    offsets.forEach((offset, i) => {
      const at = start + offset;
      const deadline = deadlines.add(at, () => fired.push({ offset, late: clock.monotonic() - at }));
      if (i % 2 === 1) deadlines.cancel(deadline);
    });
    clock.advance(39);
    expect(fired).toEqual([]);
    clock.advance(81);
    expect(fired.map((f) => f.offset)).toEqual([40, 80, 120]);
    for (const f of fired) expect(f.late).toBeGreaterThanOrEqual(0);
    clock.advance(10 * DEADLINE_TIMER_MAX_WAIT_MS);
    expect(fired).toHaveLength(3);
  });

  it('lets a deadline that fires add the next one, as a call whose idle deadline moved does', () => {
    const clock = new FakeClock();
    const deadlines = new Deadlines({ clock });
    const times: number[] = [];
    const step = () => {
      times.push(clock.monotonic());
      if (times.length < 3) deadlines.add(clock.monotonic() + 5, step);
    };
    deadlines.add(clock.monotonic() + 5, step);
    clock.advance(100);
    expect(times).toEqual([5, 10, 15]);
  });

  it('fires a far deadline at its time while the one timer wakes at most a bounded time apart', () => {
    const clock = new FakeClock();
    const deadlines = new Deadlines({ clock });
    let fired = 0;
    deadlines.add(clock.monotonic() + 60_000, () => (fired += 1));
    expect(clock.pendingTimers).toBe(1);
    clock.advance(59_999);
    expect(fired).toBe(0);
    // Still one timer for the waiting deadline, never one per wake-up.
    expect(clock.pendingTimers).toBe(1);
    clock.advance(1);
    expect(fired).toBe(1);
  });

  it('uses one timer for every deadline, and leaves none set once no deadline waits', () => {
    const clock = new FakeClock();
    const deadlines = new Deadlines({ clock });
    const calls = Array.from({ length: 100 }, (_, i) => deadlines.add(clock.monotonic() + 60_000 + i, () => undefined));
    expect(clock.pendingTimers).toBe(1);
    for (const call of calls) deadlines.cancel(call);
    clock.advance(DEADLINE_TIMER_MAX_WAIT_MS);
    expect(clock.pendingTimers).toBe(0);
  });

  it('keeps the process alive while a deadline waits, and not once every deadline is cancelled', () => {
    const due = `const d = new Deadlines({ clock: systemClock }); d.add(systemClock.monotonic() + 200, () => console.log('due'));`;
    expect(inChild(due)).toBe('due\n');
    // A cancelled one-minute deadline must not hold the process for that minute.
    const cancelled = `const d = new Deadlines({ clock: systemClock }); d.cancel(d.add(systemClock.monotonic() + 60_000, () => console.log('due')));`;
    expect(inChild(cancelled)).toBe('');
  });
});

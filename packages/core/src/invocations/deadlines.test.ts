import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Deadlines } from './deadlines.js';

const BUILT = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/invocations/deadlines.js');

/**
 * Runs a script in a fresh Node process with `Deadlines` of the built core in scope, and returns what it printed once
 * it exited by itself; a process still running after 30 s is stopped, and the test fails.
 */
function inChild(body: string): string {
  if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: run "npm run build" first`);
  const script = `import { Deadlines } from ${JSON.stringify(pathToFileURL(BUILT).href)};\n${body}`;
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
  it('fires each deadline once, never before it is due, nearest first, and never a cancelled one', async () => {
    const deadlines = new Deadlines();
    const start = performance.now();
    // Added far to near, so the one timer must move earlier each time; every second one is cancelled.
    const offsets = [120, 100, 80, 60, 40, 20];
    const fired: { offset: number; late: number }[] = [];
    const waits: Promise<void>[] = [];
    offsets.forEach((offset, i) => {
      let done!: () => void;
      const at = start + offset;
      const deadline = deadlines.add(at, () => {
        fired.push({ offset, late: performance.now() - at });
        done();
      });
      if (i % 2 === 1) deadlines.cancel(deadline);
      else waits.push(new Promise<void>((resolve) => (done = resolve)));
    });
    await Promise.all(waits);
    expect(fired.map((f) => f.offset)).toEqual([40, 80, 120]);
    for (const f of fired) expect(f.late).toBeGreaterThanOrEqual(0);
  });

  it('lets a deadline that fires add the next one, as a call whose idle deadline moved does', async () => {
    const deadlines = new Deadlines();
    const times: number[] = [];
    await new Promise<void>((done) => {
      const step = () => {
        times.push(performance.now());
        if (times.length < 3) deadlines.add(performance.now() + 5, step);
        else done();
      };
      deadlines.add(performance.now() + 5, step);
    });
    expect(times).toHaveLength(3);
  });

  it('keeps the process alive while a deadline waits, and not once every deadline is cancelled', () => {
    expect(inChild(`const d = new Deadlines(); d.add(performance.now() + 200, () => console.log('due'));`)).toBe(
      'due\n',
    );
    // A cancelled one-minute deadline must not hold the process for that minute.
    const cancelled = `const d = new Deadlines(); d.cancel(d.add(performance.now() + 60_000, () => console.log('due')));`;
    expect(inChild(cancelled)).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import { colourEnabled, createStyle } from './cli-style.js';
import { progressBar, ProgressDisplay } from './progress-bar.js';

const tty = { isTTY: true } as unknown as NodeJS.WritableStream;
const pipe = {} as NodeJS.WritableStream;

describe('colourEnabled', () => {
  it('is on in a terminal, off in a pipe and for TERM=dumb', () => {
    expect(colourEnabled(tty, {})).toBe(true);
    expect(colourEnabled(pipe, {})).toBe(false);
    expect(colourEnabled(tty, { TERM: 'dumb' })).toBe(false);
  });

  it('is off with NO_COLOR set to anything but the empty string', () => {
    expect(colourEnabled(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colourEnabled(tty, { NO_COLOR: '' })).toBe(true);
  });

  it('follows FORCE_COLOR over everything: on for a pipe, "0" or "false" off', () => {
    expect(colourEnabled(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourEnabled(pipe, { FORCE_COLOR: '' })).toBe(true);
    expect(colourEnabled(tty, { FORCE_COLOR: '0' })).toBe(false);
    expect(colourEnabled(tty, { FORCE_COLOR: 'false' })).toBe(false);
  });
});

describe('createStyle', () => {
  it('paints risk and state by meaning, and leaves text alone when off', () => {
    const on = createStyle(true);
    expect(on.risk('risk high', 'high')).toBe('\u001b[31mrisk high\u001b[39m');
    expect(on.risk('risk low', 'low')).toBe('\u001b[32mrisk low\u001b[39m');
    expect(on.state('cancelled', 'cancelled')).toBe('\u001b[33mcancelled\u001b[39m');
    expect(on.state('weird', 'no-such-state')).toBe('weird');
    const off = createStyle(false);
    expect(off.risk('risk high', 'high')).toBe('risk high');
    expect(off.server('failed', 'failed')).toBe('failed');
  });
});

describe('progress', () => {
  it('draws a bar with the count and percentage when there is a total, the count alone otherwise', () => {
    expect(progressBar({ progress: 3, total: 8, message: 'step 3' })).toBe(
      '  [#########---------------]  3/8  38%  step 3',
    );
    expect(progressBar({ progress: 12, total: 10 })).toBe(`  [${'#'.repeat(24)}]  12/10  100%`);
    expect(progressBar({ progress: 4 })).toBe('  progress 4');
  });

  it('redraws one line in place in a terminal and ends it before any other line', () => {
    let out = '';
    const sink = { write: (text: string) => (out += text) } as unknown as NodeJS.WritableStream;
    const display = new ProgressDisplay(sink, true);
    display.update({ progress: 1, total: 2 });
    display.update({ progress: 2, total: 2 });
    display.line('✓ done');
    expect(out).toBe(
      `\r\u001b[2K  [${'#'.repeat(12)}${'-'.repeat(12)}]  1/2  50%\r\u001b[2K  [${'#'.repeat(24)}]  2/2  100%\n✓ done\n`,
    );
  });

  it('writes plain lines anywhere else', () => {
    let out = '';
    const sink = { write: (text: string) => (out += text) } as unknown as NodeJS.WritableStream;
    const display = new ProgressDisplay(sink, false);
    display.update({ progress: 1, total: 2, message: 'half' });
    display.line('✓ done');
    display.end();
    expect(out).toBe('  progress 1/2 half\n✓ done\n');
  });
});

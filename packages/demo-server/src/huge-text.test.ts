import { describe, expect, it } from 'vitest';
import { HUGE_TEXT_LINE_LENGTH, hugeText } from './huge-text.js';

describe('hugeText', () => {
  it('is exactly as long as asked, cutting the last line', () => {
    expect(hugeText(0)).toBe('');
    expect(hugeText(250)).toHaveLength(250);
    expect(
      hugeText(250)
        .split('\n')
        .map((line) => line.slice(0, 11)),
    ).toEqual(['line 000001', 'line 000002', 'line 000003']);
  });

  it('puts line n at offset (n - 1) × the line length', () => {
    const text = hugeText(1_000_000);
    expect(text.slice(4_321 * HUGE_TEXT_LINE_LENGTH).startsWith('line 004322: ')).toBe(true);
    expect(text.endsWith('\n')).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { callLabel } from './audit-call-label.js';

describe('callLabel', () => {
  it('tells apart calls made in the same millisecond, whose ids share their first characters', () => {
    const first = '019ac3f1-2b4e-7a01-8c3d-5e6f7a8b9c0d';
    const second = '019ac3f1-2b4e-7a02-9d1e-0f2a3b4c5d6e';
    expect(callLabel(first)).not.toBe(callLabel(second));
  });

  it("is the id's last 8 characters, without hyphens", () => {
    expect(callLabel('019ac3f1-2b4e-7a01-8c3d-5e6f7a8b9c0d')).toBe('7a8b9c0d');
    expect(callLabel('abc-de')).toBe('abcde');
  });
});

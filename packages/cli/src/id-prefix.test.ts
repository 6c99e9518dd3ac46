import { describe, expect, it } from 'vitest';
import { resolveIdPrefix } from './id-prefix.js';

const IDS = ['375a9c10-aaaa', '375b0000-bbbb', '9f00-cccc'];

describe('resolveIdPrefix', () => {
  it('takes a whole id, or the start of exactly one', () => {
    expect(resolveIdPrefix('9f00-cccc', IDS, 'invocation')).toBe('9f00-cccc');
    expect(resolveIdPrefix('375a', IDS, 'invocation')).toBe('375a9c10-aaaa');
    expect(resolveIdPrefix('9', IDS, 'invocation')).toBe('9f00-cccc');
  });

  it('prefers an exact id over the longer ids it begins', () => {
    expect(resolveIdPrefix('ab', ['abc', 'ab', 'abd'], 'decision')).toBe('ab');
  });

  it('lists the candidates of an ambiguous prefix', () => {
    expect(() => resolveIdPrefix('375', IDS, 'invocation')).toThrow(
      'invocation prefix 375 is ambiguous: 2 match; type more of the id:\n  375a9c10-aaaa\n  375b0000-bbbb',
    );
  });

  it('names ten candidates and counts the rest', () => {
    const many = Array.from({ length: 13 }, (_, i) => `aa${String(i).padStart(2, '0')}`);
    expect(() => resolveIdPrefix('aa', many, 'decision')).toThrow(/aa09\n {2}… and 3 more$/);
  });

  it('is not_found when nothing starts with it', () => {
    expect(() => resolveIdPrefix('zz', IDS, 'decision')).toThrow(
      expect.objectContaining({ code: 'not_found', message: 'no decision zz in this workspace' }),
    );
  });
});

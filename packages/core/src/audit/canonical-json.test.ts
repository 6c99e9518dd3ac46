import canonicalizeModule from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { canonicalJson, flatCanonicalJson } from './canonical-json.js';
import { seeded } from '../testing/seeded.js';

// The RFC 8785 library itself, as the oracle the direct path must agree with.
const canonicalize = canonicalizeModule as unknown as (value: unknown) => string | undefined;

describe('canonical JSON of flat objects', () => {
  it('writes the same text as the RFC 8785 library for every flat object it meets', () => {
    // A seeded generator: the same objects each run, with keys and values of every kind the direct path takes.
    const { next, pick } = seeded(7);
    // Keys that sort differently by UTF-16 code units than by code points or by locale: the RFC's order is code units.
    const keys = ['a', 'B', 'b', 'é', '€', '😀', '\uff61', '\ud800', '', '10', '9', 'a b', '"', '\\', '\n'];
    const values = [
      '',
      'text',
      '"quoted" \\ back',
      '\u2028\u2029\n\t\u0000',
      'é€😀',
      '\udc00 lone',
      0,
      -0,
      1,
      -1.5,
      1e21,
      1e-7,
      5e-324,
      Number.MAX_SAFE_INTEGER,
      true,
      false,
      null,
    ];
    for (let i = 0; i < 1000; i++) {
      const object: Record<string, unknown> = {};
      const size = Math.floor(next() * 8);
      for (let k = 0; k < size; k++) object[pick(keys)] = pick(values);
      expect(flatCanonicalJson(object)).toBe(canonicalize(object));
      expect(canonicalJson(object)).toBe(canonicalize(object));
    }
  });

  it('writes objects of one shape in key order whichever order their keys came in, each with its own values', () => {
    const made = [
      { to: 'running', from: 'pending', outcome: null },
      { from: 'running', outcome: 'success', to: 'success' },
      { to: 'error', from: 'running', outcome: 'error' },
    ];
    for (const object of [...made, ...made]) expect(flatCanonicalJson(object)).toBe(canonicalize(object));
  });

  it('leaves everything but a plain object of plain values to the library, which still canonicalizes it', () => {
    class Point {
      constructor(readonly x: number) {}
    }
    const others: unknown[] = [
      { nested: { b: 1, a: 2 } },
      { list: [2, 1] },
      { gone: undefined, kept: 1 },
      { when: new Date(0) },
      { own: { toJSON: () => 'replaced' } },
      new Point(1),
      [1, 2],
      'text',
      7,
      null,
    ];
    for (const value of others) {
      expect(flatCanonicalJson(value)).toBeUndefined();
      expect(canonicalJson(value)).toBe(canonicalize(value));
    }
    expect(flatCanonicalJson(Object.assign(Object.create(null) as object, { b: 1, a: 2 }))).toBe('{"a":2,"b":1}');
    for (const bad of [{ n: Number.NaN }, { n: Number.POSITIVE_INFINITY }]) {
      expect(flatCanonicalJson(bad)).toBeUndefined();
      expect(() => canonicalJson(bad)).toThrow(/not allowed/);
    }
  });
});

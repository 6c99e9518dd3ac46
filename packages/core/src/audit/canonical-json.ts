import { hash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';

// canonicalize 2.x ships a CommonJS default export whose typing differs between module modes.
const canonicalize = canonicalizeModule as unknown as (value: unknown) => string | undefined;

/**
 * The canonical JSON of a plain object whose values are all strings, finite numbers, booleans or null, written
 * directly (the same text as `canonicalize`); undefined for anything else. Most of what the call path hashes (tool
 * arguments, audit data) has this shape, and `canonicalize`'s general walk costs several times more.
 */
export function flatCanonicalJson(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return undefined;
  const record = value as Record<string, unknown>;
  const { sorted, quoted } = keyOrder(Object.keys(record));
  let text = '{';
  for (let i = 0; i < sorted.length; i++) {
    const v = record[sorted[i] as string];
    if (
      typeof v !== 'string' &&
      typeof v !== 'boolean' &&
      v !== null &&
      !(typeof v === 'number' && Number.isFinite(v))
    ) {
      return undefined;
    }
    text += `${i === 0 ? '' : ','}${quoted[i] as string}${JSON.stringify(v)}`;
  }
  return `${text}}`;
}

/** An object shape's keys as they came, sorted, and each sorted key written out with its colon. */
interface KeyOrder {
  readonly keys: readonly string[];
  readonly sorted: readonly string[];
  readonly quoted: readonly string[];
}

/** The last few shapes met: the call path's data comes in a handful of shapes, each sorted once. */
const SHAPES: KeyOrder[] = [];
const MAX_SHAPES = 16;
let nextShape = 0;

/** The sorted order of `keys` (UTF-16 code units, as RFC 8785 sorts), kept for the next object of the same shape. */
function keyOrder(keys: string[]): KeyOrder {
  for (const shape of SHAPES) if (sameKeys(shape.keys, keys)) return shape;
  const sorted = [...keys].sort();
  const shape = { keys, sorted, quoted: sorted.map((key) => `${JSON.stringify(key)}:`) };
  SHAPES[nextShape] = shape;
  nextShape = (nextShape + 1) % MAX_SHAPES;
  return shape;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** RFC 8785 canonical JSON of a value: the same bytes for the same data, whatever the key order. */
export function canonicalJson(value: unknown): string {
  const flat = flatCanonicalJson(value);
  if (flat !== undefined) return flat;
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('value has no JSON representation');
  return text;
}

/** Hex sha256 of a string (UTF-8). */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/** Hex sha256 of the canonical JSON of a value: the stable fingerprint of arguments and definitions. */
export function hashJson(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

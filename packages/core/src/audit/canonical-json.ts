import { hash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';

// canonicalize 2.x ships a CommonJS default export whose typing differs between module modes.
const canonicalize = canonicalizeModule as unknown as (value: unknown) => string | undefined;

/** RFC 8785 canonical JSON of a value: the same bytes for the same data, whatever the key order. */
export function canonicalJson(value: unknown): string {
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

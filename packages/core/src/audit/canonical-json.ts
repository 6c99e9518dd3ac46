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
  const keys = Object.keys(record).sort();
  let text = '{';
  for (const key of keys) {
    const v = record[key];
    if (
      typeof v !== 'string' &&
      typeof v !== 'boolean' &&
      v !== null &&
      !(typeof v === 'number' && Number.isFinite(v))
    ) {
      return undefined;
    }
    text += `${text.length === 1 ? '' : ','}${JSON.stringify(key)}:${JSON.stringify(v)}`;
  }
  return `${text}}`;
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

import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats ships CommonJS; its default export is the plugin function.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The one Ajv instance of the form files: formats are added once, and compiled checks are cached by their owners. */
export const formAjv = addFormats(new Ajv2020({ strict: false, allErrors: true, logger: false }));

/** A JSON object as a server sent it: untrusted, read through {@link own} only. */
export type Json = Record<string, unknown>;

/** True for a plain JSON object (not null, not a list). */
export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** True for a list of strings. */
export const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

/** Own properties only: `__proto__`, `constructor` and the rest inherited from Object.prototype are never read. */
export const own = (object: Json, key: string): unknown => (Object.hasOwn(object, key) ? object[key] : undefined);

/** The given own keys of an object that are set. */
export const pick = (object: Json, keys: readonly string[]): Json =>
  Object.fromEntries(keys.filter((k) => own(object, k) !== undefined).map((k) => [k, own(object, k)]));

/** A server's text quoted for a message, cut at 60 characters so a long value cannot flood it. */
export const quote = (value: string): string => JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value);

/** "1 choice", "2 choices". */
export const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** A value named for a person in a refusal or an error ("missing", "a list", "\"abc\"", "an object"). */
export function describe(value: unknown): string {
  if (value === undefined || value === null) return value === null ? 'null' : 'missing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : `a value of type ${typeof value}`;
}

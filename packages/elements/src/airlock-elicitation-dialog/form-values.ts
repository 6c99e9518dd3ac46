import type { FormField } from '@airlock/core';

/**
 * What a form control holds while the user edits it: text and number inputs a string (as typed), a switch a
 * boolean (undefined while an optional one is unanswered), a single choice its value (undefined: none), a
 * multi-select the chosen values.
 */
export type RawValue = string | boolean | readonly string[] | undefined;

/** Why a field's value cannot be sent, for the error text. The host checks the answer again with Ajv. */
export type FieldProblem = 'required' | 'number' | 'integer' | 'range' | 'length' | 'format' | 'option' | 'items';

/** A field's value as it would be sent (`undefined`: left out of the content), or what is wrong with it. */
export type FieldReading = { ok: true; value: unknown } | { ok: false; problem: FieldProblem };

// Shapes of the MCP string formats, close to ajv-formats' "fast" mode (the host runs the real check).
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
const URI = /^[a-z][a-z0-9+.-]*:[^\s]*$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** The value a control starts with: the request's initial value (the schema default) when it fits the field. */
export function initialRaw(field: FormField, initial: unknown): RawValue {
  switch (field.kind) {
    case 'text':
      if (typeof initial !== 'string') return '';
      return field.format === 'date-time' ? toLocalDateTime(initial) : initial;
    case 'number':
      return typeof initial === 'number' && Number.isFinite(initial) ? String(initial) : '';
    case 'boolean':
      // A required switch has no "unanswered" position: off is an answer.
      return typeof initial === 'boolean' ? initial : field.required ? false : undefined;
    case 'select':
      return typeof initial === 'string' && field.options.some((o) => o.value === initial) ? initial : undefined;
    case 'multiselect':
      return Array.isArray(initial)
        ? field.options.filter((o) => (initial as unknown[]).includes(o.value)).map((o) => o.value)
        : [];
  }
}

/**
 * Reads a control's value into the field's JSON type (numbers as numbers, a date-time with its offset) and checks
 * it: required, number and integer, range, length in characters, format shape, options, item counts. `badInput`
 * is the browser's word that a number input holds something that is not a number.
 */
export function readField(field: FormField, raw: RawValue, badInput = false): FieldReading {
  const missing: FieldReading = field.required ? { ok: false, problem: 'required' } : { ok: true, value: undefined };
  switch (field.kind) {
    case 'text': {
      const text = typeof raw === 'string' ? raw : '';
      if (text.trim() === '') return missing;
      const value = field.format === 'date-time' ? fromLocalDateTime(text) : text;
      if (value === undefined) return { ok: false, problem: 'format' };
      const length = [...value].length;
      if (outside(length, field.minLength, field.maxLength)) return { ok: false, problem: 'length' };
      return formatFits(field.format, value) ? { ok: true, value } : { ok: false, problem: 'format' };
    }
    case 'number': {
      if (badInput) return { ok: false, problem: 'number' };
      const text = typeof raw === 'string' ? raw.trim() : '';
      if (text === '') return missing;
      const value = Number(text);
      if (!Number.isFinite(value)) return { ok: false, problem: 'number' };
      if (field.integer && !Number.isInteger(value)) return { ok: false, problem: 'integer' };
      return outside(value, field.minimum, field.maximum) ? { ok: false, problem: 'range' } : { ok: true, value };
    }
    case 'boolean':
      return typeof raw === 'boolean' ? { ok: true, value: raw } : missing;
    case 'select':
      if (typeof raw !== 'string' || raw === '') return missing;
      return field.options.some((o) => o.value === raw) ? { ok: true, value: raw } : { ok: false, problem: 'option' };
    case 'multiselect': {
      const list = Array.isArray(raw) ? (raw as readonly string[]) : [];
      if (list.length === 0) return missing;
      if (list.some((v) => !field.options.some((o) => o.value === v))) return { ok: false, problem: 'option' };
      return outside(list.length, field.minItems, field.maxItems)
        ? { ok: false, problem: 'items' }
        : { ok: true, value: [...list] };
    }
  }
}

/** The accepted answer's content: every field's typed value, empty optional fields left out. */
export function formContent(
  fields: readonly FormField[],
  raw: (field: FormField) => RawValue,
): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const field of fields) {
    const reading = readField(field, raw(field));
    if (reading.ok && reading.value !== undefined) content[field.name] = reading.value;
  }
  return content;
}

/** An ISO date-time as a `datetime-local` control shows it, in the browser's time zone ('' when unreadable). */
export function toLocalDateTime(iso: string): string {
  const date = new Date(iso);
  if (!DATE_TIME.test(iso) || Number.isNaN(date.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  const day = `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}`;
  return `${day}T${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}`;
}

/** A `datetime-local` value as an RFC 3339 date-time with the browser's offset, which MCP's `date-time` needs. */
export function fromLocalDateTime(local: string): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?$/.exec(local);
  const date = new Date(local);
  if (match === null || Number.isNaN(date.getTime())) return undefined;
  const offset = -date.getTimezoneOffset();
  const p = (n: number) => String(Math.trunc(n)).padStart(2, '0');
  const zone = offset === 0 ? 'Z' : `${offset > 0 ? '+' : '-'}${p(Math.abs(offset) / 60)}:${p(Math.abs(offset) % 60)}`;
  return `${match[1]}${match[2] ?? ':00'}${zone}`;
}

function formatFits(format: Extract<FormField, { kind: 'text' }>['format'], value: string): boolean {
  switch (format) {
    case undefined:
      return true;
    case 'email':
      return EMAIL.test(value);
    case 'uri':
      return URI.test(value);
    case 'date':
      return realDate(DATE.exec(value)?.[0]);
    case 'date-time':
      return DATE_TIME.test(value) && realDate(DATE_TIME.exec(value)?.[1]);
  }
}

/** True for a calendar day that exists (no 2025-02-30). */
function realDate(day: string | undefined): boolean {
  const parts = day === undefined ? null : DATE.exec(day);
  if (parts === null) return false;
  const [y, m, d] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function outside(n: number, min: number | undefined, max: number | undefined): boolean {
  return (min !== undefined && n < min) || (max !== undefined && n > max);
}

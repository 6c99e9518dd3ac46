import { describe, formAjv, plural, quote } from './form-json.js';

/** The string formats MCP forms allow. The seed's `textarea` is not one: it becomes `multiline` instead. */
export type TextFormat = 'email' | 'uri' | 'date' | 'date-time';

/** Each allowed format, worded for a person. */
export const FORMAT_NAMES: Readonly<Record<TextFormat, string>> = {
  email: 'an email address such as name@example.com',
  uri: 'an absolute URI such as https://example.com/',
  date: 'a date such as 2025-01-31',
  'date-time': 'a date and time with a time zone such as 2025-01-31T09:30:00Z',
};
const FORMAT_CHECKS = new Map(
  Object.keys(FORMAT_NAMES).map((f) => [f, formAjv.compile({ type: 'string', format: f })]),
);

/** True for a format MCP forms allow. */
export const isTextFormat = (value: string): value is TextFormat => Object.hasOwn(FORMAT_NAMES, value);

/** What every field has: `name` is the property key sent back, `label` what a person reads (title, else name). */
export interface FieldBase {
  name: string;
  label: string;
  description?: string;
  required: boolean;
}

/** A string property. `multiline` comes from the seed's `format: 'textarea'`; its value is still a plain string. */
export type TextField = FieldBase & { kind: 'text'; multiline: boolean; format?: TextFormat } & TextLimits;
type TextLimits = { minLength?: number; maxLength?: number; default?: string };
/** A `number` or `integer` property; `integer` tells a surface to refuse fractions. */
export type NumberField = FieldBase & { kind: 'number'; integer: boolean } & NumberLimits;
type NumberLimits = { minimum?: number; maximum?: number; default?: number };
/** A boolean. Without a default it starts unanswered, so "not chosen" stays distinct from "false". */
export type BooleanField = FieldBase & { kind: 'boolean'; default?: boolean };
/** One choice: `value` is what is sent, `label` what is shown (the title or legacy enumName, else the value). */
export type SelectOption = { value: string; label: string };
/** A single-select enum from any of its three schema forms: `enum`, titled `oneOf`, legacy `enumNames`. */
export type SelectField = FieldBase & { kind: 'select'; options: SelectOption[]; default?: string };
/** A multi-select enum: `type: 'array'` with `items.enum` or titled `items.anyOf`. */
export type MultiSelectField = FieldBase & { kind: 'multiselect'; options: SelectOption[] } & MultiLimits;
type MultiLimits = { minItems?: number; maxItems?: number; default?: string[] };

/** One form field, told apart by `kind`, so every surface (web, terminal) renders the subset the same way. */
export type FormField = TextField | NumberField | BooleanField | SelectField | MultiSelectField;

/**
 * Why `value` does not fit `field`, or undefined when it does: one rule for a schema's defaults, typed input and
 * answers, so the three can never disagree. Exact JSON types, no coercion.
 */
export function checkFieldValue(field: FormField, value: unknown): string | undefined {
  const { label } = field;
  switch (field.kind) {
    case 'text': {
      if (typeof value !== 'string') return `${label} must be text, not ${describe(value)}`;
      const chars = (n: number) => plural(n, 'character');
      const length = outside([...value].length, field.minLength, field.maxLength, chars);
      if (length !== undefined) return `${label} must be ${length} long`;
      const { format } = field;
      if (format === undefined || FORMAT_CHECKS.get(format)?.(value) === true) return undefined;
      return `${label} must be ${FORMAT_NAMES[format]}`;
    }
    case 'number': {
      const finite = typeof value === 'number' && Number.isFinite(value);
      if (!finite) return `${label} must be a number, not ${describe(value)}`;
      if (field.integer && !Number.isInteger(value)) return `${label} must be a whole number, not ${value}`;
      const range = outside(value, field.minimum, field.maximum, String);
      return range === undefined ? undefined : `${label} must be ${range}`;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${label} must be true or false, not ${describe(value)}`;
    case 'select':
      if (typeof value !== 'string') return `${label} must be one of the options, not ${describe(value)}`;
      return field.options.some((o) => o.value === value) ? undefined : notAnOption(field, value);
    case 'multiselect': {
      if (!Array.isArray(value)) return `${label} must be a list of options, not ${describe(value)}`;
      const odd: unknown = value.find((v) => typeof v !== 'string' || !field.options.some((o) => o.value === v));
      if (odd !== undefined) return notAnOption(field, odd);
      if (new Set(value).size !== value.length) return `${label} lists the same option more than once`;
      const count = outside(value.length, field.minItems, field.maxItems, (n) => plural(n, 'choice'));
      return count === undefined ? undefined : `${label} must have ${count}`;
    }
  }
}

function outside(n: number, min: number | undefined, max: number | undefined, show: (n: number) => string) {
  if (min !== undefined && n < min) return `at least ${show(min)}`;
  return max !== undefined && n > max ? `at most ${show(max)}` : undefined;
}

function notAnOption(field: SelectField | MultiSelectField, value: unknown): string {
  const shown = field.options.slice(0, 10).map((o) => quote(o.value));
  if (field.options.length > 10) shown.push('...');
  return `${field.label}: ${describe(value)} is not one of the options (${shown.join(', ')})`;
}

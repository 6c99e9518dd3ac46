import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats ships CommonJS; its default export is the plugin function.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, logger: false }));

/** A server may ask for at most this many fields in one form; past it the request is refused, not rendered. */
export const MAX_FORM_FIELDS = 100;

/** The string formats MCP forms allow. The seed's `textarea` is not one: it becomes `multiline` instead. */
export type TextFormat = 'email' | 'uri' | 'date' | 'date-time';
const FORMAT_NAMES: Record<TextFormat, string> = {
  email: 'an email address such as name@example.com',
  uri: 'an absolute URI such as https://example.com/',
  date: 'a date such as 2025-01-31',
  'date-time': 'a date and time with a time zone such as 2025-01-31T09:30:00Z',
};
const FORMAT_CHECKS = new Map(Object.keys(FORMAT_NAMES).map((f) => [f, ajv.compile({ type: 'string', format: f })]));

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
/** A form-mode `requestedSchema` read into fields, in the schema's property order. */
export type FormModel = { fields: FormField[] };

type Json = Record<string, unknown>;
export type FormModelResult = { ok: true; model: FormModel } | { ok: false; reason: string };
export type FieldInputResult = { ok: true; value: unknown } | { ok: false; error: string };
export type FormAnswerResult =
  { ok: true; content: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

/**
 * Reads a form-mode `requestedSchema` into a {@link FormModel}. Anything outside the MCP subset (nested objects,
 * `$ref`, unknown types, arrays that are not an enum of strings, defaults that do not fit, ...) is refused with a
 * reason naming the property, so the host declines the request instead of showing a form it cannot check. Unknown
 * keywords are ignored, `pattern` included: it is not in the subset, so it is neither shown nor enforced. Never
 * throws, whatever the input.
 */
export function buildFormModel(requestedSchema: unknown): FormModelResult {
  try {
    return { ok: true, model: readSchema(requestedSchema) };
  } catch (error) {
    return { ok: false, reason: error instanceof Refusal ? error.message : 'the schema could not be read' };
  }
}

/**
 * The values a form starts with: every field's default, since the client pre-fills them (SEP-1034). A field
 * without a default, a boolean included, starts empty. Lists are copied, so editing them leaves the model alone.
 */
export function initialValues(model: FormModel): Record<string, unknown> {
  const filled = model.fields.filter((f) => f.default !== undefined);
  return Object.fromEntries(filled.map((f) => [f.name, Array.isArray(f.default) ? [...f.default] : f.default]));
}

/**
 * Turns what a person typed at a terminal into the field's value, checked against the field's limits so the prompt
 * can be asked again at once. Numbers are parsed strictly (`12abc` is an error); booleans take y/yes/true/1 or
 * n/no/false/0; a choice may be typed as its value, its label (any case) or its 1-based number, a multi-select as a
 * comma-separated list of those. Blank input means "no value" (`value: undefined`): whether the field may stay
 * empty is for {@link validateFormAnswer} to say.
 */
export function parseFieldInput(field: FormField, text: string): FieldInputResult {
  const input = text.trim();
  if (input === '') return { ok: true, value: undefined };
  const parsed = parseText(field, field.kind === 'text' ? text : input);
  const problem = parsed.ok ? checkValue(field, parsed.value) : undefined;
  return problem === undefined ? parsed : { ok: false, error: problem };
}

/**
 * Checks an answer before it is sent, because the SDK does not: an object with no keys outside the form, every
 * required field present, each value of its field's exact JSON type (no coercion) and within its limits. Ajv then
 * checks it against `requestedSchema` itself (its subset keywords) as a second opinion. Errors are keyed by field
 * name, `''` for whole-form problems. On success, returns the content without its `undefined` values.
 */
export function validateFormAnswer(model: FormModel, requestedSchema: unknown, content: unknown): FormAnswerResult {
  try {
    return checkAnswer(model, requestedSchema, content);
  } catch {
    return { ok: false, errors: { '': 'the answer could not be read' } };
  }
}

type Base = FieldBase & { description: string | undefined };

/** A schema outside the subset: thrown inside this module only, and turned into `{ ok: false, reason }`. */
class Refusal extends Error {}

function refuse(reason: string): never {
  throw new Refusal(reason);
}

function readSchema(schema: unknown): FormModel {
  if (!isObject(schema)) refuse(`the schema must be an object, not ${describe(schema)}`);
  if (own(schema, '$ref') !== undefined) refuse('the schema uses $ref, which forms do not allow');
  const type = own(schema, 'type');
  if (type !== 'object') refuse(`the schema's type must be "object", not ${describe(type)}`);
  const properties = own(schema, 'properties');
  if (!isObject(properties)) refuse(`the schema's properties must be an object, not ${describe(properties)}`);
  const names = Object.keys(properties);
  if (names.length > MAX_FORM_FIELDS) refuse(`the schema has ${names.length} properties; a form may have at most 100`);
  const required = own(schema, 'required') ?? [];
  if (!isStringArray(required)) refuse('the schema\'s "required" must be a list of property names');
  const missing = required.find((name) => !Object.hasOwn(properties, name));
  if (missing !== undefined) refuse(`"required" names property ${quote(missing)}, which does not exist`);
  const requiredSet = new Set(required);
  return { fields: names.map((name) => readField(name, properties[name], requiredSet.has(name))) };
}

function readField(name: string, raw: unknown, required: boolean): FormField {
  const where = `property ${quote(name)}`;
  if (name === '' || name === '__proto__') refuse(`${where} has a name a form cannot use`);
  if (!isObject(raw)) refuse(`${where} must be a schema object, not ${describe(raw)}`);
  if (own(raw, '$ref') !== undefined) refuse(`${where} uses $ref, which forms do not allow`);
  const title = text(raw, 'title', where);
  const base = { name, label: title ?? name, description: text(raw, 'description', where), required };
  const type = own(raw, 'type');
  let field: FormField;
  if (type === 'string') field = readString(raw, base, where);
  else if (type === 'number' || type === 'integer') {
    field = { kind: 'number', ...base, integer: type === 'integer', ...limits(raw, where, 'minimum', 'maximum') };
  } else if (type === 'boolean') field = { kind: 'boolean', ...base };
  else if (type === 'array') field = readMultiSelect(raw, base, where);
  else if (type === 'object') refuse(`${where} is a nested object; a form is flat`);
  else refuse(`${where} has ${type === undefined ? 'no type' : `type ${describe(type)}, which forms do not support`}`);
  const fallback = own(raw, 'default') ?? undefined; // `default: null` (common from generated schemas) means none
  const problem = fallback === undefined ? undefined : checkValue(field, fallback);
  if (problem !== undefined) refuse(`${where} has a default that does not fit: ${problem}`);
  const complete = { ...field, default: Array.isArray(fallback) ? [...(fallback as unknown[])] : fallback };
  return Object.fromEntries(Object.entries(complete).filter(([, v]) => v !== undefined)) as unknown as FormField;
}

function readString(raw: Json, base: Base, where: string): TextField | SelectField {
  const oneOf = own(raw, 'oneOf');
  if (own(raw, 'enum') !== undefined && oneOf !== undefined) refuse(`${where} has both enum and oneOf; use one`);
  if (own(raw, 'enum') !== undefined) return { kind: 'select', ...base, options: plainOptions(raw, where) };
  if (own(raw, 'enumNames') !== undefined) refuse(`${where} has enumNames but no enum`);
  if (oneOf !== undefined) return { kind: 'select', ...base, options: titledOptions(oneOf, `${where}: oneOf`) };
  const format = text(raw, 'format', where);
  const multiline = format === 'textarea';
  if (format !== undefined && !multiline && !isTextFormat(format)) {
    refuse(`${where} has format ${quote(format)}; forms allow ${Object.keys(FORMAT_NAMES).join(', ')}`);
  }
  const known = multiline ? undefined : format;
  return { kind: 'text', ...base, ...limits(raw, where, 'minLength', 'maxLength'), format: known, multiline };
}

function readMultiSelect(raw: Json, base: Base, where: string): MultiSelectField {
  const items = own(raw, 'items');
  const shape = `${where} is an array whose items are not an enum of strings`;
  if (!isObject(items)) refuse(`${shape} (items is ${describe(items)})`);
  if (own(items, '$ref') !== undefined) refuse(`${where} uses $ref in items, which forms do not allow`);
  const type = own(items, 'type');
  if (type !== undefined && type !== 'string') refuse(`${shape} (items has type ${describe(type)})`);
  const anyOf = own(items, 'anyOf');
  let options: SelectOption[];
  if (own(items, 'enum') !== undefined) options = plainOptions(items, `${where}: items`);
  else if (anyOf !== undefined) options = titledOptions(anyOf, `${where}: items.anyOf`);
  else refuse(`${shape} (items has neither enum nor anyOf)`);
  return { kind: 'multiselect', ...base, options, ...limits(raw, where, 'minItems', 'maxItems') };
}

function plainOptions(raw: Json, where: string): SelectOption[] {
  const values = own(raw, 'enum');
  if (!Array.isArray(values) || values.length === 0) refuse(`${where}: enum must be a non-empty list`);
  const odd: unknown = values.find((v) => typeof v !== 'string');
  if (!isStringArray(values)) refuse(`${where}: enum values must be strings, not ${describe(odd)}`);
  const names = own(raw, 'enumNames');
  if (names !== undefined && !isStringArray(names)) refuse(`${where}: enumNames must be a list of strings`);
  if (names !== undefined && names.length !== values.length) {
    refuse(`${where}: enumNames has ${plural(names.length, 'name')} for ${values.length} enum values`);
  }
  const options = values.map((value, i) => ({ value, label: names?.[i] ?? value }));
  return distinct(options, where);
}

function titledOptions(list: unknown, where: string): SelectOption[] {
  if (!Array.isArray(list) || list.length === 0) refuse(`${where} must be a non-empty list of {const, title}`);
  const options = list.map((entry: unknown) => {
    const value = isObject(entry) ? own(entry, 'const') : undefined;
    if (typeof value !== 'string') refuse(`${where} entries must each have a string const, not ${describe(value)}`);
    return { value, label: text(entry as Json, 'title', where) ?? value };
  });
  return distinct(options, where);
}

function distinct(options: SelectOption[], where: string): SelectOption[] {
  const twice = options.find((o, i) => options.findIndex((p) => p.value === o.value) !== i);
  if (twice !== undefined) refuse(`${where}: option ${quote(twice.value)} appears more than once`);
  return options;
}

/** Reads a pair of bounds; lengths and item counts (all but minimum/maximum) must be whole and not negative. */
function limits<K extends string>(raw: Json, where: string, low: K, high: K): Partial<Record<K, number>> {
  const counts = low !== 'minimum';
  const [min, max] = [low, high].map((key) => {
    const v = own(raw, key);
    const fits = typeof v === 'number' && Number.isFinite(v) && (!counts || (Number.isInteger(v) && v >= 0));
    if (v === undefined || fits) return v;
    const kind = counts ? 'a whole number of 0 or more' : 'a number';
    return refuse(`${where}: ${key} must be ${kind}, not ${describe(v)}`);
  }) as [number | undefined, number | undefined];
  if (min !== undefined && max !== undefined && min > max) refuse(`${where}: ${low} ${min} is above ${high} ${max}`);
  return { [low]: min, [high]: max } as Partial<Record<K, number>>;
}

/** Why `value` does not fit `field`, or undefined when it does: one rule for defaults, typed input and answers. */
function checkValue(field: FormField, value: unknown): string | undefined {
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

function parseText(field: FormField, input: string): FieldInputResult {
  const { label } = field;
  switch (field.kind) {
    case 'text':
      return { ok: true, value: input };
    case 'number': {
      const value = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(input) ? Number(input) : NaN;
      if (Number.isFinite(value)) return { ok: true, value };
      return { ok: false, error: `${label} must be a number, not ${quote(input)}` };
    }
    case 'boolean': {
      const answer = input.toLowerCase();
      if (['y', 'yes', 'true', '1'].includes(answer)) return { ok: true, value: true };
      if (['n', 'no', 'false', '0'].includes(answer)) return { ok: true, value: false };
      return { ok: false, error: `${label}: answer yes or no, not ${quote(input)}` };
    }
    case 'select':
    case 'multiselect': {
      const pieces = field.kind === 'select' ? [input] : input.split(',').map((p) => p.trim());
      const values: string[] = [];
      for (const piece of pieces.filter((p) => p !== '')) {
        const lower = piece.toLowerCase();
        const option =
          field.options.find((o) => o.value === piece) ??
          field.options.find((o) => o.label.toLowerCase() === lower || o.value.toLowerCase() === lower) ??
          (/^\d+$/.test(piece) ? field.options[Number(piece) - 1] : undefined);
        const hint = `type its name or its number (1-${field.options.length})`;
        if (option === undefined) return { ok: false, error: `${label}: ${quote(piece)} is not an option; ${hint}` };
        if (!values.includes(option.value)) values.push(option.value);
      }
      return { ok: true, value: field.kind === 'select' ? values[0] : values };
    }
  }
}

function checkAnswer(model: FormModel, schema: unknown, content: unknown): FormAnswerResult {
  if (!isObject(content)) {
    return { ok: false, errors: { '': `the answer must be an object, not ${describe(content)}` } };
  }
  const fields = new Map(model.fields.map((f) => [f.name, f]));
  const errors = new Map<string, string>();
  const clean = new Map<string, unknown>();
  for (const key of Object.keys(content)) {
    const value = content[key];
    const field = fields.get(key);
    if (value === undefined) continue;
    const problem = field === undefined ? `${quote(key)} is not a field of this form` : checkValue(field, value);
    if (problem !== undefined) errors.set(key, problem);
    if (field !== undefined) clean.set(key, value);
  }
  for (const f of model.fields) if (f.required && !clean.has(f.name)) errors.set(f.name, `${f.label} is required`);
  const answer = Object.fromEntries(clean);
  const check = schemaCheck(schema);
  if (typeof check === 'string') errors.set('', check);
  else if (!check(answer)) {
    for (const error of check.errors ?? []) {
      const key = errorKey(error);
      const message = `${fields.get(key)?.label ?? 'The answer'} ${error.message ?? 'is invalid'}`;
      if (!errors.has(key)) errors.set(key, message);
    }
  }
  return errors.size === 0 ? { ok: true, content: answer } : { ok: false, errors: Object.fromEntries(errors) };
}

/** Compiled checks per schema object (a schema is checked once per answer attempt, often several times). */
const compiled = new WeakMap<object, ValidateFunction | string>();

/** The Ajv check of `requestedSchema`, keeping only the subset's keywords: unknown ones and `pattern` are ignored. */
function schemaCheck(schema: unknown): ValidateFunction | string {
  if (!isObject(schema)) return 'the form has no schema to check the answer against';
  let check = compiled.get(schema);
  if (check !== undefined) return check;
  const built = buildFormModel(schema);
  if (!built.ok) check = `the form's schema is outside what MCP forms allow: ${built.reason}`;
  else {
    const properties = own(schema, 'properties') as Json;
    const projected = {
      type: 'object',
      properties: Object.fromEntries(Object.keys(properties).map((n) => [n, projectProperty(properties[n] as Json)])),
      required: own(schema, 'required') ?? [],
      additionalProperties: false,
    };
    try {
      check = ajv.compile(projected);
    } catch (error) {
      check = `the form's schema does not compile: ${error instanceof Error ? error.message : String(error)}`;
    }
    ajv.removeSchema(projected); // Ajv caches by object identity; the WeakMap is the cache, Ajv's would only grow.
  }
  compiled.set(schema, check);
  return check;
}

function projectProperty(raw: Json): Json {
  const out = pick(raw, ['type', 'enum', 'minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems']);
  if (own(raw, 'format') !== 'textarea') Object.assign(out, pick(raw, ['format']));
  const consts = (list: unknown) => (Array.isArray(list) ? list.map((o) => pick(o as Json, ['const'])) : undefined);
  if (own(raw, 'oneOf') !== undefined) out['oneOf'] = consts(own(raw, 'oneOf'));
  const items = own(raw, 'items');
  if (!isObject(items)) return out;
  const anyOf = consts(own(items, 'anyOf'));
  return { ...out, uniqueItems: true, items: { ...pick(items, ['type', 'enum']), ...(anyOf ? { anyOf } : {}) } };
}

function errorKey(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const named = error.keyword === 'required' ? params['missingProperty'] : params['additionalProperty'];
  if (typeof named === 'string') return named;
  const first = error.instancePath.split('/')[1];
  return first === undefined ? '' : first.replaceAll('~1', '/').replaceAll('~0', '~');
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');
const isTextFormat = (value: string): value is TextFormat => Object.hasOwn(FORMAT_NAMES, value);
/** Own properties only: `__proto__`, `constructor` and the rest inherited from Object.prototype are never read. */
const own = (object: Json, key: string): unknown => (Object.hasOwn(object, key) ? object[key] : undefined);
const pick = (object: Json, keys: readonly string[]): Json =>
  Object.fromEntries(keys.filter((k) => own(object, k) !== undefined).map((k) => [k, own(object, k)]));
const quote = (value: string): string => JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value);
const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

function text(raw: Json, key: string, where: string): string | undefined {
  const value = own(raw, key);
  if (value === undefined || typeof value === 'string') return value;
  return refuse(`${where}: ${key} must be a string, not ${describe(value)}`);
}

function describe(value: unknown): string {
  if (value === undefined || value === null) return value === null ? 'null' : 'missing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : `a value of type ${typeof value}`;
}

import type { FieldBase, FormField, MultiSelectField, SelectField, SelectOption, TextField } from './form-field.js';
import { checkFieldValue, FORMAT_NAMES, isTextFormat } from './form-field.js';
import type { Json } from './form-json.js';
import { describe, isObject, isStringArray, own, plural, quote } from './form-json.js';

/** A server may ask for at most this many fields in one form; past it the request is refused, not rendered. */
export const MAX_FORM_FIELDS = 100;

/** A form-mode `requestedSchema` read into fields, in the schema's property order. */
export type FormModel = { fields: FormField[] };
/** A form model, or why the schema is outside what MCP forms allow. */
export type FormModelResult = { ok: true; model: FormModel } | { ok: false; reason: string };

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
  const problem = fallback === undefined ? undefined : checkFieldValue(field, fallback);
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

function text(raw: Json, key: string, where: string): string | undefined {
  const value = own(raw, key);
  if (value === undefined || typeof value === 'string') return value;
  return refuse(`${where}: ${key} must be a string, not ${describe(value)}`);
}

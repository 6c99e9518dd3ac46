import type { ErrorObject, ValidateFunction } from 'ajv';
import type { FormField } from './form-field.js';
import { checkFieldValue } from './form-field.js';
import type { Json } from './form-json.js';
import { describe, formAjv, isObject, own, pick, quote } from './form-json.js';
import type { FormModel } from './form-model.js';
import { buildFormModel } from './form-model.js';

/** A field's value as typed, or what is wrong with the input. */
export type FieldInputResult = { ok: true; value: unknown } | { ok: false; error: string };
/** The content that may be sent, or the problems with it by field name (`''` for the whole form). */
export type FormAnswerResult =
  { ok: true; content: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

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
  const problem = parsed.ok ? checkFieldValue(field, parsed.value) : undefined;
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
    const problem = field === undefined ? `${quote(key)} is not a field of this form` : checkFieldValue(field, value);
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
      check = formAjv.compile(projected);
    } catch (error) {
      check = `the form's schema does not compile: ${error instanceof Error ? error.message : String(error)}`;
    }
    formAjv.removeSchema(projected); // Ajv caches by object identity; the WeakMap is the cache, Ajv's would only grow.
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

import { describe, expect, it } from 'vitest';
import type { FormField } from './form-field.js';
import { buildFormModel, initialValues, MAX_FORM_FIELDS, type FormModel } from './form-model.js';
import { parseFieldInput, validateFormAnswer } from './form-validation.js';

/** The seed's R1 example: a required city and an optional temperature unit. */
const weatherSchema = {
  type: 'object',
  properties: {
    city: { type: 'string', description: 'Your city' },
    temperature_unit: { type: 'string', enum: ['C', 'F'] },
  },
  required: ['city'],
};

/** One property of every kind, with the limits and formats answers are checked against. */
const profileSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 5 },
    email: { type: 'string', title: 'Email', format: 'email' },
    site: { type: 'string', title: 'Site', format: 'uri' },
    birthday: { type: 'string', title: 'Birthday', format: 'date' },
    meeting: { type: 'string', title: 'Meeting', format: 'date-time' },
    age: { type: 'integer', title: 'Age', minimum: 0, maximum: 120 },
    ratio: { type: 'number', title: 'Ratio', minimum: 0.5, maximum: 1.5 },
    subscribe: { type: 'boolean', title: 'Subscribe' },
    unit: {
      type: 'string',
      title: 'Unit',
      oneOf: [
        { const: 'C', title: 'Celsius' },
        { const: 'F', title: 'Fahrenheit' },
      ],
    },
    colors: {
      type: 'array',
      title: 'Colors',
      items: { type: 'string', enum: ['red', 'green', 'blue'] },
      minItems: 1,
      maxItems: 2,
    },
  },
  required: ['name', 'age'],
};

function modelOf(schema: unknown): FormModel {
  const result = buildFormModel(schema);
  if (!result.ok) throw new Error(`expected the schema to build, got: ${result.reason}`);
  return result.model;
}

function fieldOf(property: unknown): FormField {
  const field = modelOf({ type: 'object', properties: { f: property } }).fields[0];
  if (field === undefined) throw new Error('expected one field');
  return field;
}

function reasonFor(schema: unknown): string {
  const result = buildFormModel(schema);
  return result.ok ? 'built without complaint' : result.reason;
}

const withProperty = (property: unknown, extra: object = {}) => ({
  type: 'object',
  properties: { x: property },
  ...extra,
});

describe('buildFormModel', () => {
  it('reads the seed example into a required text field and an optional select', () => {
    expect(buildFormModel(weatherSchema)).toEqual({
      ok: true,
      model: {
        fields: [
          { kind: 'text', name: 'city', label: 'city', description: 'Your city', required: true, multiline: false },
          {
            kind: 'select',
            name: 'temperature_unit',
            label: 'temperature_unit',
            required: false,
            options: [
              { value: 'C', label: 'C' },
              { value: 'F', label: 'F' },
            ],
          },
        ],
      },
    });
  });

  it('reads a string with its title, length bounds and format', () => {
    const property = {
      type: 'string',
      title: 'Work email',
      description: 'Where we write',
      minLength: 3,
      maxLength: 80,
    };
    expect(fieldOf({ ...property, format: 'email' })).toEqual({
      kind: 'text',
      name: 'f',
      label: 'Work email',
      description: 'Where we write',
      required: false,
      minLength: 3,
      maxLength: 80,
      format: 'email',
      multiline: false,
    });
    for (const format of ['uri', 'date', 'date-time'] as const) {
      expect(fieldOf({ type: 'string', format })).toMatchObject({ kind: 'text', format });
    }
  });

  it('turns format textarea into a multi-line text field with no format of its own', () => {
    const field = fieldOf({ type: 'string', format: 'textarea' });
    expect(field).toEqual({ kind: 'text', name: 'f', label: 'f', required: false, multiline: true });
  });

  it('reads numbers and integers with their bounds', () => {
    expect(fieldOf({ type: 'number', title: 'Ratio', minimum: -1.5, maximum: 2 })).toEqual({
      kind: 'number',
      name: 'f',
      label: 'Ratio',
      required: false,
      integer: false,
      minimum: -1.5,
      maximum: 2,
    });
    expect(fieldOf({ type: 'integer' })).toEqual({
      kind: 'number',
      name: 'f',
      label: 'f',
      required: false,
      integer: true,
    });
  });

  it('reads a boolean', () => {
    expect(fieldOf({ type: 'boolean', title: 'Agree' })).toEqual({
      kind: 'boolean',
      name: 'f',
      label: 'Agree',
      required: false,
    });
  });

  it('reads all three single-select forms with their labels', () => {
    const options = [
      { value: 'C', label: 'Celsius' },
      { value: 'F', label: 'Fahrenheit' },
    ];
    const titled = {
      type: 'string',
      oneOf: [
        { const: 'C', title: 'Celsius' },
        { const: 'F', title: 'Fahrenheit' },
      ],
    };
    const legacy = { type: 'string', enum: ['C', 'F'], enumNames: ['Celsius', 'Fahrenheit'] };
    expect(fieldOf(titled)).toMatchObject({ kind: 'select', options });
    expect(fieldOf(legacy)).toMatchObject({ kind: 'select', options });
    expect(fieldOf({ type: 'string', enum: ['C', 'F'] })).toMatchObject({
      kind: 'select',
      options: [
        { value: 'C', label: 'C' },
        { value: 'F', label: 'F' },
      ],
    });
  });

  it('reads both multi-select forms with their labels and item bounds', () => {
    const plain = { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1, maxItems: 2 };
    expect(fieldOf(plain)).toEqual({
      kind: 'multiselect',
      name: 'f',
      label: 'f',
      required: false,
      minItems: 1,
      maxItems: 2,
      options: [
        { value: 'a', label: 'a' },
        { value: 'b', label: 'b' },
      ],
    });
    const titled = {
      type: 'array',
      items: {
        anyOf: [
          { const: 'a', title: 'Apple' },
          { const: 'b', title: 'Banana' },
        ],
      },
    };
    expect(fieldOf(titled)).toMatchObject({
      kind: 'multiselect',
      options: [
        { value: 'a', label: 'Apple' },
        { value: 'b', label: 'Banana' },
      ],
    });
  });

  it('keeps the order of the properties and marks the required ones', () => {
    const model = modelOf(profileSchema);
    expect(model.fields.map((f) => [f.name, f.required])).toEqual([
      ['name', true],
      ['email', false],
      ['site', false],
      ['birthday', false],
      ['meeting', false],
      ['age', true],
      ['ratio', false],
      ['subscribe', false],
      ['unit', false],
      ['colors', false],
    ]);
  });

  it('ignores unknown keywords and pattern, which is not in the subset', () => {
    const field = fieldOf({ type: 'string', pattern: '^x', 'x-widget': { deep: [1, 2] }, examples: ['a'] });
    expect(field).toEqual({ kind: 'text', name: 'f', label: 'f', required: false, multiline: false });
  });

  it.each([
    ['a nested object', withProperty({ type: 'object', properties: {} }), /property "x" is a nested object/],
    ['a $ref in a property', withProperty({ $ref: '#/$defs/x' }), /property "x" uses \$ref/],
    ['a $ref at the root', { type: 'object', properties: {}, $ref: '#/x' }, /the schema uses \$ref/],
    ['an unknown type', withProperty({ type: 'date' }), /property "x" has type "date", which forms do not support/],
    ['a list of types', withProperty({ type: ['string', 'null'] }), /property "x" has type a list/],
    ['a missing type', withProperty({ enum: ['a'] }), /property "x" has no type/],
    [
      'an array of free strings',
      withProperty({ type: 'array', items: { type: 'string' } }),
      /property "x" is an array whose items are not an enum of strings/,
    ],
    [
      'an array of numbers',
      withProperty({ type: 'array', items: { type: 'number', enum: [1] } }),
      /property "x" is an array whose items are not an enum/,
    ],
    ['an array without items', withProperty({ type: 'array' }), /property "x" is an array whose items are not an enum/],
    [
      'enum values that are not strings',
      withProperty({ type: 'string', enum: ['a', 1] }),
      /property "x": enum values must be strings, not 1/,
    ],
    [
      'multi-select values that are not strings',
      withProperty({ type: 'array', items: { enum: ['a', null] } }),
      /property "x": items: enum values must be strings, not null/,
    ],
    [
      'titled options without a string const',
      withProperty({ type: 'string', oneOf: [{ const: 1, title: 'One' }] }),
      /property "x": oneOf entries must each have a string const/,
    ],
    ['an empty enum', withProperty({ type: 'string', enum: [] }), /property "x": enum must be a non-empty list/],
    [
      'the same option twice',
      withProperty({ type: 'string', enum: ['a', 'a'] }),
      /property "x": option "a" appears more than once/,
    ],
    [
      'enumNames of a different length',
      withProperty({ type: 'string', enum: ['a', 'b'], enumNames: ['A'] }),
      /property "x": enumNames has 1 name for 2 enum values/,
    ],
    [
      'enumNames without enum',
      withProperty({ type: 'string', enumNames: ['A'] }),
      /property "x" has enumNames but no enum/,
    ],
    [
      'a required property that does not exist',
      withProperty({ type: 'string' }, { required: ['x', 'ghost'] }),
      /"required" names property "ghost", which does not exist/,
    ],
    [
      'a required name only an object prototype has',
      withProperty({ type: 'string' }, { required: ['toString'] }),
      /"required" names property "toString"/,
    ],
    ['a required that is not a list', withProperty({ type: 'string' }, { required: 'x' }), /"required" must be a list/],
    ['a root that is not an object', null, /the schema must be an object, not null/],
    ['a root that is a list', [weatherSchema], /the schema must be an object, not a list/],
    ['a root of another type', { type: 'array', items: {} }, /the schema's type must be "object", not "array"/],
    ['a root without properties', { type: 'object' }, /the schema's properties must be an object, not missing/],
    [
      'a format outside the subset',
      withProperty({ type: 'string', format: 'hostname' }),
      /property "x" has format "hostname"/,
    ],
    [
      'a negative minLength',
      withProperty({ type: 'string', minLength: -1 }),
      /property "x": minLength must be a whole number/,
    ],
    [
      'a minimum above the maximum',
      withProperty({ type: 'number', minimum: 5, maximum: 1 }),
      /property "x": minimum 5 is above maximum 1/,
    ],
    [
      'a title that is not text',
      withProperty({ type: 'string', title: { en: 'X' } }),
      /property "x": title must be a string, not an object/,
    ],
  ])('refuses %s, naming what is wrong', (_case, schema, reason) => {
    expect(reasonFor(schema)).toMatch(reason);
  });

  it(`refuses more than ${MAX_FORM_FIELDS} properties`, () => {
    const properties = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`p${i}`, { type: 'boolean' }]));
    expect(reasonFor({ type: 'object', properties })).toMatch(/has 101 properties; a form may have at most 100/);
    delete properties['p100'];
    expect(buildFormModel({ type: 'object', properties }).ok).toBe(true);
  });

  it.each([
    ['text of the wrong type', { type: 'string', default: 5 }, /must be text, not 5/],
    ['text that is too long', { type: 'string', maxLength: 2, default: 'abc' }, /must be at most 2 characters long/],
    ['an email that is not one', { type: 'string', format: 'email', default: 'nobody' }, /must be an email address/],
    ['a number given as text', { type: 'number', default: '5' }, /must be a number, not "5"/],
    ['a number out of range', { type: 'number', maximum: 10, default: 11 }, /must be at most 10/],
    ['an integer with a fraction', { type: 'integer', default: 1.5 }, /must be a whole number, not 1.5/],
    ['a boolean given as text', { type: 'boolean', default: 'yes' }, /must be true or false, not "yes"/],
    [
      'a choice not among the options',
      { type: 'string', enum: ['a', 'b'], default: 'c' },
      /"c" is not one of the options \("a", "b"\)/,
    ],
    [
      'a multi-select that is not a list',
      { type: 'array', items: { enum: ['a'] }, default: 'a' },
      /must be a list of options/,
    ],
    [
      'a multi-select with a stranger',
      { type: 'array', items: { enum: ['a'] }, default: ['a', 'z'] },
      /"z" is not one of the options/,
    ],
    [
      'a multi-select with too many',
      { type: 'array', items: { enum: ['a', 'b'] }, maxItems: 1, default: ['a', 'b'] },
      /must have at most 1 choice/,
    ],
  ])('refuses a default that does not fit: %s', (_case, property, reason) => {
    expect(reasonFor(withProperty(property))).toMatch(
      new RegExp(`property "x" has a default that does not fit: .*${reason.source}`),
    );
  });

  it('reads a null default, as generated schemas often write it, as no default', () => {
    const model = modelOf(withProperty({ type: 'string', default: null }));
    expect(model.fields[0]).toEqual({ kind: 'text', name: 'x', label: 'x', required: false, multiline: false });
    expect(initialValues(model)).toEqual({});
  });

  it('refuses a property named __proto__ without touching any prototype', () => {
    const schema: unknown = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}');
    expect(reasonFor(schema)).toMatch(/property "__proto__" has a name a form cannot use/);
    expect(({} as Record<string, unknown>)['type']).toBeUndefined();
  });

  it('never throws on hostile input', () => {
    let deep: unknown = { type: 'object', properties: {} };
    for (let i = 0; i < 10_000; i++) deep = { type: 'object', properties: { a: deep } };
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic['properties'] = { self: cyclic };
    const getter = Object.defineProperty({ type: 'object' }, 'properties', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const trap = () => {
      throw new Error('trap');
    };
    const proxy = new Proxy({}, { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap });
    const hostile: unknown[] = [
      undefined,
      null,
      0,
      NaN,
      'object',
      true,
      [],
      [[[]]],
      () => ({}),
      Symbol('s'),
      deep,
      cyclic,
      getter,
      proxy,
    ];
    for (const input of hostile) {
      let result: ReturnType<typeof buildFormModel> | undefined;
      expect(() => (result = buildFormModel(input))).not.toThrow();
      expect(result).toMatchObject({ ok: false, reason: expect.any(String) });
    }
    expect(reasonFor(proxy)).toBe('the schema could not be read');
  });

  it('ignores deeply nested junk in keywords it does not read', () => {
    let junk: unknown = 'bottom';
    for (let i = 0; i < 10_000; i++) junk = { junk };
    expect(buildFormModel(withProperty({ type: 'string', 'x-junk': junk })).ok).toBe(true);
  });
});

describe('initialValues', () => {
  it('pre-fills every default, whatever the field type (SEP-1034)', () => {
    const model = modelOf({
      type: 'object',
      properties: {
        city: { type: 'string', default: 'Lisbon' },
        notes: { type: 'string', format: 'textarea', default: 'line one\nline two' },
        age: { type: 'integer', default: 30 },
        ratio: { type: 'number', default: 0.25 },
        agree: { type: 'boolean', default: false },
        subscribe: { type: 'boolean', default: true },
        unit: { type: 'string', oneOf: [{ const: 'C', title: 'Celsius' }], default: 'C' },
        legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['A', 'B'], default: 'b' },
        colors: { type: 'array', items: { enum: ['red', 'blue'] }, default: ['blue'] },
        fruit: { type: 'array', items: { anyOf: [{ const: 'a', title: 'Apple' }] }, default: [] },
      },
    });
    expect(initialValues(model)).toEqual({
      city: 'Lisbon',
      notes: 'line one\nline two',
      age: 30,
      ratio: 0.25,
      agree: false,
      subscribe: true,
      unit: 'C',
      legacy: 'b',
      colors: ['blue'],
      fruit: [],
    });
  });

  it('leaves fields without a default empty, booleans included', () => {
    const values = initialValues(modelOf(profileSchema));
    expect(values).toEqual({});
    expect('subscribe' in values).toBe(false);
  });

  it('hands out copies of list defaults, so editing them leaves the model alone', () => {
    const model = modelOf(withProperty({ type: 'array', items: { enum: ['a', 'b'] }, default: ['a'] }));
    (initialValues(model)['x'] as string[]).push('b');
    expect(initialValues(model)).toEqual({ x: ['a'] });
  });
});

describe('parseFieldInput', () => {
  const profile = modelOf(profileSchema);
  const fieldNamed = (name: string): FormField => {
    const field = profile.fields.find((f) => f.name === name);
    if (field === undefined) throw new Error(`no field ${name}`);
    return field;
  };
  const name = fieldNamed('name');
  const email = fieldNamed('email');
  const age = fieldNamed('age');
  const ratio = fieldNamed('ratio');
  const subscribe = fieldNamed('subscribe');
  const unit = fieldNamed('unit');
  const colors = fieldNamed('colors');

  it('takes text as typed and checks its limits', () => {
    expect(parseFieldInput(name, 'Ana')).toEqual({ ok: true, value: 'Ana' });
    expect(parseFieldInput(name, 'A')).toEqual({ ok: false, error: 'Name must be at least 2 characters long' });
    expect(parseFieldInput(email, 'ana@example.com')).toEqual({ ok: true, value: 'ana@example.com' });
    expect(parseFieldInput(email, 'ana')).toMatchObject({ ok: false, error: /Email must be an email address/ });
  });

  it('treats blank input as no value for every kind of field', () => {
    for (const field of [name, age, subscribe, unit, colors]) {
      expect(parseFieldInput(field, '   ')).toEqual({ ok: true, value: undefined });
    }
  });

  it.each([
    ['12', 12],
    [' 3 ', 3],
    ['+7', 7],
    ['1e2', 100],
  ])('parses the integer %j as %d', (input, value) => {
    expect(parseFieldInput(age, input)).toEqual({ ok: true, value });
  });

  it.each([
    ['12abc', 'Age must be a number, not "12abc"'],
    ['0x10', 'Age must be a number, not "0x10"'],
    ['1,5', 'Age must be a number, not "1,5"'],
    ['Infinity', 'Age must be a number, not "Infinity"'],
    ['1.5', 'Age must be a whole number, not 1.5'],
    ['121', 'Age must be at most 120'],
    ['-1', 'Age must be at least 0'],
  ])('refuses %j for an integer', (input, error) => {
    expect(parseFieldInput(age, input)).toEqual({ ok: false, error });
  });

  it('parses negative numbers when the field allows them', () => {
    expect(parseFieldInput(fieldOf({ type: 'integer' }), '-3')).toEqual({ ok: true, value: -3 });
    expect(parseFieldInput(fieldOf({ type: 'number' }), '-0.5e1')).toEqual({ ok: true, value: -5 });
  });

  it('parses fractions for a number and checks its range', () => {
    expect(parseFieldInput(ratio, '0.75')).toEqual({ ok: true, value: 0.75 });
    expect(parseFieldInput(ratio, '.5')).toEqual({ ok: true, value: 0.5 });
    expect(parseFieldInput(ratio, '2')).toEqual({ ok: false, error: 'Ratio must be at most 1.5' });
  });

  it.each(['y', 'yes', 'true', '1', 'Y', 'YES', 'True'])('reads %j as true', (input) => {
    expect(parseFieldInput(subscribe, input)).toEqual({ ok: true, value: true });
  });

  it.each(['n', 'no', 'false', '0', 'N', 'No', 'FALSE'])('reads %j as false', (input) => {
    expect(parseFieldInput(subscribe, input)).toEqual({ ok: true, value: false });
  });

  it('refuses a boolean answer that is neither yes nor no', () => {
    expect(parseFieldInput(subscribe, 'maybe')).toEqual({
      ok: false,
      error: 'Subscribe: answer yes or no, not "maybe"',
    });
  });

  it.each([
    ['F', 'F'],
    ['fahrenheit', 'F'],
    ['CELSIUS', 'C'],
    ['c', 'C'],
    ['2', 'F'],
  ])('picks an option typed as %j', (input, value) => {
    expect(parseFieldInput(unit, input)).toEqual({ ok: true, value });
  });

  it.each(['3', '0', 'Kelvin'])('refuses %j, which is no option', (input) => {
    expect(parseFieldInput(unit, input)).toEqual({
      ok: false,
      error: `Unit: "${input}" is not an option; type its name or its number (1-2)`,
    });
  });

  it('prefers an exact option value over an option number', () => {
    const field = fieldOf({ type: 'string', enum: ['2', '1'] });
    expect(parseFieldInput(field, '1')).toEqual({ ok: true, value: '1' });
  });

  it('reads a comma-separated multi-select, dropping repeats', () => {
    expect(parseFieldInput(colors, 'Red, 3')).toEqual({ ok: true, value: ['red', 'blue'] });
    expect(parseFieldInput(colors, 'red,red')).toEqual({ ok: true, value: ['red'] });
  });

  it('refuses a multi-select with an unknown option or too many', () => {
    expect(parseFieldInput(colors, 'red, pink')).toEqual({
      ok: false,
      error: 'Colors: "pink" is not an option; type its name or its number (1-3)',
    });
    expect(parseFieldInput(colors, '1,2,3')).toEqual({ ok: false, error: 'Colors must have at most 2 choices' });
  });
});

describe('validateFormAnswer', () => {
  const model = modelOf(profileSchema);
  const valid = {
    name: 'Ana',
    email: 'ana@example.com',
    site: 'https://example.com/ana',
    birthday: '1990-02-28',
    meeting: '2025-01-31T09:30:00Z',
    age: 34,
    ratio: 1,
    subscribe: false,
    unit: 'F',
    colors: ['red', 'blue'],
  };
  const check = (content: unknown) => validateFormAnswer(model, profileSchema, content);

  it('accepts a correct answer and drops undefined values', () => {
    expect(check(valid)).toEqual({ ok: true, content: valid });
    const sparse = check({ name: 'Ana', age: 0, unit: undefined });
    expect(sparse).toEqual({ ok: true, content: { name: 'Ana', age: 0 } });
    expect(sparse.ok && 'unit' in sparse.content).toBe(false);
  });

  it('accepts the seed example answered with only its required city', () => {
    const weather = modelOf(weatherSchema);
    expect(validateFormAnswer(weather, weatherSchema, { city: 'Porto' })).toEqual({
      ok: true,
      content: { city: 'Porto' },
    });
    expect(validateFormAnswer(weather, weatherSchema, { temperature_unit: 'K' })).toEqual({
      ok: false,
      errors: {
        city: 'city is required',
        temperature_unit: 'temperature_unit: "K" is not one of the options ("C", "F")',
      },
    });
  });

  it.each([
    ['a missing required field', { age: undefined }, { age: 'Age is required' }],
    ['an extra key', { nickname: 'Aninha' }, { nickname: '"nickname" is not a field of this form' }],
    ['text sent for an integer', { age: '5' }, { age: 'Age must be a number, not "5"' }],
    ['a number sent for text', { name: 42 }, { name: 'Name must be text, not 42' }],
    ['text sent for a boolean', { subscribe: 'true' }, { subscribe: 'Subscribe must be true or false, not "true"' }],
    ['null', { ratio: null }, { ratio: 'Ratio must be a number, not null' }],
    ['a fraction for an integer', { age: 1.5 }, { age: 'Age must be a whole number, not 1.5' }],
    ['a number below its minimum', { ratio: 0.25 }, { ratio: 'Ratio must be at least 0.5' }],
    ['a number above its maximum', { age: 130 }, { age: 'Age must be at most 120' }],
    ['text too short', { name: 'A' }, { name: 'Name must be at least 2 characters long' }],
    ['text too long', { name: 'Anabela' }, { name: 'Name must be at most 5 characters long' }],
    ['a bad email', { email: 'ana@' }, { email: 'Email must be an email address such as name@example.com' }],
    ['a relative uri', { site: 'example.com' }, { site: 'Site must be an absolute URI such as https://example.com/' }],
    ['an impossible date', { birthday: '1990-02-30' }, { birthday: 'Birthday must be a date such as 2025-01-31' }],
    [
      'a date-time without a time zone',
      { meeting: '2025-01-31T09:30:00' },
      { meeting: 'Meeting must be a date and time with a time zone such as 2025-01-31T09:30:00Z' },
    ],
    ['an option not allowed', { unit: 'Celsius' }, { unit: 'Unit: "Celsius" is not one of the options ("C", "F")' }],
    [
      'a multi-select item not allowed',
      { colors: ['red', 'pink'] },
      { colors: 'Colors: "pink" is not one of the options ("red", "green", "blue")' },
    ],
    [
      'a multi-select item twice',
      { colors: ['red', 'red'] },
      { colors: 'Colors lists the same option more than once' },
    ],
    ['too few multi-select items', { colors: [] }, { colors: 'Colors must have at least 1 choice' }],
    [
      'too many multi-select items',
      { colors: ['red', 'green', 'blue'] },
      { colors: 'Colors must have at most 2 choices' },
    ],
    [
      'a single option for a multi-select',
      { colors: 'red' },
      { colors: 'Colors must be a list of options, not "red"' },
    ],
  ])('rejects %s, keyed by its field', (_case, change, errors) => {
    expect(check({ ...valid, ...change })).toEqual({ ok: false, errors });
  });

  it('reports every problem at once', () => {
    expect(check({ name: 'A', ratio: 'x' })).toEqual({
      ok: false,
      errors: {
        name: 'Name must be at least 2 characters long',
        ratio: 'Ratio must be a number, not "x"',
        age: 'Age is required',
      },
    });
  });

  it.each([
    ['null', null],
    ['text', 'text'],
    ['a number', 42],
    ['a list', [valid]],
  ])('rejects content that is %s, as a whole-form error', (_case, content) => {
    expect(check(content)).toMatchObject({
      ok: false,
      errors: { '': expect.stringMatching(/^the answer must be an object/) },
    });
  });

  it('does not enforce pattern, which is not in the subset', () => {
    const schema = withProperty({ type: 'string', pattern: '^x' });
    expect(validateFormAnswer(modelOf(schema), schema, { x: 'abc' })).toEqual({ ok: true, content: { x: 'abc' } });
  });

  it('accepts plain strings in a multi-line field', () => {
    const schema = withProperty({ type: 'string', format: 'textarea' });
    expect(validateFormAnswer(modelOf(schema), schema, { x: 'one\ntwo' })).toEqual({
      ok: true,
      content: { x: 'one\ntwo' },
    });
  });

  it('checks the answer against the requested schema itself, not only the model', () => {
    const loose = modelOf(withProperty({ type: 'string', title: 'Code', maxLength: 10 }));
    const strict = withProperty({ type: 'string', maxLength: 3 });
    expect(validateFormAnswer(loose, strict, { x: 'abcdef' })).toEqual({
      ok: false,
      errors: { x: 'Code must NOT have more than 3 characters' },
    });
  });

  it('refuses to approve any answer when the requested schema is outside the subset', () => {
    const result = validateFormAnswer(
      modelOf(weatherSchema),
      { type: 'object', properties: { a: { type: 'object' } } },
      { city: 'Porto' },
    );
    expect(result).toEqual({
      ok: false,
      errors: { '': expect.stringMatching(/outside what MCP forms allow: property "a" is a nested object/) },
    });
  });

  it('reports a __proto__ key as an extra key without polluting any prototype', () => {
    const content: unknown = JSON.parse('{"name":"Ana","age":3,"__proto__":{"polluted":true}}');
    const result = check(content);
    expect(result).toEqual({ ok: false, errors: { ['__proto__']: '"__proto__" is not a field of this form' } });
    expect(result.ok || Object.keys(result.errors)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('never throws on hostile content', () => {
    const trap = () => {
      throw new Error('trap');
    };
    const proxy = new Proxy({}, { get: trap, ownKeys: trap, getOwnPropertyDescriptor: trap });
    expect(check(proxy)).toEqual({ ok: false, errors: { '': 'the answer could not be read' } });
    const cyclic: Record<string, unknown> = { name: 'Ana', age: 1 };
    cyclic['colors'] = [cyclic];
    expect(check(cyclic)).toMatchObject({
      ok: false,
      errors: { colors: expect.stringMatching(/is not one of the options/) },
    });
  });
});

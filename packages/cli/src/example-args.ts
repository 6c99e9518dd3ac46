import type { JsonSchema } from '@airlock/core';

/**
 * Arguments a tool's input schema accepts, for the "try:" hint: every required property with a plain value of its
 * type (the first of an enum, a default or example when the schema gives one). Optional properties are left out, so
 * the hint stays short and still passes the schema.
 */
export function exampleArgs(schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  const out: Record<string, unknown> = {};
  for (const name of required) {
    if (typeof name === 'string') out[name] = exampleValue(properties[name] ?? {});
  }
  return out;
}

function exampleValue(schema: JsonSchema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const type = Array.isArray(schema.type) ? (schema.type as unknown[])[0] : schema.type;
  switch (type) {
    case 'string':
      return 'hello';
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return exampleArgs(schema);
    case 'null':
      return null;
    default:
      return 'hello';
  }
}

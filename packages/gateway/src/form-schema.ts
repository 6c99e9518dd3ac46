import type { FormField, FormModel } from '@airlock/core';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/server';

type RequestedSchema = ElicitRequestFormParams['requestedSchema'];
type Property = RequestedSchema['properties'][string];

/**
 * Writes a form the host checked (a server's question) back as a form-mode `requestedSchema` for the gateway's own
 * client: the broker read the server's schema into the MCP subset, so what goes on is that subset and nothing else,
 * and the answer that comes back is checked by the broker against the same model.
 */
export function formSchema(model: FormModel): RequestedSchema {
  const properties: Record<string, Property> = {};
  for (const field of model.fields) properties[field.name] = property(field);
  const required = model.fields.filter((field) => field.required).map((field) => field.name);
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

function property(field: FormField): Property {
  const base = {
    ...(field.label !== field.name ? { title: field.label } : {}),
    ...(field.description !== undefined ? { description: field.description } : {}),
  };
  switch (field.kind) {
    case 'text':
      return {
        type: 'string',
        ...base,
        ...defined({ minLength: field.minLength, maxLength: field.maxLength, format: field.format }),
        ...defined({ default: field.default }),
      };
    case 'number':
      return {
        type: field.integer ? 'integer' : 'number',
        ...base,
        ...defined({ minimum: field.minimum, maximum: field.maximum, default: field.default }),
      };
    case 'boolean':
      return { type: 'boolean', ...base, ...defined({ default: field.default }) };
    case 'select':
      return {
        type: 'string',
        ...base,
        oneOf: field.options.map((option) => ({ const: option.value, title: option.label })),
        ...defined({ default: field.default }),
      };
    case 'multiselect':
      return {
        type: 'array',
        ...base,
        items: { anyOf: field.options.map((option) => ({ const: option.value, title: option.label })) },
        ...defined({ minItems: field.minItems, maxItems: field.maxItems, default: field.default }),
      };
  }
}

/** The entries whose value is set: an absent limit stays absent rather than `undefined` on the wire. */
function defined<T extends Record<string, unknown>>(entries: T): Partial<T> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined)) as Partial<T>;
}

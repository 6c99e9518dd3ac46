import type { FormField } from '@airlock/core';
import type { MessageKey } from '@airlock/core/i18n';
import type { FieldProblem } from './form-values.js';

const EXAMPLES = {
  email: 'name@example.com',
  uri: 'https://example.com/',
  date: '2025-01-31',
  'date-time': '2025-01-31 09:30',
} as const;

type Say = (key: MessageKey, params: Readonly<Record<string, string | number>>) => string;

/** A bound pair as one of three sentences: between, at least, at most. */
function bounded(
  say: Say,
  keys: readonly [MessageKey, MessageKey, MessageKey],
  field: string,
  min: number | undefined,
  max: number | undefined,
  number: (n: number) => string,
): string {
  if (min !== undefined && max !== undefined) return say(keys[0], { field, min: number(min), max: number(max) });
  if (min !== undefined) return say(keys[1], { field, min: number(min) });
  return say(keys[2], { field, max: number(max ?? 0) });
}

/**
 * What is wrong with a field, as a sentence that names it ("Age must be between 0 and 150."), in the element's
 * language: the text under the field and in the list of what keeps Submit unavailable.
 */
export function fieldErrorText(
  say: Say,
  field: FormField,
  problem: FieldProblem,
  number: (n: number) => string,
): string {
  const name = field.label;
  switch (problem) {
    case 'required':
      return say('mcp.elicitation.error.required', { field: name });
    case 'number':
      return say('mcp.elicitation.error.number', { field: name });
    case 'integer':
      return say('mcp.elicitation.error.integer', { field: name });
    case 'option':
      return say('mcp.elicitation.error.option', { field: name });
    case 'format':
      return field.kind === 'text' && field.format !== undefined
        ? say('mcp.elicitation.error.format', { field: name, example: EXAMPLES[field.format] })
        : say('mcp.elicitation.error.required', { field: name });
    case 'range':
      return field.kind === 'number'
        ? bounded(
            say,
            ['mcp.elicitation.error.between', 'mcp.elicitation.error.at_least', 'mcp.elicitation.error.at_most'],
            name,
            field.minimum,
            field.maximum,
            number,
          )
        : say('mcp.elicitation.error.number', { field: name });
    case 'length':
      return field.kind === 'text'
        ? bounded(
            say,
            [
              'mcp.elicitation.error.length_between',
              'mcp.elicitation.error.length_at_least',
              'mcp.elicitation.error.length_at_most',
            ],
            name,
            field.minLength,
            field.maxLength,
            number,
          )
        : say('mcp.elicitation.error.required', { field: name });
    case 'items':
      return field.kind === 'multiselect'
        ? bounded(
            say,
            [
              'mcp.elicitation.error.items_between',
              'mcp.elicitation.error.items_at_least',
              'mcp.elicitation.error.items_at_most',
            ],
            name,
            field.minItems,
            field.maxItems,
            number,
          )
        : say('mcp.elicitation.error.option', { field: name });
  }
}

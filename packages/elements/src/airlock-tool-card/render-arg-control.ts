import { html } from 'lit';
import type { TemplateResult } from 'lit';
import type { ArgRow } from './arg-rows.js';
import type { CardRenderContext } from './card-render-context.js';
import { prettyJson } from './copy-text.js';
import { renderBoundedText } from './render-text.js';
import { ARGS_TEXT_BOUNDS } from './text-head.js';

/**
 * One argument of the form view (R5) as a read-only control chosen from its schema: a switch for a boolean, a number
 * field for a number or integer, a segmented row of chips for an enum (the value picked), a date field for
 * `format: date` (a `date-time` keeps its offset as text), a text field for a short string; long strings, arrays and objects as text. The call
 * has run already, so nothing here can be changed; each control is labelled by its row (`id` is the label's).
 */
export function renderArgControl(ctx: CardRenderContext, row: ArgRow, labelId: string): TemplateResult {
  const { value, schema } = row;
  if (!row.present) return html`<span class="note" aria-labelledby=${labelId}>—</span>`;
  const choices = Array.isArray(schema['enum']) ? (schema['enum'] as unknown[]) : undefined;
  if (choices !== undefined && choices.length <= 12) {
    return html`<div class="chips" role="radiogroup" aria-readonly="true" aria-labelledby=${labelId}>
      ${choices.map((choice) => {
        const picked = Object.is(choice, value) || prettyJson(choice) === prettyJson(value);
        return html`<span
          class="choice ${picked ? 'picked' : ''}"
          role="radio"
          aria-checked=${picked ? 'true' : 'false'}
          aria-disabled=${picked ? 'false' : 'true'}
          >${typeof choice === 'string' ? choice : prettyJson(choice)}</span
        >`;
      })}
    </div>`;
  }
  if (typeof value === 'boolean') {
    return html`<label class="switch">
      <input type="checkbox" role="switch" .checked=${value} disabled aria-labelledby=${labelId} />
      <span class="track" aria-hidden="true"></span>
      <span class="switch-text" aria-hidden="true">${String(value)}</span>
    </label>`;
  }
  if (typeof value === 'number') {
    return html`<input class="field" type="number" readonly .value=${String(value)} aria-labelledby=${labelId} />`;
  }
  if (typeof value === 'string') {
    const date = dateInput(schema['format'], value);
    if (date !== undefined) {
      return html`<input class="field" type=${date.type} readonly .value=${date.value} aria-labelledby=${labelId} />`;
    }
    if (value.length <= 120 && !value.includes('\n')) {
      return html`<input class="field" type="text" readonly .value=${value} aria-labelledby=${labelId} />`;
    }
  }
  const text = typeof value === 'string' ? value : prettyJson(value);
  return html`<div class="value-text">
    ${renderBoundedText(ctx, `arg:${row.name}`, text, {
      kind: typeof value === 'string' ? 'plain' : 'monospace',
      bounds: ARGS_TEXT_BOUNDS,
      what: row.label,
    })}
  </div>`;
}

/** A date field for a `format: date` string it can show; undefined otherwise. */
function dateInput(format: unknown, value: string): { type: string; value: string } | undefined {
  if (format === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return { type: 'date', value };
  return undefined;
}

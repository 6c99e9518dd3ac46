import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { FormField } from '@airlock/core';
import type { RawValue } from './form-values.js';

/** At most this many options render as a radio group; more become a `<select>`. */
export const MAX_RADIO_OPTIONS = 4;

/** What a field's template needs from the dialog: the value, the visible error, and how to report edits. */
export interface FieldContext {
  value(field: FormField): RawValue;
  /** The error text to show (a touched invalid field, or the server's word on the previous answer). */
  error(field: FormField): string | undefined;
  /** Records an edit; `badInput` is true when a number input holds something that is not a number. */
  set(field: FormField, raw: RawValue, badInput?: boolean): void;
  /** Marks the field as visited, so its problems show. */
  touch(field: FormField): void;
}

const TEXT_TYPES = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' } as const;

/**
 * One field of the form, by kind: text (input of the format's type, or a textarea), number, switch, radio group
 * or select, checkbox group. Labels come from the server and render as text only. `id` is the dialog's own id for
 * the control (never the server's property name).
 *
 * Seed 001 R1 also lists a tag input for an array of strings and a fieldset for a nested object. MCP (2025-11-25 and
 * 2026-07-28) allows neither in `requestedSchema`: a flat object of primitives, and arrays only as a multi-select of
 * an enum (`items.enum` or titled `items.anyOf`), which is the checkbox group here. Core's form model refuses a free
 * string array or a nested object with a reason naming the property, so such a form is never half rendered.
 */
export function renderField(ctx: FieldContext, field: FormField, id: string): TemplateResult {
  const error = ctx.error(field);
  const describedBy = [field.description === undefined ? '' : `${id}-desc`, error === undefined ? '' : `${id}-err`]
    .filter((s) => s !== '')
    .join(' ');
  const a11y: A11y = {
    describedBy: describedBy === '' ? nothing : describedBy,
    invalid: error === undefined ? 'false' : 'true',
  };
  const label = html`${field.label}${field.required ? html`<span class="req" aria-hidden="true"> *</span>` : nothing}`;
  const after = html`${
    field.description === undefined
      ? nothing
      : html`<p id="${id}-desc" class="desc" part="description">${field.description}</p>`
  }
  ${error === undefined ? nothing : html`<p id="${id}-err" class="error" part="error">${error}</p>`}`;

  switch (field.kind) {
    case 'text':
    case 'number':
      return html`<div class="field" part="field">
        <label for=${id} part="label">${label}</label>${textControl(ctx, field, id, a11y)}${after}
      </div>`;
    case 'boolean':
      return html`<div class="field" part="field">
        <div class="switch">
          <input
            type="checkbox"
            role="switch"
            id=${id}
            .checked=${live(ctx.value(field) === true)}
            aria-required=${field.required ? 'true' : 'false'}
            aria-invalid=${a11y.invalid}
            aria-describedby=${a11y.describedBy}
            @change=${(e: Event) => {
              ctx.set(field, (e.target as HTMLInputElement).checked);
              ctx.touch(field);
            }}
          />
          <label for=${id} part="label">${label}</label>
        </div>
        ${after}
      </div>`;
    case 'select':
      return field.options.length <= MAX_RADIO_OPTIONS
        ? radioGroup(ctx, field, id, label, after, a11y)
        : html`<div class="field" part="field">
            <label for=${id} part="label">${label}</label>
            <select
              id=${id}
              ?required=${field.required}
              aria-required=${field.required ? 'true' : 'false'}
              aria-invalid=${a11y.invalid}
              aria-describedby=${a11y.describedBy}
              @change=${(e: Event) => {
                ctx.set(field, (e.target as HTMLSelectElement).value || undefined);
                ctx.touch(field);
              }}
              @blur=${() => ctx.touch(field)}
            >
              <option value="" .selected=${live(ctx.value(field) === undefined)}></option>
              ${field.options.map(
                (o) =>
                  html`<option .value=${o.value} .selected=${live(ctx.value(field) === o.value)}>${o.label}</option>`,
              )}
            </select>
            ${after}
          </div>`;
    case 'multiselect': {
      const chosen = (ctx.value(field) as readonly string[] | undefined) ?? [];
      return html`<fieldset class="field" part="field" aria-describedby=${a11y.describedBy}>
        <legend part="label">${label}</legend>
        ${field.options.map(
          (o, i) =>
            html`<div class="choice">
              <input
                type="checkbox"
                id="${id}-${i}"
                .checked=${live(chosen.includes(o.value))}
                aria-invalid=${a11y.invalid}
                @change=${(e: Event) => {
                  const on = (e.target as HTMLInputElement).checked;
                  const now = (ctx.value(field) as readonly string[] | undefined) ?? [];
                  const next = field.options.map((p) => p.value).filter((v) => (v === o.value ? on : now.includes(v)));
                  ctx.set(field, next);
                  ctx.touch(field);
                }}
              />
              <label for="${id}-${i}">${o.label}</label>
            </div>`,
        )}
        ${after}
      </fieldset>`;
    }
  }
}

type A11y = { describedBy: string | typeof nothing; invalid: string };

function textControl(
  ctx: FieldContext,
  field: Extract<FormField, { kind: 'text' | 'number' }>,
  id: string,
  a11y: A11y,
): TemplateResult {
  const value = typeof ctx.value(field) === 'string' ? (ctx.value(field) as string) : '';
  const onInput = (e: Event) => {
    const input = e.target as HTMLInputElement | HTMLTextAreaElement;
    ctx.set(field, input.value, input instanceof HTMLInputElement && input.validity.badInput);
  };
  if (field.kind === 'text' && field.multiline) {
    return html`<textarea
      id=${id}
      rows="4"
      .value=${live(value)}
      ?required=${field.required}
      aria-required=${field.required ? 'true' : 'false'}
      aria-invalid=${a11y.invalid}
      aria-describedby=${a11y.describedBy}
      @input=${onInput}
      @blur=${() => ctx.touch(field)}
    ></textarea>`;
  }
  const number = field.kind === 'number';
  const type = number ? 'number' : field.format === undefined ? 'text' : TEXT_TYPES[field.format];
  return html`<input
    id=${id}
    type=${type}
    .value=${live(value)}
    min=${number && field.minimum !== undefined ? field.minimum : nothing}
    max=${number && field.maximum !== undefined ? field.maximum : nothing}
    step=${number ? (field.integer ? '1' : 'any') : type === 'datetime-local' ? '1' : nothing}
    inputmode=${number ? (field.integer ? 'numeric' : 'decimal') : nothing}
    ?required=${field.required}
    aria-required=${field.required ? 'true' : 'false'}
    aria-invalid=${a11y.invalid}
    aria-describedby=${a11y.describedBy}
    @input=${onInput}
    @blur=${() => ctx.touch(field)}
  />`;
}

function radioGroup(
  ctx: FieldContext,
  field: Extract<FormField, { kind: 'select' }>,
  id: string,
  label: TemplateResult,
  after: TemplateResult,
  a11y: A11y,
): TemplateResult {
  return html`<fieldset
    class="field"
    part="field"
    role="radiogroup"
    aria-required=${field.required ? 'true' : 'false'}
    aria-invalid=${a11y.invalid}
    aria-describedby=${a11y.describedBy}
  >
    <legend part="label">${label}</legend>
    ${field.options.map(
      (o, i) =>
        html`<div class="choice">
          <input
            type="radio"
            id="${id}-${i}"
            name=${id}
            .value=${o.value}
            .checked=${live(ctx.value(field) === o.value)}
            @change=${() => {
              ctx.set(field, o.value);
              ctx.touch(field);
            }}
          />
          <label for="${id}-${i}">${o.label}</label>
        </div>`,
    )}
    ${after}
  </fieldset>`;
}

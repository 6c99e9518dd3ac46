import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { CardRenderContext } from './card-render-context.js';
import { argRows } from './arg-rows.js';
import type { ArgRow } from './arg-rows.js';
import { prettyJson } from './copy-text.js';
import { renderBoundedText, renderCopyButton } from './render-text.js';
import { ARGS_TEXT_BOUNDS } from './text-head.js';

/** How the arguments show: the raw JSON, or one read-only row per property of the input schema. */
export type ArgsView = 'json' | 'form';

/** The body of the open arguments section: the JSON/Form toggle, a copy of the full JSON, and the chosen view. */
export function renderArgs(
  ctx: CardRenderContext,
  options: {
    readonly args: Readonly<Record<string, unknown>>;
    readonly json: string;
    readonly schema: Readonly<Record<string, unknown>> | undefined;
    readonly view: ArgsView;
    readonly setView: (view: ArgsView) => void;
  },
): TemplateResult {
  const { view, setView } = options;
  const body =
    view === 'json'
      ? renderBoundedText(ctx, 'args', options.json, { markdown: false, bounds: ARGS_TEXT_BOUNDS })
      : renderForm(ctx, argRows(options.args, options.schema));
  return html`<div class="toolbar">
      <div class="segmented" role="group" aria-label=${ctx.t('mcp.card.arguments')}>
        <button type="button" data-view="json" aria-pressed=${view === 'json'} @click=${() => setView('json')}>
          ${ctx.t('mcp.card.view.json')}
        </button>
        <button type="button" data-view="form" aria-pressed=${view === 'form'} @click=${() => setView('form')}>
          ${ctx.t('mcp.card.view.form')}
        </button>
      </div>
      ${renderCopyButton(ctx, 'args', () => options.json)}
    </div>
    <div class="args-body">${body}</div>`;
}

function renderForm(ctx: CardRenderContext, rows: readonly ArgRow[]): TemplateResult {
  return html`<dl class="form">
    ${rows.map(
      (row) =>
        html`<div class="row">
          <dt>
            <span class="label">${row.label}</span>${
              row.required
                ? html`<span class="required" aria-hidden="true">*</span
                    ><span class="sr-only">${ctx.t('mcp.elicitation.field_required')}</span>`
                : nothing
            }
            ${row.description === undefined ? nothing : html`<span class="help">${row.description}</span>`}
          </dt>
          <dd>
            ${
              row.present
                ? renderBoundedText(ctx, `arg:${row.name}`, valueText(row.value), {
                    markdown: false,
                    bounds: ARGS_TEXT_BOUNDS,
                  })
                : html`<span class="note">—</span>`
            }
          </dd>
        </div>`,
    )}
  </dl>`;
}

function valueText(value: unknown): string {
  return typeof value === 'string' ? value : prettyJson(value);
}

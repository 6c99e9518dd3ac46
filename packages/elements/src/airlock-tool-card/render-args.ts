import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { CardRenderContext } from './card-render-context.js';
import { argRows } from './arg-rows.js';
import type { ArgRow } from './arg-rows.js';
import { renderArgControl } from './render-arg-control.js';
import { renderBoundedText, renderCopyButton } from './render-text.js';
import { ARGS_TEXT_BOUNDS } from './text-head.js';

/** How the arguments show: the raw JSON, or one read-only control per property of the input schema. */
export type ArgsView = 'json' | 'form';

/** The body of the open arguments section: the JSON/Form toggle, one copy of the full JSON, and the chosen view. */
export function renderArgs(
  ctx: CardRenderContext,
  options: {
    readonly args: Readonly<Record<string, unknown>>;
    readonly json: string;
    readonly schema: Readonly<Record<string, unknown>> | undefined;
    readonly view: ArgsView;
    readonly setView: (view: ArgsView) => void;
    /** Prefix for the ids the form's labels get (unique within the card's shadow root). */
    readonly idPrefix: string;
  },
): TemplateResult {
  const { view, setView } = options;
  const arguments_ = ctx.t('mcp.card.arguments');
  const body =
    view === 'json'
      ? renderBoundedText(ctx, 'args', options.json, { kind: 'monospace', bounds: ARGS_TEXT_BOUNDS, what: arguments_ })
      : renderForm(ctx, argRows(options.args, options.schema), options.idPrefix);
  return html`<div class="toolbar">
      <div class="segmented" role="group" aria-label=${arguments_}>
        <button type="button" data-view="json" aria-pressed=${view === 'json'} @click=${() => setView('json')}>
          ${ctx.t('mcp.card.view.json')}
        </button>
        <button type="button" data-view="form" aria-pressed=${view === 'form'} @click=${() => setView('form')}>
          ${ctx.t('mcp.card.view.form')}
        </button>
      </div>
      ${renderCopyButton(ctx, 'args', ctx.t('mcp.card.copy_args'), () => options.json)}
    </div>
    <div class="args-body">${body}</div>`;
}

function renderForm(ctx: CardRenderContext, rows: readonly ArgRow[], idPrefix: string): TemplateResult {
  return html`<div class="form">
    ${rows.map((row, index) => {
      const labelId = `${idPrefix}-arg-${index}`;
      return html`<div class="row" data-arg=${row.name}>
        <div class="row-label">
          <span class="label" id=${labelId}
            >${row.label}${
              row.required
                ? html`<span class="required" aria-hidden="true">*</span
                    ><span class="sr-only"> (${ctx.t('mcp.elicitation.field_required')})</span>`
                : nothing
            }</span
          >
          ${row.description === undefined ? nothing : html`<span class="help">${row.description}</span>`}
        </div>
        <div class="row-value">${renderArgControl(ctx, row, labelId)}</div>
      </div>`;
    })}
  </div>`;
}

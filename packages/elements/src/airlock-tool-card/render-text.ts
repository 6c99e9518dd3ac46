import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { CardRenderContext } from './card-render-context.js';
import { MARKDOWN_MAX_CHARS, textHead } from './text-head.js';
import type { TextBounds } from './text-head.js';

/**
 * A text that collapses past its bounds: only the head is rendered (and, for markdown, parsed) until "show more".
 * Markdown goes through `markdownToSafeHtml` (the only HTML the card ever renders); past `MARKDOWN_MAX_CHARS` the
 * expanded text is plain preformatted text.
 */
export function renderBoundedText(
  ctx: CardRenderContext,
  key: string,
  text: string,
  options: { readonly markdown: boolean; readonly bounds: TextBounds },
): TemplateResult {
  const head = textHead(text, options.bounds);
  const expanded = head !== undefined && ctx.isExpanded(key);
  const shown = head === undefined || expanded ? text : head;
  const body =
    options.markdown && shown.length <= MARKDOWN_MAX_CHARS
      ? html`<div class="markdown">${unsafeHTML(ctx.markdown(shown))}</div>`
      : html`<pre class="plain">${shown}</pre>`;
  if (head === undefined) return body;
  const note = ctx.t('mcp.card.truncated', { shown: ctx.number(head.length), total: ctx.number(text.length) });
  return html`${body}
    <div class="more">
      ${expanded ? nothing : html`<span class="note">${note}</span>`}
      <button
        type="button"
        class="text-button"
        data-action="more"
        aria-expanded=${expanded ? 'true' : 'false'}
        @click=${() => ctx.toggle(key)}
      >
        ${ctx.t(expanded ? 'mcp.card.show_less' : 'mcp.card.show_more')}
      </button>
    </div>`;
}

/** A "Copy" button; `text` is read only when pressed, so a 5 MB value costs nothing until then. */
export function renderCopyButton(ctx: CardRenderContext, key: string, text: () => string): TemplateResult {
  return html`<button type="button" class="text-button" data-copy=${key} @click=${() => ctx.copy(key, text())}>
    ${ctx.t(ctx.copied(key) ? 'mcp.card.copied' : 'mcp.card.copy')}
  </button>`;
}

import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { CardRenderContext } from './card-render-context.js';
import { copiedIcon, copyIcon } from './card-icons.js';
import { collapseText, MARKDOWN_MAX_CHARS } from './text-head.js';
import type { TextBounds } from './text-head.js';
import type { TextKind } from './text-kind.js';

/**
 * A text that collapses past its bounds (R4): while collapsed it is clipped to `bounds.lines` lines on screen but
 * held in the element (up to `bounds.domChars`), so find-in-page and screen readers reach it; "show more" unclips it
 * (and renders the rest of a text too long to hold). Markdown goes through `markdownToSafeHtml` (the only HTML the
 * card ever renders); plain text keeps its line breaks; past `MARKDOWN_MAX_CHARS` markdown is shown as plain text.
 * `what` names the text in the "show more" button's accessible name, so several on one card are told apart.
 */
export function renderBoundedText(
  ctx: CardRenderContext,
  key: string,
  text: string,
  options: { readonly kind: TextKind; readonly bounds: TextBounds; readonly what: string },
): TemplateResult {
  const collapsed = collapseText(text, options.bounds);
  const expanded = collapsed !== undefined && ctx.isExpanded(key);
  const shown = collapsed === undefined || expanded ? text : collapsed.held;
  const clip = collapsed !== undefined && !expanded;
  const style = clip ? `--_lines: ${options.bounds.lines}` : '';
  const body =
    options.kind === 'markdown' && shown.length <= MARKDOWN_MAX_CHARS
      ? html`<div class="markdown ${clip ? 'clipped' : ''}" style=${style}>${unsafeHTML(ctx.markdown(shown))}</div>`
      : options.kind === 'plain'
        ? html`<div class="plain-text ${clip ? 'clipped' : ''}" style=${style}>${shown}</div>`
        : html`<pre class="plain ${clip ? 'clipped' : ''}" style=${style}>${shown}</pre>`;
  if (collapsed === undefined) return body;
  const note =
    !expanded && collapsed.held.length < text.length
      ? ctx.t('mcp.card.truncated', { shown: ctx.number(collapsed.held.length), total: ctx.number(text.length) })
      : undefined;
  const label = ctx.t(expanded ? 'mcp.card.show_less' : 'mcp.card.show_more');
  return html`${body}
    <div class="more">
      <button
        type="button"
        class="link-button"
        data-action="more"
        aria-label=${`${label} (${options.what})`}
        aria-expanded=${expanded ? 'true' : 'false'}
        @click=${() => ctx.toggle(key)}
      >
        ${label}
      </button>
      ${note === undefined ? nothing : html`<span class="note">${note}</span>`}
    </div>`;
}

/**
 * The one compact copy control of a block: an icon button whose accessible name says what it copies ("Copy
 * arguments", "Copy block 2", "Copy result"). `text` is read only when pressed, so a 5 MB value costs nothing until
 * then.
 */
export function renderCopyButton(
  ctx: CardRenderContext,
  key: string,
  name: string,
  text: () => string,
): TemplateResult {
  const copied = ctx.copied(key);
  return html`<button
    type="button"
    class="icon-button copy"
    data-copy=${key}
    data-copied=${copied ? 'true' : 'false'}
    aria-label=${name}
    title=${copied ? ctx.t('mcp.card.copied') : name}
    @click=${() => ctx.copy(key, text())}
  >
    ${copied ? copiedIcon() : copyIcon()}<span class="copied-note" aria-live="polite"
      >${copied ? ctx.t('mcp.card.copied') : ''}</span
    >
  </button>`;
}

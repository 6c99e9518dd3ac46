import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { ScreenBlock, ScreenPayload } from '@airlock/core';
import type { CardRenderContext } from './card-render-context.js';
import { blockCopyText, prettyJson, resultCopyText } from './copy-text.js';
import { audioDataUrl, base64Bytes, imageDataUrl, isLargeImage } from './media-policy.js';
import { linkIcon } from './card-icons.js';
import { codeLanguage } from './code-language.js';
import { renderBoundedText, renderCopyButton } from './render-text.js';
import { RESULT_TEXT_BOUNDS } from './text-head.js';
import { textKind } from './text-kind.js';

type Block<T extends ScreenBlock['type']> = Extract<ScreenBlock, { type: T }>;
type MediaBlock = Extract<ScreenBlock, { type: 'image' | 'audio' }>;

/** Per render: the block's key and number (for names), and whether it gets a copy control of its own. */
interface BlockPlace {
  readonly key: string;
  readonly index: number;
  readonly ownCopy: boolean;
}

/**
 * The result body: every block in order with a divider between, then the structured content as JSON, then one
 * "copy" for the whole result (the host's `fullText` when given). A block has its own copy control only when the
 * result has more than one thing to copy, so no two controls of a card copy the same text under the same name.
 */
export function renderResultBlocks(
  ctx: CardRenderContext,
  result: ScreenPayload,
  fullText: string | undefined,
): TemplateResult {
  const copyable =
    result.blocks.filter((block) => blockCopyText(block) !== undefined).length +
    (result.structuredContent === undefined ? 0 : 1);
  const ownCopy = copyable > 1;
  const items = result.blocks.map((block, index) =>
    renderBlock(ctx, block, { key: `block-${index}`, index: index + 1, ownCopy }),
  );
  if (result.structuredContent !== undefined) {
    items.push(
      renderStructured(ctx, result.structuredContent, { key: 'structured', index: items.length + 1, ownCopy }),
    );
  }
  return html`${items.map((item, index) => html`${index > 0 ? html`<hr />` : nothing}${item}`)}
    <div class="actions result-actions">
      ${renderCopyButton(ctx, 'result', ctx.t('mcp.card.copy_result'), () => resultCopyText(result, fullText))}
    </div>`;
}

function blockCopy(ctx: CardRenderContext, place: BlockPlace, text: () => string) {
  if (!place.ownCopy) return nothing;
  return renderCopyButton(ctx, place.key, ctx.t('mcp.card.copy_block', { index: place.index }), text);
}

function what(ctx: CardRenderContext, place: BlockPlace): string {
  return ctx.t('mcp.card.block', { index: place.index });
}

function renderBlock(ctx: CardRenderContext, block: ScreenBlock, place: BlockPlace): TemplateResult {
  switch (block.type) {
    case 'text':
      return renderTextBlock(ctx, block, place);
    case 'image':
      return html`<div class="block image" part="block">
        ${renderImage(ctx, block.mimeType, block.bytes, block.data)}
      </div>`;
    case 'audio':
      return renderAudio(ctx, block);
    case 'resource_link':
      return renderResourceLink(ctx, block, place);
    case 'resource':
      return renderResource(ctx, block, place);
  }
}

function renderTextBlock(ctx: CardRenderContext, block: Block<'text'>, place: BlockPlace): TemplateResult {
  const text = shownText(ctx, block, place);
  const kind = textKind(text);
  return html`<div class="block text" part="block" data-kind=${kind}>
    ${blockCopy(ctx, place, () => text)}
    ${renderBoundedText(ctx, place.key, text, { kind, bounds: RESULT_TEXT_BOUNDS, what: what(ctx, place) })}
    ${cutByHost(ctx, block, place, text.length)}
  </div>`;
}

/** A block's text as shown: the whole text once the host gave it after "show all", else the screen payload's. */
function shownText(ctx: CardRenderContext, block: { readonly text?: string | undefined }, place: BlockPlace): string {
  return ctx.wholeText(place.index - 1) ?? block.text ?? '';
}

/**
 * The screen payload itself was cut by the host (its budget): say how much shows and offer "show all", which asks
 * the host for the block's whole text behind the handle (R4). Once the whole text is shown, nothing is said.
 */
function cutByHost(
  ctx: CardRenderContext,
  block: { readonly truncated?: boolean | undefined; readonly totalChars?: number | undefined },
  place: BlockPlace,
  shown: number,
) {
  const total = block.totalChars;
  if (block.truncated !== true || total === undefined || shown >= total) return nothing;
  const index = place.index - 1;
  const loading = ctx.loadingAll(index);
  const failed = ctx.showAllError(index);
  return html`<p class="note cut-note">
    <span>${ctx.t('mcp.card.truncated', { shown: ctx.number(shown), total: ctx.number(total) })}</span>
    <button
      type="button"
      class="link-button"
      data-action="show-all"
      aria-label=${`${ctx.t('mcp.card.show_all', { total: ctx.number(total) })} (${what(ctx, place)})`}
      ?disabled=${loading}
      @click=${() => ctx.showAll(index)}
    >
      ${ctx.t('mcp.card.show_all', { total: ctx.number(total) })}
    </button>
    <span class="loading-all" aria-live="polite">${loading ? ctx.t('mcp.card.loading_all') : ''}</span>
    ${
      failed === undefined
        ? nothing
        : html`<span class="show-all-failed" role="alert"
            >${ctx.t('mcp.card.show_all_failed', { reason: failed })}</span
          >`
    }
  </p>`;
}

/**
 * An image of a shown type as an inline data: URL that opens full size (a dialog) on click; above 500 KB a thumbnail
 * first. Other types, malformed data, or data the host left out are described, never rendered.
 */
function renderImage(
  ctx: CardRenderContext,
  mimeType: string | undefined,
  declaredBytes: number,
  data: string | undefined,
): TemplateResult {
  const bytes = Math.max(declaredBytes, data === undefined ? 0 : base64Bytes(data));
  const label = ctx.t('mcp.card.image', { mime: mimeType ?? '?', size: ctx.bytes(bytes) });
  if (data === undefined) {
    return html`<p class="note">${ctx.t('mcp.card.image_too_large', { size: ctx.bytes(bytes) })}</p>`;
  }
  const src = imageDataUrl(mimeType, data);
  if (src === undefined) return html`<p class="note">${label}</p>`;
  if (!isLargeImage(bytes)) {
    return html`<button
      type="button"
      class="image-button"
      data-action="open-full"
      aria-label=${`${ctx.t('mcp.card.open_full')}: ${label}`}
      @click=${() => ctx.openImage(src, label)}
    >
      <img class="inline-image" src=${src} alt="" />
    </button>`;
  }
  return html`<figure class="thumbnail">
    <img class="thumb" src=${src} alt=${label} />
    <figcaption>
      <button type="button" class="text-button" data-action="open-full" @click=${() => ctx.openImage(src, label)}>
        ${ctx.t('mcp.card.open_full')}
      </button>
    </figcaption>
  </figure>`;
}

function renderAudio(ctx: CardRenderContext, block: MediaBlock): TemplateResult {
  const label = ctx.t('mcp.card.audio', { mime: block.mimeType, size: ctx.bytes(block.bytes) });
  const src = audioDataUrl(block.mimeType, block.data);
  return html`<div class="block audio" part="block">
    ${src === undefined ? nothing : html`<audio controls preload="metadata" src=${src} aria-label=${label}></audio>`}
    <p class="note">${label}</p>
  </div>`;
}

/** A link the server named: a chip showing the name and URI. Never an anchor: nothing is opened or fetched. */
function renderResourceLink(ctx: CardRenderContext, block: Block<'resource_link'>, place: BlockPlace): TemplateResult {
  return html`<div class="block resource-link" part="block">
    ${blockCopy(ctx, place, () => block.uri)}
    <button type="button" class="chip link-chip" part="resource-link" @click=${() => ctx.openResource(block.uri)}>
      ${linkIcon()}
      <span>${ctx.t('mcp.card.resource_link', { name: block.title ?? block.name })}</span>
      <code class="uri">${block.uri}</code>
    </button>
  </div>`;
}

/** An embedded resource by type: markdown, other text as preformatted text, binary as a description. */
function renderResource(ctx: CardRenderContext, block: Block<'resource'>, place: BlockPlace): TemplateResult {
  const head = html`<p class="resource-head">
    <span class="chip">${ctx.t('mcp.card.resource', { uri: block.uri })}</span>
  </p>`;
  if (block.text !== undefined) {
    const text = shownText(ctx, block, place);
    const language = codeLanguage(block.mimeType, block.uri);
    const kind = language === undefined ? textKind(text, block.mimeType ?? 'application/octet-stream') : 'monospace';
    return html`<div class="block resource" part="block" data-kind=${kind}>
      ${blockCopy(ctx, place, () => text)} ${head}
      ${language === undefined ? nothing : html`<p class="code-label">${ctx.t('mcp.card.code', { language })}</p>`}
      ${
        language === undefined
          ? renderBoundedText(ctx, place.key, text, { kind, bounds: RESULT_TEXT_BOUNDS, what: what(ctx, place) })
          : html`<div class="code-block" data-language=${language}>
              ${renderBoundedText(ctx, place.key, text, { kind, bounds: RESULT_TEXT_BOUNDS, what: what(ctx, place) })}
            </div>`
      }
      ${cutByHost(ctx, block, place, text.length)}
    </div>`;
  }
  const bytes = block.blobBytes ?? (block.blob === undefined ? 0 : base64Bytes(block.blob));
  const image = block.blob !== undefined && imageDataUrl(block.mimeType, block.blob) !== undefined;
  return html`<div class="block resource" part="block">
    ${head}
    ${
      image
        ? renderImage(ctx, block.mimeType, bytes, block.blob)
        : html`<p class="note">
            ${ctx.t('mcp.card.binary', { mime: block.mimeType ?? 'application/octet-stream', size: ctx.bytes(bytes) })}
          </p>`
    }
  </div>`;
}

function renderStructured(ctx: CardRenderContext, value: unknown, place: BlockPlace): TemplateResult {
  const json = prettyJson(value);
  return html`<div class="block structured" part="block">
    ${blockCopy(ctx, place, () => json)}
    ${renderBoundedText(ctx, place.key, json, { kind: 'monospace', bounds: RESULT_TEXT_BOUNDS, what: what(ctx, place) })}
  </div>`;
}

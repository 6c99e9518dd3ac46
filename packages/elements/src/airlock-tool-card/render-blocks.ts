import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { ScreenBlock, ScreenPayload } from '@airlock/core';
import type { CardRenderContext } from './card-render-context.js';
import { blockCopyText, prettyJson, resultCopyText } from './copy-text.js';
import { audioDataUrl, base64Bytes, imageDataUrl, isLargeImage } from './media-policy.js';
import { renderBoundedText, renderCopyButton } from './render-text.js';
import { RESULT_TEXT_BOUNDS } from './text-head.js';

type Block<T extends ScreenBlock['type']> = Extract<ScreenBlock, { type: T }>;
type MediaBlock = Extract<ScreenBlock, { type: 'image' | 'audio' }>;

const MARKDOWN_TYPE = /^text\/(?:x-)?markdown\s*(?:;|$)/i;

/**
 * The result body: every block in order with a divider between, then the structured content as JSON, then one
 * "copy" for the whole result (the host's `fullText` when given).
 */
export function renderResultBlocks(
  ctx: CardRenderContext,
  result: ScreenPayload,
  fullText: string | undefined,
): TemplateResult {
  const items = result.blocks.map((block, index) => renderBlock(ctx, block, `block-${index}`));
  if (result.structuredContent !== undefined) items.push(renderStructured(ctx, result.structuredContent));
  return html`${items.map((item, index) => html`${index > 0 ? html`<hr />` : nothing}${item}`)}
    <div class="actions result-actions">
      ${renderCopyButton(ctx, 'result', () => resultCopyText(result, fullText))}
    </div>`;
}

function renderBlock(ctx: CardRenderContext, block: ScreenBlock, key: string): TemplateResult {
  switch (block.type) {
    case 'text':
      return renderTextBlock(ctx, block, key);
    case 'image':
      return html`<div class="block image" part="block">
        ${renderImage(ctx, block.mimeType, block.bytes, block.data)}
      </div>`;
    case 'audio':
      return renderAudio(ctx, block);
    case 'resource_link':
      return renderResourceLink(ctx, block, key);
    case 'resource':
      return renderResource(ctx, block, key);
  }
}

function renderTextBlock(ctx: CardRenderContext, block: Block<'text'>, key: string): TemplateResult {
  return html`<div class="block text" part="block">
    ${renderBoundedText(ctx, key, block.text, { markdown: true, bounds: RESULT_TEXT_BOUNDS })}
    ${cutByHost(ctx, block.truncated, block.text.length, block.totalChars)}
    <div class="actions">${renderCopyButton(ctx, key, () => block.text)}</div>
  </div>`;
}

/** The screen payload itself was cut by the host (its budget): say so; "copy all" still copies the full text. */
function cutByHost(ctx: CardRenderContext, truncated: boolean | undefined, shown: number, total: number | undefined) {
  if (truncated !== true || total === undefined) return nothing;
  return html`<p class="note">
    ${ctx.t('mcp.card.truncated', { shown: ctx.number(shown), total: ctx.number(total) })}
  </p>`;
}

/**
 * An image of a shown type as an inline data: URL; above 500 KB a thumbnail and "open full size" (a dialog). Other
 * types, malformed data, or data the host left out are described, never rendered.
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
  if (!isLargeImage(bytes)) return html`<img class="inline-image" src=${src} alt=${label} />`;
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
function renderResourceLink(ctx: CardRenderContext, block: Block<'resource_link'>, key: string): TemplateResult {
  return html`<div class="block resource-link" part="block">
    <span class="chip link-chip">
      <span aria-hidden="true">🔗</span>
      <span>${ctx.t('mcp.card.resource_link', { name: block.title ?? block.name })}</span>
      <code class="uri">${block.uri}</code>
    </span>
    <div class="actions">${renderCopyButton(ctx, key, () => block.uri)}</div>
  </div>`;
}

/** An embedded resource by type: markdown, other text as preformatted text, binary as a description. */
function renderResource(ctx: CardRenderContext, block: Block<'resource'>, key: string): TemplateResult {
  const head = html`<p class="resource-head">
    <span class="chip">${ctx.t('mcp.card.resource', { uri: block.uri })}</span>
  </p>`;
  if (block.text !== undefined) {
    const text = block.text;
    const markdown = MARKDOWN_TYPE.test(block.mimeType ?? '');
    return html`<div class="block resource" part="block">
      ${head} ${renderBoundedText(ctx, key, text, { markdown, bounds: RESULT_TEXT_BOUNDS })}
      ${cutByHost(ctx, block.truncated, text.length, block.totalChars)}
      <div class="actions">${renderCopyButton(ctx, key, () => blockCopyText(block) ?? '')}</div>
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

function renderStructured(ctx: CardRenderContext, value: unknown): TemplateResult {
  const json = prettyJson(value);
  return html`<div class="block structured" part="block">
    ${renderBoundedText(ctx, 'structured', json, { markdown: false, bounds: RESULT_TEXT_BOUNDS })}
    <div class="actions">${renderCopyButton(ctx, 'structured', () => json)}</div>
  </div>`;
}

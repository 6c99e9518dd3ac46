import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { markdownToSafeHtml } from '@airlock/elements';
import type { PromptScreenContent, ResourceScreenContent } from '@airlock/core';
import { t } from '../i18n.js';

/**
 * One content of a read as the page shows it: markdown (`text/markdown`) rendered through the elements' sanitiser,
 * the one every server text goes through; any other text as text (never as HTML, whatever its MIME type); an image
 * or audio inline only when the host carried it (a safe type within budget); anything else described by type and
 * size.
 */
export function resourceContentView(content: ResourceScreenContent): TemplateResult {
  if (content.kind === 'text') {
    return html`${
      content.mimeType === 'text/markdown'
        ? html`<div class="resource-text markdown">${unsafeHTML(markdownToSafeHtml(content.text))}</div>`
        : html`<pre class="resource-text">${content.text}</pre>`
    }
    ${
      content.truncated
        ? html`<p class="hint">
            ${t('console.resources.cut', { shown: content.text.length, total: content.totalChars })}
          </p>`
        : nothing
    }`;
  }
  return mediaView(content.render, content.mimeType, content.data, content.bytes, content.uri);
}

/** One message's content of a filled prompt, with the same rules as a read's. */
export function promptContentView(content: PromptScreenContent): TemplateResult {
  switch (content.kind) {
    case 'text':
      return html`<pre class="resource-text">${content.text}</pre>
        ${
          content.truncated
            ? html`<p class="hint">
                ${t('console.resources.cut', { shown: content.text.length, total: content.totalChars })}
              </p>`
            : nothing
        }`;
    case 'media':
      return mediaView(content.render, content.mimeType, content.data, content.bytes, content.type);
    case 'link':
      return html`<p class="hint">${t('console.prompts.link', { uri: content.uri })}</p>`;
    case 'resource':
      return resourceContentView(content.resource);
  }
}

function mediaView(
  render: 'inline' | 'described',
  mimeType: string | undefined,
  data: string | undefined,
  bytes: number,
  label: string,
): TemplateResult {
  // The host carries data only for PNG, JPEG, GIF, WebP and audio types; the type is checked again here.
  if (render === 'inline' && data !== undefined && /^image\/(png|jpeg|gif|webp)$/.test(mimeType ?? '')) {
    return html`<img alt=${label} src=${`data:${mimeType!};base64,${data}`} />`;
  }
  if (render === 'inline' && data !== undefined && /^audio\/(mpeg|wav|ogg|webm)$/.test(mimeType ?? '')) {
    return html`<audio controls src=${`data:${mimeType!};base64,${data}`}></audio>`;
  }
  return html`<p class="hint">${t('console.resources.binary', { type: mimeType ?? '?', bytes })}</p>`;
}

import DOMPurify from 'dompurify';
import { marked } from 'marked';

/** URL schemes a link or image may use; everything else (javascript:, data: for links, vbscript:) is dropped. */
const SAFE_LINK = /^(?:https?:|mailto:)/i;
const SAFE_IMAGE = /^data:image\/(?:png|jpeg|gif|webp);base64,/i;

/**
 * Server text as sanitised HTML: markdown rendered by marked, then DOMPurify with no scripts, no styles, no event
 * handlers, links only to http(s)/mailto (opened with noopener, never followed by the host), images only inline
 * base64 rasters. Nothing from a server reaches the DOM as HTML any other way.
 */
export function markdownToSafeHtml(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true, breaks: false });
  return sanitizeHtml(html);
}

/** DOMPurify with the host's policy (see `markdownToSafeHtml`). */
export function sanitizeHtml(html: string): string {
  const purifier = DOMPurify(window);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      const href = node.getAttribute('href') ?? '';
      if (!SAFE_LINK.test(href)) node.removeAttribute('href');
      node.setAttribute('rel', 'noopener noreferrer');
      node.setAttribute('target', '_blank');
    }
    if (node.tagName === 'IMG') {
      const src = node.getAttribute('src') ?? '';
      if (!SAFE_IMAGE.test(src)) node.removeAttribute('src');
      if (!node.hasAttribute('alt')) node.setAttribute('alt', '');
    }
  });
  return purifier.sanitize(html, {
    // Media elements and URL-carrying attributes would make the page fetch a URL the server chose on render.
    FORBID_TAGS: [
      'style',
      'script',
      'iframe',
      'object',
      'embed',
      'form',
      'input',
      'button',
      'svg',
      'math',
      'audio',
      'video',
      'source',
      'track',
      'picture',
      'link',
      'meta',
      'base',
    ],
    FORBID_ATTR: ['style', 'srcset', 'poster', 'background', 'ping', 'formaction', 'action', 'xlink:href'],
    ALLOW_DATA_ATTR: false,
  });
}

/** True when a URL may become a clickable link. */
export function isSafeLink(url: string): boolean {
  return SAFE_LINK.test(url);
}

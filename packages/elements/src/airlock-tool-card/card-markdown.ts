import { markdownToSafeHtml } from '../shared/sanitize.js';

const SAFE_IMAGE = /^data:image\/(?:png|jpeg|gif|webp);base64,/i;

/** Elements that fetch by themselves from attributes the shared policy does not clean (src, poster, srcset). */
const MEDIA = 'audio, video, source, track, picture';

/** Attributes that make a browser fetch or navigate. Only an anchor's href and an inline image's src survive. */
const URL_ATTRIBUTES = [
  'src',
  'srcset',
  'poster',
  'background',
  'lowsrc',
  'dynsrc',
  'longdesc',
  'cite',
  'ping',
  'data',
  'action',
  'formaction',
  'xlink:href',
  'href',
  'usemap',
  'manifest',
  'codebase',
] as const;

/**
 * Server markdown as HTML the card may insert: `markdownToSafeHtml` (marked + DOMPurify with the host policy), then a
 * second pass in an inert `<template>` that drops media elements and every URL attribute except an anchor's href and
 * an inline raster image's src. The shared policy leaves `<audio src>`, `<video poster>`, `<source src>`,
 * `<img srcset>` and `background` in place, and each of those fetches a server-chosen URL as soon as it renders.
 */
export function cardMarkdownHtml(markdown: string): string {
  const template = document.createElement('template');
  template.innerHTML = markdownToSafeHtml(markdown);
  for (const element of template.content.querySelectorAll(MEDIA)) element.remove();
  for (const element of template.content.querySelectorAll('*')) {
    for (const name of URL_ATTRIBUTES) {
      const value = element.getAttribute(name);
      if (value === null) continue;
      const keep =
        (name === 'href' && element.tagName === 'A') ||
        (name === 'src' && element.tagName === 'IMG' && SAFE_IMAGE.test(value));
      if (!keep) element.removeAttribute(name);
    }
  }
  return template.innerHTML;
}

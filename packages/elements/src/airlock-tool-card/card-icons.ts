import { svg } from 'lit';
import type { SVGTemplateResult } from 'lit';

/**
 * The card's glyphs as inline SVG (24-unit viewBox, `currentColor`), never emoji: a machine without an emoji font
 * draws an emoji as an empty box. Each is decorative; the text beside it carries the meaning.
 */
const icon = (body: SVGTemplateResult, size = 16): SVGTemplateResult =>
  svg`<svg class="svg-icon" viewBox="0 0 24 24" width=${size} height=${size} aria-hidden="true" focusable="false"
    fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`;

/** The generic tool (a wrench), shown when the server gives no icon. */
export const wrenchIcon = (): SVGTemplateResult =>
  icon(
    svg`<path d="M14.7 6.3a4 4 0 0 0 5 5l-8.4 8.4a2.1 2.1 0 0 1-3-3l8.4-8.4a4 4 0 0 0-2-2z" /><path d="M14.7 6.3 17 4l3 3-2.3 2.3" />`,
    20,
  );

/** Badge glyphs per shown state (running has the breathing dot instead). */
export const stateIcons = {
  pending: () => icon(svg`<path d="M6 3h12M6 21h12M7 3c0 5 10 5 10 9s-10 4-10 9M17 3c0 5-10 5-10 9" />`, 14),
  success: () => icon(svg`<path d="m5 12 5 5 9-10" />`, 14),
  error: () => icon(svg`<path d="M6 6l12 12M18 6 6 18" />`, 14),
  cancelled: () => icon(svg`<circle cx="12" cy="12" r="8" /><path d="m6.5 17.5 11-11" />`, 14),
  denied: () => icon(svg`<rect x="5" y="11" width="14" height="9" rx="2" /><path d="M8 11V8a4 4 0 0 1 8 0v3" />`, 14),
} as const;

/** Two overlapping sheets: the copy action. */
export const copyIcon = (): SVGTemplateResult =>
  icon(svg`<rect x="9" y="9" width="11" height="11" rx="2" /><path d="M5 15V6a2 2 0 0 1 2-2h8" />`);

/** A check: the value reached the clipboard. */
export const copiedIcon = (): SVGTemplateResult => icon(svg`<path d="m5 12 5 5 9-10" />`);

/** A link (resource_link chips). */
export const linkIcon = (): SVGTemplateResult =>
  icon(
    svg`<path d="M10 14a4 4 0 0 0 6 0l3-3a4 4 0 0 0-6-6l-1 1" /><path d="M14 10a4 4 0 0 0-6 0l-3 3a4 4 0 0 0 6 6l1-1" />`,
  );

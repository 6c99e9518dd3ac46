import { css, html } from 'lit';
import type { TemplateResult } from 'lit';
import { msg } from '../shared/localize.js';

/** The display modes this host offers a view: in its card, or over the page. Picture-in-picture is not offered. */
export type ViewDisplayMode = 'inline' | 'fullscreen';

export const DISPLAY_MODES: readonly ViewDisplayMode[] = ['inline', 'fullscreen'];

/** The control that opens the view full size, or brings it back into its card. */
export function renderModeToggle(host: HTMLElement, mode: ViewDisplayMode, toggle: () => void): TemplateResult {
  const key = mode === 'inline' ? 'mcp.app.view.full_size' : 'mcp.app.view.inline';
  return html`<div class="bar" part="bar">
    <button type="button" part="mode" data-mode=${mode} aria-pressed=${mode === 'fullscreen'} @click=${toggle}>
      ${msg(host, key)}
    </button>
  </div>`;
}

/** Full size: the same element (so its frame is never reloaded) drawn over the page, its frame filling it. */
export const displayModeStyles = css`
  .bar {
    display: flex;
    justify-content: flex-end;
    margin-block-end: 0.25rem;
  }
  :host([display-mode='fullscreen']) {
    position: fixed;
    inset: 1rem;
    z-index: 1000;
    padding: 0.5rem;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: var(--airlock-shadow, 0 0 0 100vmax rgb(0 0 0 / 40%));
    display: flex;
    flex-direction: column;
  }
  :host([display-mode='fullscreen']) iframe {
    flex: 1;
    height: auto !important;
  }
`;

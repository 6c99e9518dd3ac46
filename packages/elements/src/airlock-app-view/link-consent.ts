import { css, html } from 'lit';
import type { TemplateResult } from 'lit';
import { renderUrl } from '../airlock-elicitation-dialog/url-view.js';
import { msg } from '../shared/localize.js';
import type { AppLinkInspection } from './app-view-events.js';

/** A link waiting for the user's consent, and how to end the view's request. */
export interface PendingLink {
  readonly inspection: AppLinkInspection;
  readonly open: () => void;
  readonly cancel: () => void;
}

/**
 * The consent for a view's link, above the view (never inside its frame): the whole address as text with its site
 * emphasised and a warning for each odd thing, as URL elicitation shows it; Open opens a new tab, Cancel refuses.
 */
export function renderLinkConsent(host: HTMLElement, link: PendingLink): TemplateResult {
  return html`<div class="consent" part="link-consent" role="alertdialog" aria-labelledby="consent-title">
    <p id="consent-title" class="consent-title">${msg(host, 'mcp.app.open_link.title')}</p>
    ${renderUrl(host, link.inspection)}
    <div class="consent-actions">
      <button type="button" data-link="cancel" @click=${link.cancel}>
        ${msg(host, 'mcp.elicitation.action.cancel')}
      </button>
      <button type="button" data-link="open" @click=${link.open}>${msg(host, 'mcp.elicitation.url_mode.open')}</button>
    </div>
  </div>`;
}

export const linkConsentStyles = css`
  /* The live region that announces an opened page: read by screen readers, never seen. */
  .announce {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    margin: 0;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  .consent {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: var(--_space, 0.75rem);
    margin-block-end: 0.5rem;
    background: var(--_surface);
  }
  .consent-title {
    margin: 0 0 0.5rem;
    font-weight: 600;
  }
  .url {
    overflow-wrap: anywhere;
  }
  .consent-actions {
    display: flex;
    gap: 0.5rem;
    justify-content: flex-end;
  }
`;

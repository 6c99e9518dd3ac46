import { html } from 'lit';
import type { TemplateResult } from 'lit';
import { msg } from '../shared/localize.js';

/** A view's message waiting for the user's consent before it goes into the conversation. */
export interface PendingMessage {
  readonly text: string;
  readonly send: () => void;
  readonly cancel: () => void;
}

/** The view's message as text (never markup), above the view: Send puts it into the conversation, Cancel refuses. */
export function renderMessageConsent(host: HTMLElement, message: PendingMessage): TemplateResult {
  return html`<div class="consent" part="message-consent" role="alertdialog" aria-labelledby="message-title">
    <p id="message-title" class="consent-title">${msg(host, 'mcp.app.message.title')}</p>
    <p class="url" part="message">${message.text}</p>
    <div class="consent-actions">
      <button type="button" data-message="cancel" @click=${message.cancel}>
        ${msg(host, 'mcp.elicitation.action.cancel')}
      </button>
      <button type="button" data-message="send" @click=${message.send}>${msg(host, 'mcp.app.message.send')}</button>
    </div>
  </div>`;
}

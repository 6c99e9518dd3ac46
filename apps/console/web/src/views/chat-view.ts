import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { Actions } from '../actions.js';
import { t } from '../i18n.js';
import type { PageState } from '../state.js';
import type { Snapshot } from '../../../src/wire.js';
import './prompt-picker.js';

/**
 * Enter in the message box sends it; Shift+Enter breaks the line (the box's own behaviour). An input method's
 * composition (Japanese, Chinese) keeps its Enter.
 */
function sendOnEnter(event: KeyboardEvent): void {
  if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
  event.preventDefault();
  (event.currentTarget as HTMLTextAreaElement).form?.requestSubmit();
}

/** The chat box: the conversation's lines and a message box, or how to configure a model when there is none. */
export function chatView(state: PageState, snapshot: Snapshot, actions: Actions): TemplateResult {
  if (!snapshot.chat.configured) {
    // Without a model the chat is one line (how to set one up, folded), so the launcher stays near the top.
    return html`<details class="panel chat-setup">
      <summary>
        <h2 id="chat-title">${t('console.chat.title')}</h2>
        <span class="count">${t('console.chat.not_configured_short')}</span>
      </summary>
      <p class="hint">${t('console.chat.not_configured')}</p>
      <console-prompt-picker></console-prompt-picker>
    </details>`;
  }
  return html`<section class="panel" aria-labelledby="chat-title">
    <h2 id="chat-title">${t('console.chat.title')}</h2>
    <ol class="chat-lines" aria-live="polite">
      ${state.chatLines.map(
        (line) =>
          html`<li data-role=${line.role} class=${line.role === 'error' ? 'error' : ''}>
            ${
              line.role === 'error'
                ? nothing
                : html`<strong>${t(line.role === 'user' ? 'console.chat.you' : 'console.chat.model')}:</strong> `
            }<span class="text">${line.text}</span>
          </li>`,
      )}
    </ol>
    <form class="chat-form" @submit=${actions.sendChat}>
      <label for="chat-message">${t('console.chat.message')}</label>
      <textarea
        id="chat-message"
        name="message"
        rows="2"
        aria-describedby="chat-keys"
        @keydown=${sendOnEnter}
      ></textarea>
      <div class="chat-actions">
        <span id="chat-keys" class="hint">${t('console.chat.keys')}</span>
        <span class="chat-busy" role="status">
          ${state.chatBusy ? html`<span class="spinner" aria-hidden="true"></span>${t('console.chat.busy')}` : nothing}
        </span>
        <wa-button type="submit" variant="brand" ?disabled=${state.chatBusy}>${t('console.chat.send')}</wa-button>
      </div>
      ${state.chatError ? html`<p class="error" role="alert">${state.chatError}</p>` : nothing}
    </form>
    <console-prompt-picker for="chat-message"></console-prompt-picker>
  </section>`;
}

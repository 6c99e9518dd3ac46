import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { markdownToSafeHtml } from '@airlock/elements';
import type { Actions } from '../actions.js';
import { t } from '../i18n.js';
import type { PageState } from '../state.js';
import type { ChatLine, Snapshot } from '../../../src/wire.js';
import './prompt-picker.js';
import './model-keys-control.js';

/**
 * Enter in the message box sends it; Shift+Enter breaks the line (the box's own behaviour). An input method's
 * composition (Japanese, Chinese) keeps its Enter.
 */
function sendOnEnter(event: KeyboardEvent): void {
  if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
  event.preventDefault();
  (event.currentTarget as HTMLTextAreaElement).form?.requestSubmit();
}

/**
 * One line of the chat. The model's reply is markdown, rendered through the same sanitiser as a server's text (it
 * may repeat what a tool returned); the user's message shows as typed.
 */
export function chatLineView(line: ChatLine): TemplateResult {
  switch (line.role) {
    case 'user':
      return html`<li data-role="user">
        <strong>${t('console.chat.you')}:</strong> <span class="text">${line.text}</span>
      </li>`;
    case 'assistant':
      return html`<li data-role="assistant">
        <strong>${t('console.chat.model')}:</strong>
        <div class="text markdown">${unsafeHTML(markdownToSafeHtml(line.text))}</div>
      </li>`;
    case 'stopped':
      return html`<li data-role="stopped" class="note">${t('console.chat.stopped')}</li>`;
    default:
      return html`<li data-role="error" class="error"><span class="text">${line.text}</span></li>`;
  }
}

/** Where the page remembers the model the user chose last, across conversations and reloads. */
const MODEL_KEY = 'airlock.chat.model';

/** The model each message goes to, when the console offers more than one: the last one chosen stays chosen. */
function modelPicker(snapshot: Snapshot): TemplateResult | typeof nothing {
  const { models } = snapshot.chat;
  if (models.length < 2) return nothing;
  const remembered = localStorage.getItem(MODEL_KEY);
  const chosen = models.some((m) => m.id === remembered) ? remembered : models[0]!.id;
  return html`<label class="chat-model"
    ><span class="label-text">${t('console.chat.model_choice')}</span>
    <select
      name="model"
      @change=${(event: Event) => localStorage.setItem(MODEL_KEY, (event.currentTarget as HTMLSelectElement).value)}
    >
      ${models.map((m) => html`<option value=${m.id} ?selected=${m.id === chosen}>${m.label}</option>`)}
    </select></label
  >`;
}

/** The message box under the conversation, or how to configure a model when there is none. */
export function chatView(state: PageState, snapshot: Snapshot, actions: Actions): TemplateResult {
  if (!snapshot.chat.configured) {
    // Without a model the chat is one line (how to set one up, folded), so the launcher stays near the top.
    return html`<details class="chat-setup">
      <summary>
        <span class="count">${t('console.chat.not_configured_short')}</span>
      </summary>
      <p class="hint">${t('console.chat.not_configured')}</p>
      <console-prompt-picker></console-prompt-picker>
    </details>`;
  }
  return html`<form class="chat-form" @submit=${actions.chat.send}>
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
        ${modelPicker(snapshot)}
        <span class="chat-busy" role="status">
          ${state.chatBusy ? html`<span class="spinner" aria-hidden="true"></span>${t('console.chat.busy')}` : nothing}
        </span>
        ${
          state.chatBusy
            ? html`<wa-button variant="danger" appearance="outlined" data-stop @click=${actions.chat.stop}
                >${t('console.chat.stop')}</wa-button
              >`
            : nothing
        }
        <wa-button type="submit" variant="brand" ?disabled=${state.chatBusy}>${t('console.chat.send')}</wa-button>
      </div>
      ${state.chatError ? html`<p class="error" role="alert">${state.chatError}</p>` : nothing}
    </form>
    <console-model-keys></console-model-keys>
    <console-prompt-picker for="chat-message"></console-prompt-picker>`;
}

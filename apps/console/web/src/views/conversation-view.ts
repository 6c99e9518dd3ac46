import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { Actions } from '../actions.js';
import { cardSlots } from '../card-slots.js';
import { drawnSlots } from '../card-window.js';
import { t } from '../i18n.js';
import type { PageState } from '../state.js';
import { streamingSlot, slotKey } from '../streaming-slot.js';
import { timeline } from '../timeline.js';
import type { Snapshot } from '../../../src/wire.js';
import { cardView } from './card-view.js';
import { chatLineView, chatView } from './chat-view.js';
import { launcherView } from './launcher-view.js';
import { sideView } from './side-view.js';

/**
 * The conversation's bar: its name (the heading), the user's other conversations to switch to, a new one, and a
 * rename and a delete once it is kept.
 */
function conversationBar(state: PageState, snapshot: Snapshot, actions: Actions): TemplateResult {
  const shown = snapshot.conversationId;
  const kept = state.conversations.find((c) => c.id === shown);
  const title = kept?.title ?? t('console.conversation.new');
  return html`<div class="conversation-bar">
    <h2 id="cards-title">${title}</h2>
    <label class="conversation-pick">
      <span class="label-text">${t('console.conversation.list')}</span>
      <select @change=${(event: Event) => actions.chat.open((event.currentTarget as HTMLSelectElement).value)}>
        ${kept === undefined ? html`<option value=${shown} selected>${title}</option>` : nothing}
        ${state.conversations.map((c) => html`<option value=${c.id} ?selected=${c.id === shown}>${c.title}</option>`)}
      </select>
    </label>
    <wa-button size="small" appearance="outlined" data-new-chat @click=${actions.chat.startNew}
      >${t('console.conversation.start_new')}</wa-button
    >
    ${
      kept === undefined
        ? nothing
        : html`<details class="conversation-rename">
            <summary>${t('console.conversation.rename')}</summary>
            <form @submit=${actions.chat.rename}>
              <label
                ><span class="label-text">${t('console.conversation.name')}</span>
                <input name="title" maxlength="200" required .value=${kept.title}
              /></label>
              <wa-button type="submit" size="small" variant="brand">${t('console.conversation.save')}</wa-button>
            </form>
          </details>`
    }
    ${kept === undefined ? nothing : deleteAction(state, kept.title, actions)}
  </div>`;
}

/** Delete, confirmed in place: the first press only asks, naming the conversation and that it cannot be undone. */
function deleteAction(state: PageState, title: string, actions: Actions): TemplateResult {
  return html`<details class="conversation-delete">
    <summary>${t('console.conversation.delete')}</summary>
    <div class="confirm" role="group" aria-label=${t('console.conversation.delete')}>
      <p>${t('console.conversation.delete_confirm', { title })}</p>
      <wa-button
        size="small"
        variant="danger"
        data-delete-conversation
        ?disabled=${state.chatBusy}
        @click=${actions.chat.remove}
        >${t('console.conversation.delete_yes')}</wa-button
      >
      <wa-button size="small" appearance="outlined" @click=${actions.chat.keep}
        >${t('console.conversation.delete_no')}</wa-button
      >
    </div>
  </details>`;
}

/**
 * The conversation page, work first: the conversation (the chat's lines with each call's card where it was made,
 * the message box under them) and the launcher for calls by hand; the servers and the model's tools beside them on a
 * wide screen and after them on a narrow one, each collapsible.
 */
export function conversationView(state: PageState, snapshot: Snapshot, actions: Actions): TemplateResult {
  const items = [
    ...timeline(state.chatLines, drawnSlots(cardSlots(state), state)),
    // Calls the model is still writing come last (where their cards will be), under their cards' keys.
    ...state.streamingCalls.map((call) => ({ kind: 'card' as const, slot: streamingSlot(call, snapshot) })),
  ];
  return html`<main class="layout">
    <div class="work">
      <section class="panel conversation" aria-labelledby="cards-title">
        ${conversationBar(state, snapshot, actions)}
        ${items.length === 0 ? html`<p class="hint">${t('console.cards.empty')}</p>` : nothing}
        <ol class="chat-lines cards" aria-live="polite">
          ${repeat(
            items,
            (item) => (item.kind === 'line' ? `line-${item.line.id}` : slotKey(item.slot)),
            (item) => (item.kind === 'line' ? chatLineView(item.line) : cardView(state, snapshot, item.slot, actions)),
          )}
        </ol>
        ${chatView(state, snapshot, actions)}
      </section>
      ${launcherView(state, snapshot, actions)}
    </div>
    ${sideView(state, snapshot, actions)}
  </main>`;
}

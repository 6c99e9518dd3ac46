import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { Actions } from '../actions.js';
import { cardSlots } from '../card-slots.js';
import { drawnSlots } from '../card-window.js';
import { t } from '../i18n.js';
import type { PageState } from '../state.js';
import type { Snapshot } from '../../../src/wire.js';
import { cardView } from './card-view.js';
import { chatView } from './chat-view.js';
import { launcherView } from './launcher-view.js';
import { sideView } from './side-view.js';

/**
 * The conversation page, work first: the chat and the launcher at the top, the calls under them; the servers and
 * the model's tools beside them on a wide screen and after them on a narrow one, each collapsible.
 */
export function conversationView(state: PageState, snapshot: Snapshot, actions: Actions): TemplateResult {
  return html`<main class="layout">
    <div class="work">
      ${chatView(state, snapshot, actions)} ${launcherView(state, snapshot, actions)}
      <section class="panel" aria-labelledby="cards-title">
        <h2 id="cards-title">${t('console.cards.title')}</h2>
        ${state.cards.size === 0 ? html`<p class="hint">${t('console.cards.empty')}</p>` : nothing}
        <ol class="cards">
          ${repeat(
            drawnSlots(cardSlots(state), state),
            (slot) => slot.slot,
            (slot) => cardView(state, snapshot, slot, actions),
          )}
        </ol>
      </section>
    </div>
    ${sideView(state, snapshot, actions)}
  </main>`;
}

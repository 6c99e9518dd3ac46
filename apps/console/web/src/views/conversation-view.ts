import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { DecisionRevokeEvent } from '@airlock/elements';
import type { Actions } from '../actions.js';
import { t } from '../i18n.js';
import { cardSlots } from '../card-slots.js';
import type { PageState } from '../state.js';
import type { Snapshot } from '../types.js';
import { cardView } from './card-view.js';
import { chatView } from './chat-view.js';
import { launcherView } from './launcher-view.js';

/** The conversation page: servers and the model's tools beside the chat, the launcher and the cards. */
export function conversationView(state: PageState, snapshot: Snapshot, actions: Actions): TemplateResult {
  return html`<main class="layout">
    <aside>
      <section class="panel" aria-labelledby="servers-title">
        <h2 id="servers-title">${t('console.servers.title')}</h2>
        <ul class="servers">
          ${snapshot.servers.map(
            (s) =>
              html`<li data-server=${s.id}>
                <strong>${s.id}</strong>
                <span class="state" data-state=${s.state}>${s.state}</span>
                <span class="muted"
                  >${t(s.trusted ? 'console.servers.summary_trusted' : 'console.servers.summary', { transport: s.transport, tools: s.toolCount })}</span
                >
                ${s.error ? html`<span class="error">${s.error}</span>` : nothing}
              </li>`,
          )}
        </ul>
      </section>
      <section class="panel" aria-labelledby="tools-title">
        <h2 id="tools-title">${t('console.tools.title')}</h2>
        <airlock-tool-list
          .entries=${snapshot.modelTools}
          @airlock-decision-revoke=${(event: DecisionRevokeEvent) => actions.revokeDecision(event.detail.decisionId)}
        ></airlock-tool-list>
      </section>
    </aside>
    <div>
      ${chatView(state, snapshot, actions)} ${launcherView(state, snapshot, actions)}
      <section class="panel" aria-labelledby="cards-title">
        <h2 id="cards-title">${t('console.cards.title')}</h2>
        ${state.cards.size === 0 ? html`<p class="hint">${t('console.cards.empty')}</p>` : nothing}
        <ol class="cards">
          ${repeat(
            cardSlots(state),
            (slot) => slot.slot,
            (slot) => cardView(state, snapshot, slot, actions),
          )}
        </ol>
      </section>
    </div>
  </main>`;
}

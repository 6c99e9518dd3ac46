import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { Actions } from '../actions.js';
import { locale, t } from '../i18n.js';
import type { PageState } from '../state.js';
import type { Card, Snapshot } from '../types.js';

/** One tool call's card (the `airlock-tool-card` element), with "Cancel call" while it is pending or running. */
export function cardView(state: PageState, snapshot: Snapshot, card: Card, actions: Actions): TemplateResult {
  const { invocation } = card;
  const entry =
    snapshot.userTools.find((t) => t.tool.name === invocation.tool) ??
    snapshot.modelTools.find((t) => t.tool.name === invocation.tool);
  const server = snapshot.servers.find((s) => s.id === invocation.serverId);
  const fullText = state.fullTexts.get(invocation.id);
  const expiredAt = state.expiredResults.get(invocation.id);
  const active = invocation.state === 'pending' || invocation.state === 'running';
  return html`<li data-invocation=${invocation.id} data-state=${invocation.state}>
    <airlock-tool-card
      .invocation=${invocation}
      .tool=${entry?.tool}
      .server=${server === undefined ? undefined : { id: server.id, trusted: server.trusted }}
      .result=${card.result}
      .progress=${card.progress}
      .fullText=${fullText === '' ? undefined : fullText}
      @airlock-tool-retry=${() => actions.retry(invocation)}
    ></airlock-tool-card>
    ${
      expiredAt === undefined
        ? nothing
        : html`<p class="note" data-expired>
            ${t('console.cards.result_expired', { date: new Date(expiredAt).toLocaleString(locale) })}
          </p>`
    }
    ${
      active
        ? html`<div class="card-actions">
            <button type="button" data-action="cancel" @click=${() => actions.cancel(invocation.id)}>
              ${t('console.cards.cancel')}
            </button>
          </div>`
        : nothing
    }
  </li>`;
}

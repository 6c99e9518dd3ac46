import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { ToolShowAllEvent } from '@airlock/elements';
import type { Actions } from '../actions.js';
import { locale, t } from '../i18n.js';
import type { PageState } from '../state.js';
import type { CardSlot } from '../card-slots.js';
import type { Snapshot } from '../../../src/wire.js';
import { appViewSlot } from './app-view-slot.js';

/** What a retried card says of its latest attempt: whether the user was asked again, or a stored decision let it run. */
function retryNote(state: PageState, slot: CardSlot): string | undefined {
  const { invocation } = slot.card;
  if (slot.attempt < 2 || invocation.state === 'pending') return undefined;
  const params = { attempt: slot.attempt };
  if (state.asked.has(invocation.id)) return t('console.cards.retry_asked', params);
  if (invocation.outcome === 'permission_denied') return t('console.cards.retry_denied_stored', params);
  return t('console.cards.retry_allowed_stored', params);
}

/**
 * One tool call's card (the `airlock-tool-card` element, whose own "Cancel call" stops a waiting or running call). A
 * retried call shows its latest attempt in the same card, with a line saying how the permission gate let it through.
 */
export function cardView(state: PageState, snapshot: Snapshot, slot: CardSlot, actions: Actions): TemplateResult {
  const { card } = slot;
  const { invocation } = card;
  const entry =
    snapshot.userTools.find((t) => t.tool.name === invocation.tool) ??
    snapshot.modelTools.find((t) => t.tool.name === invocation.tool);
  const server = snapshot.servers.find((s) => s.id === invocation.serverId);
  const fullText = state.fullTexts.get(invocation.id);
  const expiredAt = state.expiredResults.get(invocation.id);
  const note = retryNote(state, slot);
  // A call still being written is no call yet: no id for tests or actions to find, nothing to cancel.
  const streaming = slot.streaming === true;
  return html`<li
    data-invocation=${streaming ? nothing : invocation.id}
    data-slot=${slot.slot}
    data-state=${streaming ? 'streaming' : invocation.state}
  >
    <airlock-tool-card
      .invocation=${invocation}
      .tool=${entry?.tool}
      .server=${server === undefined ? undefined : { id: server.id, trusted: server.trusted }}
      .result=${card.result}
      .progress=${card.progress}
      .taskStartedAt=${card.taskStartedAt}
      .fullText=${fullText === '' ? undefined : fullText}
      .wholeTexts=${state.wholeTexts.get(invocation.id)}
      .wholeTextErrors=${state.wholeTextErrors.get(invocation.id)}
      ?cancellable=${!streaming}
      @airlock-tool-retry=${() => actions.retry(invocation)}
      @airlock-tool-cancel=${() => actions.cancel(invocation.id)}
      @airlock-tool-show-all=${(event: ToolShowAllEvent) => actions.showAll(invocation.id, event.detail.block)}
    ></airlock-tool-card>
    ${appViewSlot(invocation, entry?.tool, card.result, snapshot.chat.configured, streaming)}
    ${note === undefined ? nothing : html`<p class="note" data-retry-note>${note}</p>`}
    ${
      // A call that needs the user to sign in first: the card offers the sign-in (then Retry runs it as them).
      invocation.outcome === 'auth_required' && server?.signsIn === true && server.state === 'needs_auth'
        ? html`<p class="note">
            <button type="button" data-sign-in=${server.id} @click=${() => actions.signInServer(server.id)}>
              ${t('console.cards.sign_in', { server: server.id })}
            </button>
          </p>`
        : nothing
    }
    ${
      expiredAt === undefined
        ? nothing
        : html`<p class="note" data-expired>
            ${t('console.cards.result_expired', { date: new Date(expiredAt).toLocaleString(locale) })}
          </p>`
    }
  </li>`;
}

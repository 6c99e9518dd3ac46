// The console's page: a store of its state, the actions its buttons take, the event stream that keeps the state
// current, and the views that draw it. This file only wires them and starts.
import { html, render } from 'lit';
import '@airlock/elements';
import { keepViewConsentsWith } from '@airlock/elements';
import './web-awesome.js';
import { createActions } from './actions.js';
import type { Actions } from './actions.js';
import { api } from './api-client.js';
import { drawOlderCards } from './card-window.js';
import { ConsoleEventStream } from './event-stream.js';
import { t } from './i18n.js';
import { PageStore } from './page-store.js';
import { currentConversation } from './conversation.js';
import { currentRoute } from './route.js';
import type { PageState } from './state.js';
import { pageView } from './views/page-view.js';
import { settleViewCalls } from './view-calls.js';
import { askToOpenResource } from './resource-open.js';
import { consoleConsentKeeper } from './view-consent-keeper.js';

// Views' browser-permission consents are the console's (its store), not this tab's.
keepViewConsentsWith(consoleConsentKeeper);

const root = document.getElementById('app')!;

/** The audit page reads its events when it is shown and has none (first visit, new workspace, new state). */
const auditToLoad = (state: PageState): boolean =>
  state.signIn === undefined && state.snapshot !== undefined && currentRoute() === 'audit' && state.audit === undefined;

const store = new PageStore((state) => {
  if (auditToLoad(state)) {
    store.update((s) => ({ ...s, audit: { events: [] } }));
    void actions.loadAudit();
  }
  render(pageView(store.state, currentRoute(), actions), root);
  showNewCard(state);
  // Views' calls end as their cards do (the event stream brings them).
  settleViewCalls(state.cards);
  if (state.cardsDrawn !== undefined) drawOlderCardsSoon();
});

/** The cards of the last frame drawn; undefined until a first state arrives. */
let cardsSeen: ReadonlySet<string> | undefined;

/**
 * Brings a card that just appeared into view: new cards land under the older ones, so a call that starts (asked, or
 * allowed at once by a stored decision, where nothing else moves) would otherwise be drawn below the fold unseen. A
 * snapshot (a reload, a reconnect: `cardsDrawn` set) scrolls nowhere.
 */
function showNewCard(state: PageState): void {
  const ids = new Set(state.cards.keys());
  const fresh =
    cardsSeen === undefined || state.cardsDrawn !== undefined ? [] : [...ids].filter((id) => !cardsSeen!.has(id));
  cardsSeen = ids;
  const newest = fresh.at(-1);
  if (newest === undefined) return;
  root.querySelector(`li[data-invocation="${CSS.escape(newest)}"]`)?.scrollIntoView({ block: 'nearest' });
}

/** Once the frame just drawn is painted, draws the next older cards (a snapshot draws its newest first). */
let olderCardsWanted = false;
function drawOlderCardsSoon(): void {
  if (olderCardsWanted) return;
  olderCardsWanted = true;
  // A rAF callback runs before its frame is painted; a task queued from it runs after.
  requestAnimationFrame(() =>
    setTimeout(() => {
      olderCardsWanted = false;
      store.update(drawOlderCards);
      store.render();
    }),
  );
}
const stream: ConsoleEventStream = new ConsoleEventStream({
  store,
  effects: {
    refresh: () => actions.refresh(),
    loadFullText: (card) => actions.loadFullText(card),
    showSignIn: (error) => actions.showSignIn(error),
  },
});
const actions: Actions = createActions({ store, stream });

// A card's resource link opens the Resources page on that resource (read as the user, through the console).
document.addEventListener('airlock-tool-resource-open', (event) => {
  const { uri, serverId } = event.detail;
  if (serverId === null) return;
  askToOpenResource(serverId, uri);
  location.hash = `#/resources?${new URLSearchParams({ server: serverId, uri }).toString()}`;
});

window.addEventListener('hashchange', () => {
  // Another conversation: its own stream (its lines, its cards) replaces this one's.
  const shown = store.state.snapshot?.conversationId;
  if (currentRoute() === 'conversation' && shown !== undefined && currentConversation() !== shown) {
    stream.connect();
    return;
  }
  if (currentRoute() === 'audit') store.update((s) => ({ ...s, audit: undefined }));
  if (currentRoute() === 'permissions') void actions.refresh();
  store.render();
});
render(html`<p class="loading">${t('console.loading')}</p>`, root);
// Asks quietly whether this browser is signed in (no 401 on every load), then opens the stream or the sign-in form.
api<{ signedIn?: boolean }>('GET', '/api/auth').then(
  ({ signedIn }) => (signedIn === true ? stream.connect() : void actions.showSignIn()),
  (error: unknown) => {
    root.textContent = t('console.unreachable', { error: String(error) });
  },
);

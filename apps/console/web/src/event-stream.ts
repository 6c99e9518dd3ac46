import { CONSOLE_EVENT_NAMES } from '../../src/console-events.js';
import type { Actions } from './actions.js';
import { api } from './api-client.js';
import { t } from './i18n.js';
import type { PageStore } from './page-store.js';
import { reduce } from './reduce.js';
import { currentConversation } from './conversation.js';
import { RESOURCE_UPDATED_EVENT } from './views/resource-preview.js';
import { SERVER_LOG_EVENT } from './views/server-panel.js';
import type { PageState } from './state.js';
import type { ConsoleEvent } from '../../src/console-events.js';

/** What the stream asks of the page beyond the state `reduce` makes. */
export type StreamEffects = Pick<Actions, 'refresh' | 'loadFullText' | 'showSignIn'>;

/** Tells a person in another tab or window that something waits for them (when they allowed notifications). */
function notify(title: string, body: string): void {
  if (!document.hidden || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  new Notification(title, { body, tag: 'airlock-question' });
}

/**
 * The page's end of its event stream: every event becomes a new state through `reduce`, then whatever else it asks
 * for (a whole result fetched, lists refetched, a reconnect, a notification), then the page is drawn. Reconnects on
 * a workspace switch; shows sign-in when the session has ended.
 */
export class ConsoleEventStream {
  #source: EventSource | undefined;
  readonly #store: PageStore;
  readonly #effects: StreamEffects;

  constructor({ store, effects }: { readonly store: PageStore; readonly effects: StreamEffects }) {
    this.#store = store;
    this.#effects = effects;
  }

  /** Opens the stream (closing any open one); its first event is the page's whole state. */
  connect(): void {
    this.#source?.close();
    const source = new EventSource(`/api/events?conversation=${currentConversation()}`);
    this.#source = source;
    for (const name of CONSOLE_EVENT_NAMES) {
      source.addEventListener(name, (message) => {
        const event = { name, data: JSON.parse((message as MessageEvent<string>).data) as unknown } as ConsoleEvent;
        this.#receive(source, event);
      });
    }
    source.onerror = () => {
      // The browser retries by itself unless the stream was refused (signed out, or the console restarted).
      if (source.readyState !== EventSource.CLOSED) return;
      api('GET', '/api/session').then(
        () => setTimeout(() => this.connect(), 2000),
        () => void this.#effects.showSignIn(t('console.session_ended')),
      );
    };
  }

  close(): void {
    this.#source?.close();
  }

  #receive(source: EventSource, event: ConsoleEvent): void {
    const before = this.#store.state;
    this.#store.update((state) => reduce(state, event));
    this.#follow(source, event, before, this.#store.state);
    this.#store.render();
  }

  /** What an event asks of the page beyond its new state, told apart by comparing the state before and after. */
  #follow(source: EventSource, event: ConsoleEvent, before: PageState, after: PageState): void {
    switch (event.name) {
      case 'state':
        for (const card of event.data.cards) this.#effects.loadFullText(card);
        return;
      case 'invocation': {
        const card = after.cards.get(event.data.invocation.id);
        if (card !== undefined && card !== before.cards.get(event.data.invocation.id)) this.#effects.loadFullText(card);
        return;
      }
      case 'permission.requested':
        if (after.permissionRequests !== before.permissionRequests) {
          notify(
            t('console.notify.permission_title', { tool: event.data.tool.displayName }),
            t('console.notify.permission_body'),
          );
        }
        return;
      case 'elicitation.requested':
        if (after.questions !== before.questions) {
          notify(t('console.notify.question_title', { server: event.data.serverId }), event.data.message);
        }
        return;
      case 'server.state':
      case 'tools.changed':
      case 'permissions.changed':
        void this.#effects.refresh();
        return;
      case 'resource.updated':
        // The Resources page's preview of a followed resource reads it again.
        window.dispatchEvent(new CustomEvent(RESOURCE_UPDATED_EVENT, { detail: event.data }));
        return;
      case 'server.log':
        // The server panel's log tail (administrators' tabs only: the console sends it to no one else).
        window.dispatchEvent(new CustomEvent(SERVER_LOG_EVENT, { detail: event.data }));
        return;
      case 'session.workspace':
        this.connect();
        return;
      case 'session.ended':
        source.close();
        void this.#effects.showSignIn();
        return;
      default:
        return;
    }
  }
}

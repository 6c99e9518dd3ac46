import { api } from './api-client.js';
import { conversationHash, currentConversation, newConversationId } from './conversation.js';
import type { PageStore } from './page-store.js';

/** What the chat's buttons and forms do. */
export interface ChatActions {
  /** Sends the message box's text as the user's next message: the conversation is busy until its turn ends. */
  readonly send: (event: SubmitEvent) => void;
  /** Stops the running turn, and the calls it started. */
  readonly stop: () => void;
  /** Opens a new, empty conversation (kept from its first message). */
  readonly startNew: () => void;
  /** Shows another of the user's conversations. */
  readonly open: (id: string) => void;
  /** Renames the shown conversation to what the user typed. */
  readonly rename: (event: SubmitEvent) => void;
  /** Deletes the shown conversation (the user confirmed) and shows the most recent other one, or a new one. */
  readonly remove: (event: Event) => void;
  /** Closes the delete confirmation without deleting. */
  readonly keep: (event: Event) => void;
}

/** The chat's actions over the page's store; each failure shows under the message box. */
export function createChatActions(store: PageStore): ChatActions {
  const failed = (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    store.update((s) => ({ ...s, chatError: message, chatBusy: false }));
    store.render();
  };
  return {
    send(event) {
      event.preventDefault();
      const form = event.currentTarget as HTMLFormElement;
      const box = form.elements.namedItem('message') as HTMLTextAreaElement;
      const message = box.value.trim();
      if (message === '' || store.state.chatBusy) return;
      // Busy at once, so a second Enter cannot send twice; the turn's end (chat.turn) clears it.
      store.update((s) => ({ ...s, chatError: undefined, chatBusy: true }));
      store.render();
      const model = (form.elements.namedItem('model') as HTMLSelectElement | null)?.value;
      api('POST', '/api/chat', {
        message,
        conversation: currentConversation(),
        ...(model === undefined ? {} : { model }),
      }).then(() => {
        box.value = '';
      }, failed);
    },

    stop() {
      api('POST', '/api/chat/stop', { conversation: currentConversation() }).catch(failed);
    },

    startNew() {
      location.hash = conversationHash(newConversationId());
    },

    open(id) {
      if (id !== currentConversation()) location.hash = conversationHash(id);
    },

    rename(event) {
      event.preventDefault();
      const form = event.currentTarget as HTMLFormElement;
      const title = (form.elements.namedItem('title') as HTMLInputElement).value.trim();
      if (title === '') return;
      api('PATCH', `/api/conversations/${encodeURIComponent(currentConversation())}`, { title }).then(() => {
        form.closest('details')?.removeAttribute('open');
      }, failed);
    },

    remove() {
      const id = currentConversation();
      api('DELETE', `/api/conversations/${encodeURIComponent(id)}`).then(() => {
        const others = store.state.conversations.filter((c) => c.id !== id);
        store.update((s) => ({ ...s, conversations: others }));
        location.hash = conversationHash(others[0]?.id ?? newConversationId());
      }, failed);
    },

    keep(event) {
      (event.currentTarget as HTMLElement).closest('details')?.removeAttribute('open');
    },
  };
}

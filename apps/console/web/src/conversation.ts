import { currentRoute, routeQuery } from './route.js';

/** The conversation a tab opens when its address names none (the one every console had before there were several). */
export const DEFAULT_CONVERSATION = 'main';

/** The conversation shown last, which the other pages (permissions, audit) keep for the way back. */
let shown = DEFAULT_CONVERSATION;

/**
 * The conversation this tab shows: the one its address names (`#/?conversation=ID`), so a link, a reload and the
 * back button each keep their conversation; the default one when it names none; on another page, the one shown last.
 */
export function currentConversation(): string {
  if (currentRoute() !== 'conversation') return shown;
  const named = routeQuery().get('conversation');
  shown = named !== null && /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/.test(named) ? named : DEFAULT_CONVERSATION;
  return shown;
}

/** The address of a conversation's page. */
export function conversationHash(id: string): string {
  return id === DEFAULT_CONVERSATION ? '#/' : `#/?${new URLSearchParams({ conversation: id }).toString()}`;
}

/** A fresh conversation's id: the time it began and a random part, so ids sort by age and never collide. */
export function newConversationId(): string {
  const random = crypto.getRandomValues(new Uint32Array(2));
  return `c-${Date.now().toString(36)}-${[...random].map((n) => n.toString(36)).join('')}`;
}

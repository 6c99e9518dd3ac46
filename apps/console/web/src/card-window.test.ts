import { describe, expect, it } from 'vitest';
import type { InvocationRecord } from '@airlock/core';
import { cardSlots } from './card-slots.js';
import { CARDS_PER_FRAME, drawnSlots, drawOlderCards } from './card-window.js';
import { reduce } from './reduce.js';
import { initialState } from './state.js';
import { DEFAULT_CONVERSATION } from './conversation.js';
import type { PageState } from './state.js';
import type { ConsoleEvent } from '../../src/console-events.js';
import type { Card, Snapshot } from '../../src/wire.js';

const scope = { userId: 'ana', workspaceId: 'default', conversationId: DEFAULT_CONVERSATION };

function card(n: number): Card {
  const invocation: InvocationRecord = {
    id: `call-${n}`,
    scope,
    caller: { kind: 'user' },
    tool: 'demo__echo',
    serverId: 'demo',
    originalName: 'echo',
    definitionHash: 'hash',
    args: { text: `${n}` },
    argsHash: 'args',
    state: 'success',
    outcome: 'success',
    error: null,
    createdAt: n,
    updatedAt: n,
  };
  return { invocation };
}

/** A tab's `state` event carrying `count` cards, oldest first (as the console sends them). */
function opened(count: number): ConsoleEvent {
  const data: Snapshot = {
    session: { userId: 'ana', workspaceId: 'default', admin: true },
    conversationId: DEFAULT_CONVERSATION,
    servers: [],
    modelTools: [],
    userTools: [],
    decisions: [],
    cards: Array.from({ length: count }, (_, n) => card(n)),
    permissionRequests: [],
    elicitations: [],
    urlFlows: [],
    chat: { configured: false, busy: false, lines: [], conversations: [], models: [] },
  };
  return { name: 'state', data };
}

/** The ids of the cards the conversation draws in this state, in page order. */
const drawn = (state: PageState) => drawnSlots(cardSlots(state), state).map((slot) => slot.card.invocation.id);
const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `call-${from + i}`);

describe('the newest cards first', () => {
  it("draws only the newest cards of a long conversation's snapshot at first, oldest of them on top", () => {
    const state = reduce(initialState(), opened(100));
    expect(drawn(state)).toEqual(ids(100 - CARDS_PER_FRAME, 100));
  });

  it('draws the older cards step by step until every card is drawn, then keeps drawing all', () => {
    let state = reduce(initialState(), opened(100));
    state = drawOlderCards(state);
    expect(drawn(state)).toEqual(ids(100 - 2 * CARDS_PER_FRAME, 100));
    while (state.cardsDrawn !== undefined) state = drawOlderCards(state);
    expect(drawn(state)).toEqual(ids(0, 100));
    // A call made afterwards joins them: nothing older is hidden to make room for it.
    state = reduce(state, { name: 'invocation', data: card(100) });
    expect(drawn(state)).toEqual(ids(0, 101));
  });

  it('draws a short conversation whole from the start', () => {
    const state = reduce(initialState(), opened(CARDS_PER_FRAME - 1));
    expect(drawn(state)).toEqual(ids(0, CARDS_PER_FRAME - 1));
  });

  it('starts from the newest again when a new snapshot comes (a reconnect, a workspace switch)', () => {
    let state = reduce(initialState(), opened(100));
    while (state.cardsDrawn !== undefined) state = drawOlderCards(state);
    state = reduce(state, opened(60));
    expect(drawn(state)).toEqual(ids(60 - CARDS_PER_FRAME, 60));
  });
});

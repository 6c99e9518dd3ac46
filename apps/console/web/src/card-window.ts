import type { CardSlot } from './card-slots.js';
import type { PageState } from './state.js';

/**
 * How many of the newest cards a page draws on its first frame after a snapshot; the older ones follow, this many
 * more per frame. A card is a custom element with a shadow root: drawing the 100 a snapshot carries before the first
 * paint took most of the 0.5 to 1 s a long conversation needed to show its newest call (issue 22, on 2 busy cores).
 */
export const CARDS_PER_FRAME = 20;

/** The slots drawn now: the newest `state.cardsDrawn` of them (all when it is unset), oldest first as on the page. */
export function drawnSlots(slots: readonly CardSlot[], state: Pick<PageState, 'cardsDrawn'>): readonly CardSlot[] {
  const drawn = state.cardsDrawn;
  return drawn === undefined || drawn >= slots.length ? slots : slots.slice(slots.length - drawn);
}

/**
 * The state with the next older cards drawn too. Once none waits the window is gone: every card is drawn, and every
 * card to come, until the next snapshot (or sign-in) starts from the newest again.
 */
export function drawOlderCards(state: PageState): PageState {
  if (state.cardsDrawn === undefined) return state;
  const drawn = state.cardsDrawn + CARDS_PER_FRAME;
  if (drawn >= state.cards.size) {
    const { cardsDrawn: _, ...all } = state;
    return all;
  }
  return { ...state, cardsDrawn: drawn };
}

import type { PageState } from './state.js';
import type { Card } from '../../src/wire.js';

/** One card on the page: the first call's id (its key), the call it shows now, and which attempt that is. */
export interface CardSlot {
  readonly slot: string;
  readonly card: Card;
  /** 1 for the first call; 2 and up for retries shown in the same card. */
  readonly attempt: number;
  /** The model's id for the first call, when the model made it: the card of the view shown while it was written. */
  readonly modelCallId?: string;
  /** A call the model is still writing (`streaming-slot.ts`): only its view is live, with the input so far. */
  readonly streaming?: true;
}

/**
 * The conversation's cards in order, each retry shown in the card of the call it retries (at that call's place, as
 * its latest attempt) rather than as a card of its own.
 */
export function cardSlots(state: PageState): CardSlot[] {
  const latest = new Map<string, { id: string; attempt: number }>();
  for (const [retry, slot] of state.retries) {
    if (!state.cards.has(retry)) continue;
    latest.set(slot, { id: retry, attempt: (latest.get(slot)?.attempt ?? 1) + 1 });
  }
  const slots: CardSlot[] = [];
  for (const [id, card] of state.cards) {
    if (state.retries.has(id)) continue;
    const shown = latest.get(id);
    const current = shown === undefined ? undefined : state.cards.get(shown.id);
    slots.push({
      slot: id,
      card: current ?? card,
      attempt: current === undefined ? 1 : shown!.attempt,
      ...(card.invocation.modelCallId === undefined ? {} : { modelCallId: card.invocation.modelCallId }),
    });
  }
  return slots;
}

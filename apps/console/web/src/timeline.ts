import type { CardSlot } from './card-slots.js';
import type { ChatLine } from '../../src/wire.js';

/** One entry of a conversation as the page draws it: a line of the chat, or a call's card. */
export type TimelineItem =
  { readonly kind: 'line'; readonly line: ChatLine } | { readonly kind: 'card'; readonly slot: CardSlot };

/**
 * A conversation in the order it happened: the chat's lines, each call the model made at its own line (inside the
 * turn that made it), and the calls made another way (by hand from the launcher, by a view) among the lines by the
 * time they began, after a line of the same moment. A card not drawn yet (an older one past the window) is left out,
 * and so is its line.
 */
export function timeline(lines: readonly ChatLine[], slots: readonly CardSlot[]): TimelineItem[] {
  const bySlot = new Map(slots.map((slot) => [slot.slot, slot]));
  const claimed = new Set(
    lines.flatMap((line) => (line.role === 'call' && line.invocationId ? [line.invocationId] : [])),
  );
  const loose = slots
    .filter((slot) => !claimed.has(slot.slot))
    .sort((a, b) => a.card.invocation.createdAt - b.card.invocation.createdAt);
  const items: TimelineItem[] = [];
  let next = 0;
  for (const line of lines) {
    while (next < loose.length && loose[next]!.card.invocation.createdAt < line.at) {
      items.push({ kind: 'card', slot: loose[next++]! });
    }
    if (line.role !== 'call') {
      items.push({ kind: 'line', line });
      continue;
    }
    const slot = line.invocationId === undefined ? undefined : bySlot.get(line.invocationId);
    if (slot !== undefined) items.push({ kind: 'card', slot });
  }
  for (; next < loose.length; next++) items.push({ kind: 'card', slot: loose[next]! });
  return items;
}

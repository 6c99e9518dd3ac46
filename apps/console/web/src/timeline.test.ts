import { describe, expect, it } from 'vitest';
import type { CardSlot } from './card-slots.js';
import { timeline } from './timeline.js';
import type { TimelineItem } from './timeline.js';
import type { ChatLine } from '../../src/wire.js';

const line = (id: number, at: number, fields: Partial<ChatLine> = {}): ChatLine => ({
  id,
  conversationId: 'main',
  role: 'user',
  text: `line ${id}`,
  at,
  ...fields,
});

const slot = (id: string, createdAt: number): CardSlot =>
  ({ slot: id, attempt: 1, card: { invocation: { id, createdAt } } }) as unknown as CardSlot;

const names = (items: TimelineItem[]) =>
  items.map((item) => (item.kind === 'line' ? `line ${item.line.id}` : `card ${item.slot.slot}`));

describe('a conversation in the order it happened', () => {
  it("puts each of the model's calls at its own line, inside the turn that made it", () => {
    const lines = [
      line(1, 10),
      line(2, 11, { role: 'assistant' }),
      line(3, 12, { role: 'call', text: '', invocationId: 'model-call' }),
      line(4, 30, { role: 'assistant' }),
    ];
    // The card's call began later than the reply after it (a slow record): its line decides, not its time.
    expect(names(timeline(lines, [slot('model-call', 40)]))).toEqual(['line 1', 'line 2', 'card model-call', 'line 4']);
  });

  it('puts calls made by hand among the lines by the time they began, after a line of the same moment', () => {
    const lines = [line(1, 10), line(2, 20, { role: 'assistant' })];
    const slots = [slot('late', 25), slot('between', 15), slot('first', 5), slot('tie', 20)];
    expect(names(timeline(lines, slots))).toEqual([
      'card first',
      'line 1',
      'card between',
      'line 2',
      'card tie',
      'card late',
    ]);
  });

  it('leaves out a call whose card is not drawn, and its line', () => {
    const lines = [line(1, 10), line(2, 11, { role: 'call', text: '', invocationId: 'older' })];
    expect(names(timeline(lines, []))).toEqual(['line 1']);
  });
});

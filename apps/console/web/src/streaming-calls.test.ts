import { describe, expect, it } from 'vitest';
import type { InvocationRecord } from '@airlock/core';
import { cardSlots } from './card-slots.js';
import { DEFAULT_CONVERSATION } from './conversation.js';
import { reduce } from './reduce.js';
import { initialState } from './state.js';
import type { PageState } from './state.js';
import { slotKey, streamingSlot } from './streaming-slot.js';
import type { ConsoleEvent } from '../../src/console-events.js';
import type { Snapshot } from '../../src/wire.js';

const SNAPSHOT: Snapshot = {
  session: { userId: 'ana', workspaceId: 'default', admin: true },
  conversationId: DEFAULT_CONVERSATION,
  servers: [],
  modelTools: [],
  userTools: [],
  decisions: [],
  cards: [],
  permissionRequests: [],
  elicitations: [],
  urlFlows: [],
  chat: { configured: true, busy: true, lines: [], conversations: [], models: [] },
};

const partial = (args: Record<string, unknown>, modelCallId = 'call_1', conversationId = DEFAULT_CONVERSATION) =>
  ({
    name: 'tool.input.partial',
    data: { conversationId, modelCallId, tool: 'demo__show_dashboard', serverId: 'demo', args },
  }) as const satisfies ConsoleEvent;

const made = (modelCallId: string): ConsoleEvent => {
  const invocation: InvocationRecord = {
    id: 'inv-1',
    scope: { userId: 'ana', workspaceId: 'default', conversationId: DEFAULT_CONVERSATION },
    caller: { kind: 'model' },
    tool: 'demo__show_dashboard',
    serverId: 'demo',
    originalName: 'show_dashboard',
    definitionHash: 'hash',
    args: { title: 'Q3 notes' },
    argsHash: 'h',
    state: 'pending',
    outcome: null,
    error: null,
    createdAt: 1,
    updatedAt: 1,
    modelCallId,
  };
  return { name: 'invocation', data: { invocation } };
};

const after = (...events: ConsoleEvent[]): PageState =>
  events.reduce(reduce, reduce(initialState(), { name: 'state', data: SNAPSHOT }));

describe('calls the model is still writing, on the page', () => {
  it("keeps each call's latest input so far, in the order the calls began, for this conversation only", () => {
    const state = after(
      partial({}),
      partial({ title: 'Q' }, 'call_2'),
      partial({ title: 'Q3' }),
      partial({ title: 'elsewhere' }, 'call_9', 'side'),
    );
    expect(state.streamingCalls.map((c) => [c.modelCallId, c.args])).toEqual([
      ['call_1', { title: 'Q3' }],
      ['call_2', { title: 'Q' }],
    ]);
  });

  it('gives way to the call once it is made, under the same key, and ignores input that comes after it', () => {
    const writing = after(partial({ title: 'Q3' }));
    const early = slotKey(streamingSlot(writing.streamingCalls[0]!, SNAPSHOT));
    const state = reduce(reduce(writing, made('call_1')), partial({ title: 'Q3 no' }));
    expect(state.streamingCalls).toEqual([]);
    const [slot] = cardSlots(state);
    expect(slotKey(slot!)).toBe(early);
  });

  it('drops a call never made when the turn ends (stopped, or the model gave up on it)', () => {
    const state = after(partial({ title: 'Q' }), {
      name: 'chat.turn',
      data: { conversationId: DEFAULT_CONVERSATION, busy: false },
    });
    expect(state.streamingCalls).toEqual([]);
  });

  it('draws a call being written as a waiting call of its tool with no id of its own, holding the input so far', () => {
    const slot = streamingSlot(after(partial({ title: 'Q3' })).streamingCalls[0]!, SNAPSHOT);
    expect(slot.streaming).toBe(true);
    expect(slot.card.invocation).toMatchObject({
      tool: 'demo__show_dashboard',
      state: 'pending',
      args: { title: 'Q3' },
      modelCallId: 'call_1',
      caller: { kind: 'model' },
    });
  });
});

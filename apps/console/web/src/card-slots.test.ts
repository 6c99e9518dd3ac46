import { describe, expect, it } from 'vitest';
import type { ElicitationRequest, InvocationRecord, PermissionRequest } from '@airlock/core';
import { cardSlots } from './card-slots.js';
import { reduce, retryKey } from './reduce.js';
import { initialState } from './state.js';
import { DEFAULT_CONVERSATION } from './conversation.js';
import type { PageState } from './state.js';
import type { ConsoleEvent } from '../../src/console-events.js';
import type { Card, Snapshot } from '../../src/wire.js';

const scope = { userId: 'ana', workspaceId: 'default', conversationId: DEFAULT_CONVERSATION };

function card(id: string, fields: Partial<InvocationRecord> = {}): Card {
  return {
    invocation: {
      id,
      scope,
      caller: { kind: 'user' },
      tool: 'demo__echo',
      serverId: 'demo',
      originalName: 'echo',
      definitionHash: 'hash',
      args: { text: 'hi' },
      argsHash: 'args',
      state: 'error',
      outcome: 'tool_error',
      error: { code: 'tool_error', message: 'boom' },
      createdAt: 1,
      updatedAt: 1,
      ...fields,
    },
  };
}

/** A page showing the default conversation (events of a call arrive after the stream's snapshot). */
const shown = (): PageState => ({ ...initialState(), snapshot: { conversationId: DEFAULT_CONVERSATION } as Snapshot });

const run = (state: PageState, ...events: ConsoleEvent[]) => events.reduce(reduce, state);
const invocationEvent = (data: Card): ConsoleEvent => ({ name: 'invocation', data });

describe('retries in the same card', () => {
  it('shows a retry it asked for in the card of the call it retries, as attempt 2, even before the request answers', () => {
    let state = run(shown(), invocationEvent(card('first')), invocationEvent(card('other', { tool: 'demo__x' })));
    state = { ...state, retrying: [{ slot: 'first', tool: 'demo__echo', args: retryKey({ text: 'hi' }) }] };
    state = run(state, invocationEvent(card('second', { state: 'pending', outcome: null, error: null })));
    expect(state.retries.get('second')).toBe('first');
    expect(state.retrying).toEqual([]);
    const slots = cardSlots(state);
    expect(slots.map((s) => [s.slot, s.card.invocation.id, s.attempt])).toEqual([
      ['first', 'second', 2],
      ['other', 'other', 1],
    ]);
  });

  it('does not take a call with other arguments for the retry', () => {
    let state = run(shown(), invocationEvent(card('first')));
    state = { ...state, retrying: [{ slot: 'first', tool: 'demo__echo', args: retryKey({ text: 'hi' }) }] };
    state = run(state, invocationEvent(card('unrelated', { args: { text: 'else' } })));
    expect(state.retries.size).toBe(0);
    expect(cardSlots(state)).toHaveLength(2);
  });

  it('notes which calls the permission sheet asked about', () => {
    const request = { invocationId: 'second', scope } as unknown as PermissionRequest;
    const state = run(shown(), { name: 'permission.requested', data: request });
    expect(state.asked.has('second')).toBe(true);
  });
});

describe('questions that go away unanswered', () => {
  const question = { id: 'q1', scope, serverId: 'demo', tool: 'demo__ask', mode: 'form' } as ElicitationRequest;

  it('leaves a notice when the server withdraws a question or it times out, and none when it was answered', () => {
    for (const end of ['server_cancelled', 'timeout'] as const) {
      const state = run(
        initialState(),
        { name: 'elicitation.requested', data: question },
        { name: 'elicitation.closed', data: { id: 'q1', action: 'cancel', end } },
      );
      expect(state.questions).toEqual([]);
      expect(state.closedQuestions).toEqual([{ id: 'q1', serverId: 'demo', tool: 'demo__ask', end }]);
    }
    const answered = run(
      shown(),
      { name: 'elicitation.requested', data: question },
      { name: 'elicitation.closed', data: { id: 'q1', action: 'accept', end: 'answered' } },
    );
    expect(answered.closedQuestions).toEqual([]);
  });
});

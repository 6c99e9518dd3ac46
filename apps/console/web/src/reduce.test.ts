import { describe, expect, it } from 'vitest';
import type { ElicitationRequest, InvocationRecord, PermissionRequest, ToolProgress } from '@airlock/core';
import { reduce } from './reduce.js';
import { initialState } from './state.js';
import { DEFAULT_CONVERSATION } from './conversation.js';
import type { PageState } from './state.js';
import type { ConsoleEvent } from '../../src/console-events.js';
import type { Card, ChatLine, Snapshot } from '../../src/wire.js';

const scope = (conversationId = DEFAULT_CONVERSATION) => ({ userId: 'ana', workspaceId: 'default', conversationId });

function invocation(id: string, fields: Partial<InvocationRecord> = {}): InvocationRecord {
  return {
    id,
    scope: scope(),
    caller: { kind: 'user' },
    tool: 'demo__echo',
    serverId: 'demo',
    originalName: 'echo',
    definitionHash: 'hash',
    args: {},
    argsHash: 'args',
    state: 'running',
    outcome: null,
    error: null,
    createdAt: 1,
    updatedAt: 1,
    ...fields,
  };
}

const card = (id: string, fields: Partial<InvocationRecord> = {}, more: Partial<Card> = {}): Card => ({
  invocation: invocation(id, fields),
  ...more,
});

const result = { blocks: [] } as unknown as NonNullable<Card['result']>;
const progress = { progress: 1, total: 2 } as ToolProgress;

const permission = (invocationId: string) => ({ invocationId, scope: scope() }) as unknown as PermissionRequest;

function question(id: string, fields: Partial<ElicitationRequest> = {}): ElicitationRequest {
  return {
    id,
    scope: scope(),
    invocationId: 'call-1',
    serverId: 'demo',
    tool: 'demo__book',
    mode: 'url',
    message: 'Sign in to the calendar',
    createdAt: 1,
    deadline: 60_000,
    serverElicitationId: `flow-${id}`,
    ...fields,
  };
}

const line = (id: number, conversationId = DEFAULT_CONVERSATION): ChatLine => ({
  id,
  conversationId,
  role: 'user',
  text: `line ${id}`,
  at: id,
});

function snapshot(fields: Partial<Snapshot> = {}): Snapshot {
  return {
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
    chat: { configured: false, busy: false, lines: [], conversations: [], models: [] },
    ...fields,
  };
}

/** The state after a sequence of events, from a page with nothing in it. */
const after = (...events: ConsoleEvent[]): PageState => events.reduce(reduce, initialState());
const opened = (fields: Partial<Snapshot> = {}): ConsoleEvent => ({ name: 'state', data: snapshot(fields) });

describe('reduce', () => {
  it('rebuilds the whole page from a snapshot, so nothing of the state before survives it', () => {
    const before: PageState = {
      ...after(opened(), { name: 'invocation', data: card('old') }),
      notice: 'something failed',
      audit: { events: [] },
      fullTexts: new Map([['old', 'text']]),
    };
    const state = reduce(before, opened({ cards: [card('new')], permissionRequests: [permission('p1')] }));
    expect([...state.cards.keys()]).toEqual(['new']);
    expect(state.permissionRequests.map((r) => r.invocationId)).toEqual(['p1']);
    expect(state.notice).toBeUndefined();
    expect(state.audit).toBeUndefined();
    expect(state.fullTexts.size).toBe(0);
  });

  it("keeps the launcher's tool when the same person reconnects, and drops it when another signs in", () => {
    const chosen: PageState = { ...after(opened()), launcherTool: 'demo__echo' };
    expect(reduce(chosen, opened()).launcherTool).toBe('demo__echo');
    const other = opened({ session: { userId: 'bruno', workspaceId: 'default', admin: true } });
    expect(reduce(chosen, other).launcherTool).toBeUndefined();
  });

  it("shows a snapshot that could not be built as the console's own notice, with the reason", () => {
    const state = after({ name: 'failure', data: { code: 'store_error', message: 'disk full' } });
    expect(state.notice).toEqual({ key: 'console.state_failed', params: { message: 'disk full' } });
  });

  it('adds the card of a call in this conversation, and ignores a call of another conversation', () => {
    const state = after(
      opened(),
      { name: 'invocation', data: card('here') },
      { name: 'invocation', data: card('elsewhere', { scope: scope('side') }) },
    );
    expect([...state.cards.keys()]).toEqual(['here']);
  });

  it('never lets an older state of a card replace a newer one', () => {
    const state = after(
      opened(),
      { name: 'invocation', data: card('c1', { state: 'success', updatedAt: 5 }, { result }) },
      { name: 'invocation', data: card('c1', { state: 'running', updatedAt: 3 }) },
    );
    expect(state.cards.get('c1')?.invocation.state).toBe('success');
  });

  it("keeps a running card's progress until its result arrives", () => {
    const running = after(
      opened({ cards: [card('c1')] }),
      { name: 'invocation.progress', data: { invocationId: 'c1', progress } },
      { name: 'invocation', data: card('c1', { updatedAt: 2 }) },
    );
    expect(running.cards.get('c1')?.progress).toEqual(progress);
    const done = reduce(running, {
      name: 'invocation',
      data: card('c1', { state: 'success', updatedAt: 3 }, { result }),
    });
    expect(done.cards.get('c1')?.progress).toBeUndefined();
    expect(done.cards.get('c1')?.result).toBe(result);
  });

  it("keeps a task's start from when its call became a task (or the snapshot's), through its statuses, until it ends", () => {
    const live = after(
      opened({ cards: [card('c1')] }),
      { name: 'invocation', data: card('c1', { state: 'working', updatedAt: 40 }) },
      { name: 'invocation', data: card('c1', { state: 'input_required', updatedAt: 90 }) },
    );
    expect(live.cards.get('c1')?.taskStartedAt).toBe(40);
    const resumed = after(opened({ cards: [card('c2', { state: 'working', updatedAt: 500 }, { taskStartedAt: 7 })] }), {
      name: 'invocation',
      data: card('c2', { state: 'input_required', updatedAt: 600 }),
    });
    expect(resumed.cards.get('c2')?.taskStartedAt).toBe(7);
    const ended = reduce(resumed, {
      name: 'invocation',
      data: card('c2', { state: 'success', updatedAt: 700 }, { result }),
    });
    expect(ended.cards.get('c2')?.taskStartedAt).toBeUndefined();
  });

  it('ignores progress of a call it shows no card for', () => {
    const before = after(opened());
    expect(reduce(before, { name: 'invocation.progress', data: { invocationId: 'nope', progress } })).toBe(before);
  });

  it('shows each permission question once, and drops it when it closes', () => {
    const asked = after(
      opened(),
      { name: 'permission.requested', data: permission('p1') },
      { name: 'permission.requested', data: permission('p1') },
      { name: 'permission.requested', data: permission('p2') },
    );
    expect(asked.permissionRequests.map((r) => r.invocationId)).toEqual(['p1', 'p2']);
    const closed = reduce(asked, { name: 'permission.closed', data: { id: 'p1', decision: 'allow_once' } });
    expect(closed.permissionRequests.map((r) => r.invocationId)).toEqual(['p2']);
  });

  it('shows each question once', () => {
    const state = after(
      opened(),
      { name: 'elicitation.requested', data: question('q1') },
      { name: 'elicitation.requested', data: question('q1') },
    );
    expect(state.questions.map((q) => q.id)).toEqual(['q1']);
  });

  it('turns an accepted URL question into a URL flow, which goes when the server says the flow completed', () => {
    const accepted = after(
      opened(),
      { name: 'elicitation.requested', data: question('q1') },
      { name: 'elicitation.closed', data: { id: 'q1', action: 'accept', end: 'answered' } },
    );
    expect(accepted.questions).toEqual([]);
    expect(accepted.urlFlows.map((q) => q.id)).toEqual(['q1']);
    const completed = reduce(accepted, { name: 'elicitation.completed', data: { id: 'q1' } });
    expect(completed.urlFlows).toEqual([]);
  });

  it('keeps no URL flow for a declined URL question, an accepted form, or a URL the server did not name', () => {
    const state = after(
      opened(),
      { name: 'elicitation.requested', data: question('declined') },
      { name: 'elicitation.requested', data: question('form', { mode: 'form', serverElicitationId: undefined }) },
      { name: 'elicitation.requested', data: question('unnamed', { serverElicitationId: undefined }) },
      { name: 'elicitation.closed', data: { id: 'declined', action: 'decline', end: 'answered' } },
      { name: 'elicitation.closed', data: { id: 'form', action: 'accept', end: 'answered' } },
      { name: 'elicitation.closed', data: { id: 'unnamed', action: 'accept', end: 'answered' } },
    );
    expect(state.questions).toEqual([]);
    expect(state.urlFlows).toEqual([]);
  });

  it("adds chat lines of this page's conversation only", () => {
    const state = after(
      opened(),
      { name: 'chat.line', data: line(1) },
      { name: 'chat.line', data: line(2, 'side') },
      { name: 'chat.line', data: line(3) },
    );
    expect(state.chatLines.map((l) => l.id)).toEqual([1, 3]);
  });

  it('adds a line once, even when the stream repeats it after a reconnect', () => {
    const state = after(opened(), { name: 'chat.line', data: line(1) }, { name: 'chat.line', data: line(1) });
    expect(state.chatLines.map((l) => l.id)).toEqual([1]);
  });

  it("appends streamed text to its line of this page's conversation, and to no other", () => {
    const state = after(
      opened(),
      { name: 'chat.line', data: { ...line(1), role: 'assistant', text: 'Hel' } },
      { name: 'chat.line', data: { ...line(2), role: 'call', text: '', invocationId: 'c1' } },
      { name: 'chat.delta', data: { conversationId: DEFAULT_CONVERSATION, id: 1, text: 'lo' } },
      { name: 'chat.delta', data: { conversationId: 'side', id: 1, text: ' there' } },
      { name: 'chat.delta', data: { conversationId: DEFAULT_CONVERSATION, id: 9, text: 'nowhere' } },
    );
    expect(state.chatLines.map((l) => l.text)).toEqual(['Hello', '']);
  });

  it("is busy while this conversation's turn runs, as the snapshot says on opening, and lists conversations", () => {
    const turning = after(opened(), {
      name: 'chat.turn',
      data: { conversationId: DEFAULT_CONVERSATION, busy: true },
    });
    expect(turning.chatBusy).toBe(true);
    expect(reduce(turning, { name: 'chat.turn', data: { conversationId: 'side', busy: false } }).chatBusy).toBe(true);
    expect(
      reduce(turning, { name: 'chat.turn', data: { conversationId: DEFAULT_CONVERSATION, busy: false } }).chatBusy,
    ).toBe(false);
    expect(
      after(opened({ chat: { configured: true, busy: true, lines: [], conversations: [], models: [] } })).chatBusy,
    ).toBe(true);
    const listed = [{ id: 'side', title: 'Another chat', updatedAt: 5 }];
    expect(reduce(turning, { name: 'conversations', data: { conversations: listed } }).conversations).toEqual(listed);
  });

  it('leaves the state as it is for events that only ask the page to refetch, reconnect or sign in again', () => {
    const before = after(opened());
    const events: ConsoleEvent[] = [
      { name: 'permissions.changed', data: {} },
      { name: 'server.state', data: { serverId: 'demo', state: 'ready' } },
      { name: 'tools.changed', data: {} },
      { name: 'session.workspace', data: { workspaceId: 'other' } },
      { name: 'session.ended', data: {} },
    ];
    for (const event of events) expect(reduce(before, event)).toBe(before);
  });

  it('never changes the state it is given', () => {
    const before = after(opened({ cards: [card('c1')] }), { name: 'elicitation.requested', data: question('q1') });
    const cards = before.cards;
    const questions = before.questions;
    reduce(before, { name: 'invocation', data: card('c2') });
    reduce(before, { name: 'elicitation.closed', data: { id: 'q1', action: 'accept', end: 'answered' } });
    reduce(before, { name: 'invocation.progress', data: { invocationId: 'c1', progress } });
    expect(before.cards).toBe(cards);
    expect([...cards.keys()]).toEqual(['c1']);
    expect(cards.get('c1')?.progress).toBeUndefined();
    expect(before.questions).toBe(questions);
    expect(questions.map((q) => q.id)).toEqual(['q1']);
    expect(before.urlFlows).toEqual([]);
  });
});

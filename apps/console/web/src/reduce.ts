import { isAcceptedUrlFlow } from '../../src/accepted-url-flow.js';
import type { InvocationRecord } from '@airlock/core';
import type { ConsoleEvent } from '../../src/console-events.js';
import type { Snapshot } from '../../src/wire.js';
import { initialState } from './state.js';
import type { PageState } from './state.js';

/** A new state from a snapshot: everything is rebuilt, so nothing of another session or workspace survives it. */
function fromSnapshot(state: PageState, snapshot: Snapshot): PageState {
  // The tool chosen in the launcher stays when the same person reconnects (a workspace switch, a restart).
  const launcherTool = snapshot.session.userId === state.snapshot?.session.userId ? state.launcherTool : undefined;
  return {
    ...initialState(),
    snapshot,
    cards: new Map(snapshot.cards.map((card) => [card.invocation.id, card])),
    permissionRequests: snapshot.permissionRequests,
    questions: snapshot.elicitations,
    urlFlows: snapshot.urlFlows,
    chatLines: snapshot.chat.lines,
    chatBusy: snapshot.chat.busy,
    conversations: snapshot.chat.conversations,
    ...(launcherTool === undefined ? {} : { launcherTool }),
  };
}

/** The JSON a retry is matched by: a retry repeats its call's tool and arguments exactly. */
export const retryKey = (args: unknown): string => JSON.stringify(args ?? {});

/**
 * A new call that is a retry this page asked for (same tool and arguments, not seen before) joins the card of the
 * call it retries. The event can arrive before the retry's request has answered, so the match is made here.
 */
function adoptRetry(state: PageState, invocation: InvocationRecord): PageState {
  if (state.cards.has(invocation.id) || state.retries.has(invocation.id)) return state;
  const index = state.retrying.findIndex((r) => r.tool === invocation.tool && r.args === retryKey(invocation.args));
  const wanted = state.retrying[index];
  if (wanted === undefined) return state;
  return {
    ...state,
    retries: new Map(state.retries).set(invocation.id, wanted.slot),
    retrying: state.retrying.filter((_, i) => i !== index),
  };
}

/**
 * The page's state after one event of its stream. Pure: what an event also asks of the page (fetch a whole result,
 * refetch the tool list, reconnect, notify) is done by the event stream, from the state before and after.
 */
export function reduce(state: PageState, event: ConsoleEvent): PageState {
  switch (event.name) {
    case 'state':
      return fromSnapshot(state, event.data);
    case 'failure':
      return { ...state, notice: { key: 'console.state_failed', params: { message: event.data.message } } };
    case 'invocation': {
      const card = event.data;
      const id = card.invocation.id;
      const known = state.cards.get(id);
      // Events can cross: an older state of a card never replaces a newer one.
      if (known !== undefined && known.invocation.updatedAt > card.invocation.updatedAt) return state;
      if (card.invocation.scope.conversationId !== state.snapshot?.conversationId) return state;
      // A task's start: as the card knew it, else the moment its call became a task (its move to working).
      const { state: to } = card.invocation;
      const taskStartedAt =
        to === 'working' || to === 'input_required'
          ? (known?.taskStartedAt ?? card.taskStartedAt ?? card.invocation.updatedAt)
          : undefined;
      const merged = {
        ...card,
        ...(known?.progress && !card.result ? { progress: known.progress } : {}),
        ...(taskStartedAt === undefined ? {} : { taskStartedAt }),
      };
      return {
        ...adoptRetry(state, card.invocation),
        cards: new Map(state.cards).set(id, merged),
        // A call the model was writing is made: its card takes the early view's place (the same view).
        ...(card.invocation.modelCallId === undefined
          ? {}
          : { streamingCalls: state.streamingCalls.filter((c) => c.modelCallId !== card.invocation.modelCallId) }),
      };
    }
    case 'invocation.progress': {
      const { invocationId, progress } = event.data;
      const card = state.cards.get(invocationId);
      if (card === undefined) return state;
      return { ...state, cards: new Map(state.cards).set(invocationId, { ...card, progress }) };
    }
    case 'permission.requested': {
      const request = event.data;
      if (state.permissionRequests.some((r) => r.invocationId === request.invocationId)) return state;
      const asked = new Set(state.asked).add(request.invocationId);
      return { ...state, asked, permissionRequests: [...state.permissionRequests, request] };
    }
    case 'permission.closed':
      return { ...state, permissionRequests: state.permissionRequests.filter((r) => r.invocationId !== event.data.id) };
    case 'elicitation.requested': {
      const request = event.data;
      if (state.questions.some((q) => q.id === request.id)) return state;
      return { ...state, questions: [...state.questions, request] };
    }
    case 'elicitation.closed': {
      const { id, action, end } = event.data;
      const question = state.questions.find((q) => q.id === id);
      const questions = state.questions.filter((q) => q.id !== id);
      const flows = question !== undefined && isAcceptedUrlFlow(question, action);
      // A question that goes away unanswered leaves a notice saying so, instead of vanishing.
      const closed =
        question !== undefined && end !== 'answered' && end !== 'workspace_switch'
          ? [...state.closedQuestions, { id, serverId: question.serverId, tool: question.tool, end }]
          : state.closedQuestions;
      return {
        ...state,
        questions,
        closedQuestions: closed,
        ...(flows ? { urlFlows: [...state.urlFlows, question] } : {}),
      };
    }
    case 'elicitation.completed':
      return { ...state, urlFlows: state.urlFlows.filter((q) => q.id !== event.data.id) };
    case 'chat.line':
      if (event.data.conversationId !== state.snapshot?.conversationId) return state;
      if (state.chatLines.some((line) => line.id === event.data.id)) return state;
      return { ...state, chatLines: [...state.chatLines, event.data] };
    case 'chat.delta': {
      const { conversationId, id, text } = event.data;
      if (conversationId !== state.snapshot?.conversationId) return state;
      const index = state.chatLines.findLastIndex((line) => line.id === id);
      const line = state.chatLines[index];
      if (line === undefined) return state;
      const chatLines = [...state.chatLines];
      chatLines[index] = { ...line, text: line.text + text };
      return { ...state, chatLines };
    }
    case 'tool.input.partial': {
      const call = event.data;
      if (call.conversationId !== state.snapshot?.conversationId) return state;
      // Late: the call is made already, and its view has the whole input.
      if ([...state.cards.values()].some((card) => card.invocation.modelCallId === call.modelCallId)) return state;
      const known = state.streamingCalls.some((c) => c.modelCallId === call.modelCallId);
      return {
        ...state,
        streamingCalls: known
          ? state.streamingCalls.map((c) => (c.modelCallId === call.modelCallId ? call : c))
          : [...state.streamingCalls, call],
      };
    }
    case 'chat.turn':
      if (event.data.conversationId !== state.snapshot?.conversationId) return state;
      // A call still being written when the turn ends was never made: its early view goes.
      return { ...state, chatBusy: event.data.busy, ...(event.data.busy ? {} : { streamingCalls: [] }) };
    case 'conversations':
      return { ...state, conversations: event.data.conversations };
    // What these change is refetched or reconnected by the event stream; the state itself stays.
    case 'permissions.changed':
    case 'server.state':
    case 'server.log':
    case 'tools.changed':
    case 'resource.updated':
    case 'session.workspace':
    case 'session.ended':
      return state;
  }
}

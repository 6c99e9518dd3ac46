import { isAcceptedUrlFlow } from '../../src/accepted-url-flow.js';
import type { ConsoleEvent, Snapshot } from './types.js';
import { CONVERSATION, initialState } from './state.js';
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
    ...(launcherTool === undefined ? {} : { launcherTool }),
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
      if (card.invocation.scope.conversationId !== CONVERSATION) return state;
      const merged = { ...card, ...(known?.progress && !card.result ? { progress: known.progress } : {}) };
      return { ...state, cards: new Map(state.cards).set(id, merged) };
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
      return { ...state, permissionRequests: [...state.permissionRequests, request] };
    }
    case 'permission.closed':
      return { ...state, permissionRequests: state.permissionRequests.filter((r) => r.invocationId !== event.data.id) };
    case 'elicitation.requested': {
      const request = event.data;
      if (state.questions.some((q) => q.id === request.id)) return state;
      return { ...state, questions: [...state.questions, request] };
    }
    case 'elicitation.closed': {
      const { id, action } = event.data;
      const question = state.questions.find((q) => q.id === id);
      const questions = state.questions.filter((q) => q.id !== id);
      const flows = question !== undefined && isAcceptedUrlFlow(question, action);
      return { ...state, questions, ...(flows ? { urlFlows: [...state.urlFlows, question] } : {}) };
    }
    case 'elicitation.completed':
      return { ...state, urlFlows: state.urlFlows.filter((q) => q.id !== event.data.id) };
    case 'chat.line':
      if (event.data.conversationId !== CONVERSATION) return state;
      return { ...state, chatLines: [...state.chatLines, event.data] };
    // What these change is refetched or reconnected by the event stream; the state itself stays.
    case 'permissions.changed':
    case 'server.state':
    case 'tools.changed':
    case 'session.workspace':
    case 'session.ended':
      return state;
  }
}

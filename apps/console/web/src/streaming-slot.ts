import type { InvocationRecord } from '@airlock/core';
import type { CardSlot } from './card-slots.js';
import type { StreamingCall } from './state.js';
import type { Snapshot } from '../../src/wire.js';

/**
 * The card of a call the model is still writing, drawn as a waiting call of its tool so that its view (given the
 * input so far) is the same element the call's card keeps once the call is made. Not a call: it has no id the
 * console knows, and nothing in it can be cancelled, retried or sent anywhere.
 */
export function streamingSlot(call: StreamingCall, snapshot: Snapshot): CardSlot {
  const entry = [...snapshot.modelTools, ...snapshot.userTools].find((e) => e.tool.name === call.tool);
  const origin = entry?.tool.origin;
  const invocation: InvocationRecord = {
    id: `streaming:${call.modelCallId}`,
    scope: {
      userId: snapshot.session.userId,
      workspaceId: snapshot.session.workspaceId,
      conversationId: call.conversationId,
    },
    caller: { kind: 'model' },
    tool: call.tool,
    serverId: call.serverId,
    originalName: origin?.kind === 'mcp' ? origin.originalName : call.tool,
    definitionHash: entry?.tool.definitionHash ?? '',
    args: call.args,
    argsHash: '',
    state: 'pending',
    outcome: null,
    error: null,
    createdAt: 0,
    updatedAt: 0,
    modelCallId: call.modelCallId,
  };
  return { slot: invocation.id, card: { invocation }, attempt: 1, modelCallId: call.modelCallId, streaming: true };
}

/** The key a card is drawn under: a card of a call the model wrote keeps the key of the early view it replaces. */
export const slotKey = (slot: CardSlot): string =>
  slot.modelCallId === undefined ? `card-${slot.slot}` : `call-${slot.modelCallId}`;

import { HostError } from '../errors/host-error.js';
import { CONVERSATION_CONTENTS_MAX, CONVERSATION_TITLE_MAX } from '../store/conversation-record.js';
import type { ConversationRecord } from '../store/conversation-record.js';

// The rules every store keeps for conversations, written once (as store-checks.ts does for the rest).

/** The refusal of a `conversation.put` whose `ifUpdatedAt` is not the revision kept. */
export function conversationConflict(id: string): HostError {
  return new HostError('conflict', `conversation ${id} was changed by another writer since it was read`, {
    data: { id },
  });
}

/** How many conversations a list gives when asked for no number, and the most it gives. */
export const DEFAULT_CONVERSATION_PAGE = 100;
export const MAX_CONVERSATION_PAGE = 1000;

function invalid(message: string, field: string): HostError {
  return new HostError('invalid_arguments', message, { data: { field } });
}

/**
 * The record as a store keeps it, or `invalid_arguments` naming the field a store could not keep faithfully: a
 * missing text, an id of '' or over 256 characters, a title over `CONVERSATION_TITLE_MAX`, contents over
 * `CONVERSATION_CONTENTS_MAX`, a time that is not a number.
 */
export function storedConversation(record: ConversationRecord): ConversationRecord {
  const r = record;
  for (const field of ['userId', 'workspaceId', 'id', 'title', 'messages', 'lines', 'context'] as const) {
    if (typeof r[field] !== 'string') throw invalid(`conversation ${field} must be a string`, field);
  }
  if (r.id === '' || r.id.length > 256) throw invalid('a conversation id must have 1 to 256 characters', 'id');
  if (r.title.length > CONVERSATION_TITLE_MAX) {
    throw invalid(`a conversation title has at most ${CONVERSATION_TITLE_MAX} characters`, 'title');
  }
  const size = r.messages.length + r.lines.length + r.context.length;
  if (size > CONVERSATION_CONTENTS_MAX) {
    throw invalid(
      `a conversation's contents hold at most ${CONVERSATION_CONTENTS_MAX} characters (${size} given)`,
      'messages',
    );
  }
  for (const field of ['createdAt', 'updatedAt'] as const) {
    if (typeof r[field] !== 'number' || !Number.isFinite(r[field])) {
      throw invalid(`conversation ${field} must be a time in milliseconds`, field);
    }
  }
  return {
    userId: r.userId,
    workspaceId: r.workspaceId,
    id: r.id,
    title: r.title,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    messages: r.messages,
    lines: r.lines,
    context: r.context,
  };
}

/** How many conversations a list gives: the default when unset, `invalid_arguments` outside 1..1000. */
export function conversationLimit(options: { readonly limit?: number } | undefined): number {
  const limit = options?.limit ?? DEFAULT_CONVERSATION_PAGE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CONVERSATION_PAGE) {
    throw invalid(`limit must be an integer from 1 to ${MAX_CONVERSATION_PAGE}, not ${String(limit)}`, 'limit');
  }
  return limit;
}

import type { ConversationRecord, ConversationSummary } from '../../store/conversation-record.js';

// The conversations table, the same columns in SQLite (migration 8) and PostgreSQL (migration 12).

export const CONVERSATION_SUMMARY_COLUMNS = 'user_id, workspace_id, id, title, created_at, updated_at';
export const CONVERSATION_COLUMNS = `${CONVERSATION_SUMMARY_COLUMNS}, messages, lines, context`;

/** An upsert that keeps the first `created_at`; `$n` placeholders for PostgreSQL, `?` for SQLite. */
export function conversationUpsert(placeholders: readonly string[]): string {
  return (
    `INSERT INTO conversations (${CONVERSATION_COLUMNS}) VALUES (${placeholders.join(', ')}) ` +
    'ON CONFLICT (user_id, workspace_id, id) DO UPDATE SET title = excluded.title, ' +
    'updated_at = excluded.updated_at, messages = excluded.messages, lines = excluded.lines, ' +
    'context = excluded.context'
  );
}

/** The insert of a conversation that must not be kept yet (a conflict inserts nothing). */
export function conversationInsertNew(placeholders: readonly string[]): string {
  return (
    `INSERT INTO conversations (${CONVERSATION_COLUMNS}) VALUES (${placeholders.join(', ')}) ` +
    'ON CONFLICT (user_id, workspace_id, id) DO NOTHING'
  );
}

/**
 * The replacement of the revision kept at `updated_at` = the last placeholder; the others are the contents in
 * `conversationReplaceParams` order (another revision: nothing is changed).
 */
export function conversationReplace(placeholders: readonly string[]): string {
  const [title, updatedAt, messages, lines, context, userId, workspaceId, id, expected] = placeholders;
  return (
    `UPDATE conversations SET title = ${title}, updated_at = ${updatedAt}, messages = ${messages}, ` +
    `lines = ${lines}, context = ${context} WHERE user_id = ${userId} AND workspace_id = ${workspaceId} ` +
    `AND id = ${id} AND updated_at = ${expected}`
  );
}

/** The parameters of `conversationReplace`. */
export function conversationReplaceParams(
  r: ConversationRecord,
  expected: number,
): [string, number, string, string, string, string, string, string, number] {
  return [r.title, r.updatedAt, r.messages, r.lines, r.context, r.userId, r.workspaceId, r.id, expected];
}

/** A row as both databases return it (PostgreSQL's BIGINT as a string). */
export interface ConversationRow {
  readonly user_id: string;
  readonly workspace_id: string;
  readonly id: string;
  readonly title: string;
  readonly created_at: number | string;
  readonly updated_at: number | string;
  readonly messages?: string;
  readonly lines?: string;
  readonly context?: string;
}

export function conversationSummaryFromRow(row: ConversationRow): ConversationSummary {
  return {
    userId: row.user_id,
    workspaceId: row.workspace_id,
    id: row.id,
    title: row.title,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function conversationFromRow(row: ConversationRow): ConversationRecord {
  return {
    ...conversationSummaryFromRow(row),
    messages: row.messages ?? '',
    lines: row.lines ?? '',
    context: row.context ?? '',
  };
}

/** The parameters of an upsert, in `CONVERSATION_COLUMNS` order. */
export function conversationParams(
  r: ConversationRecord,
): [string, string, string, string, number, number, string, string, string] {
  return [r.userId, r.workspaceId, r.id, r.title, r.createdAt, r.updatedAt, r.messages, r.lines, r.context];
}

import { conversationConflict, conversationLimit, storedConversation } from '../conversation-checks.js';
import type { ConversationRecord, ConversationSummary } from '../../store/conversation-record.js';
import type { DecisionTenant, StoreWrite } from '../../store/host-store.js';
import {
  CONVERSATION_COLUMNS,
  CONVERSATION_SUMMARY_COLUMNS,
  conversationFromRow,
  conversationInsertNew,
  conversationParams,
  conversationReplace,
  conversationReplaceParams,
  conversationSummaryFromRow,
  conversationUpsert,
} from '../sql/conversation-rows.js';
import type { ConversationRow } from '../sql/conversation-rows.js';
import { PARSERS } from './postgres-statements.js';
import type { PgClient, PgPool } from './postgres-store-config.js';

// The conversations table of a PostgresStore (migration 12): the two writes, run inside the batch's transaction, and
// the two reads. Any instance reads what another kept, so a conversation resumes wherever its user lands.

/** Applies a `conversation.put` or `conversation.delete` write on the batch's connection. */
export async function applyConversationWrite(
  client: PgClient,
  write: Extract<StoreWrite, { kind: 'conversation.put' | 'conversation.delete' }>,
): Promise<void> {
  if (write.kind === 'conversation.put' && write.ifUpdatedAt !== undefined) {
    const record = storedConversation(write.record);
    const dollars = Array.from({ length: 9 }, (_, i) => `$${i + 1}`);
    const { rowCount } =
      write.ifUpdatedAt === null
        ? await client.query({ text: conversationInsertNew(dollars), values: conversationParams(record) })
        : await client.query({
            text: conversationReplace(dollars),
            values: conversationReplaceParams(record, write.ifUpdatedAt),
          });
    if (rowCount !== 1) throw conversationConflict(record.id);
    return;
  }
  if (write.kind === 'conversation.put') {
    await client.query({
      name: 'airlock_conversation_put',
      text: conversationUpsert(Array.from({ length: 9 }, (_, i) => `$${i + 1}`)),
      values: conversationParams(storedConversation(write.record)),
    });
    return;
  }
  await client.query({
    name: 'airlock_conversation_delete',
    text: 'DELETE FROM conversations WHERE user_id = $1 AND workspace_id = $2 AND id = $3',
    values: [write.tenant.userId, write.tenant.workspaceId, write.id],
  });
}

export async function getConversation(
  pool: PgPool,
  tenant: DecisionTenant,
  id: string,
): Promise<ConversationRecord | undefined> {
  const { rows } = await pool.query({
    name: 'airlock_conversation_get',
    text: `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE user_id = $1 AND workspace_id = $2 AND id = $3`,
    values: [tenant.userId, tenant.workspaceId, id],
    types: PARSERS,
  });
  const row = rows[0] as ConversationRow | undefined;
  return row === undefined ? undefined : conversationFromRow(row);
}

/** Every tenant's, last updated before `before`: oldest first, then by id in byte order (as SQLite sorts). */
export async function listStaleConversations(
  pool: PgPool,
  query: { readonly before: number; readonly limit: number },
): Promise<ConversationSummary[]> {
  const limit = conversationLimit(query);
  const { rows } = await pool.query({
    name: 'airlock_conversation_stale',
    text:
      `SELECT ${CONVERSATION_SUMMARY_COLUMNS} FROM conversations WHERE updated_at < $1 ` +
      'ORDER BY updated_at, id COLLATE "C" LIMIT $2',
    values: [query.before, limit],
    types: PARSERS,
  });
  return (rows as ConversationRow[]).map(conversationSummaryFromRow);
}

/** Newest first, then by id in byte order (as SQLite sorts). */
export async function listConversations(
  pool: PgPool,
  tenant: DecisionTenant,
  options: { readonly limit?: number } | undefined,
): Promise<ConversationSummary[]> {
  const limit = conversationLimit(options);
  const { rows } = await pool.query({
    name: 'airlock_conversation_list',
    text:
      `SELECT ${CONVERSATION_SUMMARY_COLUMNS} FROM conversations WHERE user_id = $1 AND workspace_id = $2 ` +
      'ORDER BY updated_at DESC, id COLLATE "C" LIMIT $3',
    values: [tenant.userId, tenant.workspaceId, limit],
    types: PARSERS,
  });
  return (rows as ConversationRow[]).map(conversationSummaryFromRow);
}

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
import type { SqliteDatabase, SqliteStatement } from './sqlite-store-config.js';

const BY_KEY = 'user_id = ? AND workspace_id = ? AND id = ?';

/**
 * The conversations table of a `SqliteStore` (migration 8): statements prepared once; the writes run inside the
 * store's write transaction.
 */
export class SqliteConversations {
  readonly #upsert: SqliteStatement;
  readonly #insertNew: SqliteStatement;
  readonly #replace: SqliteStatement;
  readonly #delete: SqliteStatement;
  readonly #get: SqliteStatement;
  readonly #list: SqliteStatement;
  readonly #stale: SqliteStatement;

  constructor(database: SqliteDatabase) {
    this.#upsert = database.prepare(conversationUpsert(Array.from({ length: 9 }, () => '?')));
    this.#insertNew = database.prepare(conversationInsertNew(Array.from({ length: 9 }, () => '?')));
    this.#replace = database.prepare(conversationReplace(Array.from({ length: 9 }, () => '?')));
    this.#delete = database.prepare(`DELETE FROM conversations WHERE ${BY_KEY}`);
    this.#get = database.prepare(`SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE ${BY_KEY}`);
    this.#list = database.prepare(
      `SELECT ${CONVERSATION_SUMMARY_COLUMNS} FROM conversations WHERE user_id = ? AND workspace_id = ? ` +
        'ORDER BY updated_at DESC, id LIMIT ?',
    );
    // A retention sweep's read, hourly at most: a scan of the table is acceptable, so no index (no migration).
    this.#stale = database.prepare(
      `SELECT ${CONVERSATION_SUMMARY_COLUMNS} FROM conversations WHERE updated_at < ? ORDER BY updated_at, id LIMIT ?`,
    );
  }

  /** Applies a `conversation.put` or `conversation.delete` write (inside the caller's transaction). */
  apply(write: Extract<StoreWrite, { kind: 'conversation.put' | 'conversation.delete' }>): void {
    if (write.kind === 'conversation.delete') {
      this.#delete.run(write.tenant.userId, write.tenant.workspaceId, write.id);
      return;
    }
    const record = storedConversation(write.record);
    if (write.ifUpdatedAt === undefined) {
      this.#upsert.run(...conversationParams(record));
      return;
    }
    const { changes } =
      write.ifUpdatedAt === null
        ? this.#insertNew.run(...conversationParams(record))
        : this.#replace.run(...conversationReplaceParams(record, write.ifUpdatedAt));
    if (changes !== 1) throw conversationConflict(record.id);
  }

  get(tenant: DecisionTenant, id: string): ConversationRecord | undefined {
    const row = this.#get.get(tenant.userId, tenant.workspaceId, id) as ConversationRow | undefined;
    return row === undefined ? undefined : conversationFromRow(row);
  }

  stale(query: { readonly before: number; readonly limit: number }): ConversationSummary[] {
    const rows = this.#stale.all(query.before, conversationLimit(query)) as ConversationRow[];
    return rows.map(conversationSummaryFromRow);
  }

  list(tenant: DecisionTenant, options?: { readonly limit?: number }): ConversationSummary[] {
    const rows = this.#list.all(tenant.userId, tenant.workspaceId, conversationLimit(options)) as ConversationRow[];
    return rows.map(conversationSummaryFromRow);
  }
}

import { conversationConflict, conversationLimit, storedConversation } from '../conversation-checks.js';
import type { ConversationRecord, ConversationSummary } from '../../store/conversation-record.js';
import type { DecisionTenant, StoreWrite } from '../../store/host-store.js';

const keyOf = (userId: string, workspaceId: string, id: string) => JSON.stringify([userId, workspaceId, id]);

/**
 * The conversations of a `MemoryStore`, by tenant and id. Each change returns what takes it back, so a refused batch
 * leaves none of its writes.
 */
export class MemoryConversations {
  readonly #rows = new Map<string, ConversationRecord>();

  /** Applies a `conversation.put` or `conversation.delete` write; returns what takes it back. */
  apply(write: Extract<StoreWrite, { kind: 'conversation.put' | 'conversation.delete' }>): () => void {
    const record = write.kind === 'conversation.put' ? storedConversation(write.record) : undefined;
    const key =
      write.kind === 'conversation.put'
        ? keyOf(write.record.userId, write.record.workspaceId, write.record.id)
        : keyOf(write.tenant.userId, write.tenant.workspaceId, write.id);
    const previous = this.#rows.get(key);
    if (write.kind === 'conversation.put' && write.ifUpdatedAt !== undefined) {
      if ((previous?.updatedAt ?? null) !== write.ifUpdatedAt) throw conversationConflict(write.record.id);
    }
    if (record === undefined) this.#rows.delete(key);
    // As the databases do: the first createdAt stays.
    else this.#rows.set(key, previous === undefined ? record : { ...record, createdAt: previous.createdAt });
    return () => {
      if (previous === undefined) this.#rows.delete(key);
      else this.#rows.set(key, previous);
    };
  }

  get(tenant: DecisionTenant, id: string): ConversationRecord | undefined {
    const row = this.#rows.get(keyOf(tenant.userId, tenant.workspaceId, id));
    return row === undefined ? undefined : { ...row };
  }

  /** Every tenant's, last updated before `before`: oldest first, then by id (as the databases sort them). */
  stale(query: { readonly before: number; readonly limit: number }): ConversationSummary[] {
    const limit = conversationLimit(query);
    return [...this.#rows.values()]
      .filter((r) => r.updatedAt < query.before)
      .sort((a, b) => a.updatedAt - b.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, limit)
      .map(({ messages: _m, lines: _l, context: _c, ...summary }) => summary);
  }

  /** Most recently updated first, then by id (as the databases sort them). */
  list(tenant: DecisionTenant, options?: { readonly limit?: number }): ConversationSummary[] {
    const limit = conversationLimit(options);
    return [...this.#rows.values()]
      .filter((r) => r.userId === tenant.userId && r.workspaceId === tenant.workspaceId)
      .sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, limit)
      .map(({ messages: _m, lines: _l, context: _c, ...summary }) => summary);
  }
}

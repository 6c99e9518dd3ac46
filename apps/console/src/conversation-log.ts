import type { ModelMessage } from 'ai';
import { systemClock } from '@airlock/core';
import type { Clock, ConversationRecord, HostStore, Scope } from '@airlock/core';
import type { TabHub } from './tab-hub.js';
import type { ChatLine, ConversationView, ViewContext } from './wire.js';

/** Lines a conversation keeps for the page (the oldest go first). */
const MAX_LINES = 500;
/** Conversations held in memory at once; the least recently used one not in a turn is dropped (it stays stored). */
const MAX_OPEN = 500;
/** What a title keeps of the first message, in characters. */
const TITLE_LENGTH = 60;
/**
 * The most a conversation's contents may take once serialised, under the store's 8 MiB: the oldest turns of the
 * model's transcript go first. A tool result reaches the transcript already bounded by the host's model budget.
 */
const MAX_CONTENTS = 6 * 1024 * 1024;

/** A conversation being shown or answered: its record's fields with its contents as values. */
export interface OpenConversation {
  readonly scope: Scope;
  title: string;
  readonly createdAt: number;
  updatedAt: number;
  messages: ModelMessage[];
  lines: ChatLine[];
  /** What MCP Apps views of it added to the model's context, oldest update first. */
  views: ViewContext[];
  /** Whether the store holds it (a conversation with no message yet is not kept). */
  stored: boolean;
}

/** A line as a turn adds it: everything but its place in the conversation and its time. */
export type NewLine = Omit<ChatLine, 'id' | 'conversationId' | 'at'>;

const keyOf = (scope: Scope) => JSON.stringify([scope.userId, scope.workspaceId, scope.conversationId]);

/** What a conversation is called in the list: its first message on one line, cut with an ellipsis. */
export function titleOf(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= TITLE_LENGTH ? line : `${line.slice(0, TITLE_LENGTH - 1).trimEnd()}…`;
}

/**
 * The chat's conversations: kept in the host's store (so any console instance lists and resumes them, and a restart
 * loses none), held in memory while shown or answered, and told to the tenant's tabs as they change: a new line, text
 * streamed into a line, the list when a conversation is started or renamed.
 */
export class ConversationLog {
  readonly #open = new Map<string, OpenConversation>();
  readonly #store: HostStore;
  readonly #hub: TabHub;
  readonly #clock: Clock;
  /** Conversations a turn is writing to: never dropped from memory while it runs. */
  readonly #pinned = new Set<string>();

  constructor(options: { readonly store: HostStore; readonly hub: TabHub; readonly clock?: Clock }) {
    this.#store = options.store;
    this.#hub = options.hub;
    this.#clock = options.clock ?? systemClock;
  }

  /** The conversation, from memory or the store; a new one (not stored until its first message) when unknown. */
  async open(scope: Scope): Promise<OpenConversation> {
    const key = keyOf(scope);
    const held = this.#open.get(key);
    if (held !== undefined) {
      // Most recently used last, so the first is the one to drop.
      this.#open.delete(key);
      this.#open.set(key, held);
      return held;
    }
    const record = await this.#store.getConversation(scope, scope.conversationId);
    // Another caller may have opened it while the store read.
    const raced = this.#open.get(key);
    if (raced !== undefined) return raced;
    const now = this.#clock.now();
    const opened: OpenConversation =
      record === undefined
        ? { scope, title: '', createdAt: now, updatedAt: now, messages: [], lines: [], views: [], stored: false }
        : {
            scope,
            title: record.title,
            createdAt: record.createdAt,
            updatedAt: record.updatedAt,
            messages: parseList<ModelMessage>(record.messages),
            lines: parseList<ChatLine>(record.lines),
            views: parseViews(record.context),
            stored: true,
          };
    this.#open.set(key, opened);
    this.#dropOldest();
    return opened;
  }

  /** The conversation when it is in memory (a turn holds the one it answers), else undefined. */
  held(scope: Scope): OpenConversation | undefined {
    return this.#open.get(keyOf(scope));
  }

  /** Keeps the conversation in memory until `unpin` (a turn writes to it). */
  pin(conversation: OpenConversation): void {
    this.#pinned.add(keyOf(conversation.scope));
  }

  unpin(conversation: OpenConversation): void {
    this.#pinned.delete(keyOf(conversation.scope));
    this.#dropOldest();
  }

  /** Adds a line and tells the tenant's tabs. */
  addLine(conversation: OpenConversation, line: NewLine): ChatLine {
    const last = conversation.lines.at(-1);
    const added: ChatLine = {
      ...line,
      id: (last?.id ?? 0) + 1,
      conversationId: conversation.scope.conversationId,
      at: this.#clock.now(),
    };
    conversation.lines.push(added);
    if (conversation.lines.length > MAX_LINES) conversation.lines.splice(0, conversation.lines.length - MAX_LINES);
    this.#hub.send(conversation.scope, 'chat.line', added);
    return added;
  }

  /** Appends streamed text to a line and tells the tenant's tabs (each piece once: a page appends it too). */
  appendText(conversation: OpenConversation, lineId: number, text: string): void {
    const index = conversation.lines.findLastIndex((line) => line.id === lineId);
    const line = conversation.lines[index];
    if (line === undefined || text === '') return;
    conversation.lines[index] = { ...line, text: line.text + text };
    this.#hub.send(conversation.scope, 'chat.delta', {
      conversationId: conversation.scope.conversationId,
      id: lineId,
      text,
    });
  }

  /**
   * Stores the conversation as it is now (the transcript cut from its oldest turns to fit), and tells the tenant's
   * tabs the list when it was not stored before or its title changed.
   */
  async save(conversation: OpenConversation, { listChanged = false } = {}): Promise<void> {
    conversation.updatedAt = this.#clock.now();
    const lines = JSON.stringify(conversation.lines);
    let messages = JSON.stringify(conversation.messages);
    while (messages.length + lines.length > MAX_CONTENTS && conversation.messages.length > 0) {
      conversation.messages = dropOldestTurn(conversation.messages);
      messages = JSON.stringify(conversation.messages);
    }
    const { scope } = conversation;
    const record: ConversationRecord = {
      userId: scope.userId,
      workspaceId: scope.workspaceId,
      id: scope.conversationId,
      title: conversation.title,
      createdAt: conversation.createdAt,
      updatedAt: conversation.updatedAt,
      messages,
      lines,
      context: JSON.stringify({ views: conversation.views }),
    };
    const announce = listChanged || !conversation.stored;
    await this.#store.write([{ kind: 'conversation.put', record }]);
    conversation.stored = true;
    if (announce) this.#hub.send(scope, 'conversations', { conversations: await this.list(scope) });
  }

  /** Renames a stored conversation; false when the tenant has none with that id. */
  async rename(scope: Scope, title: string): Promise<boolean> {
    const conversation = await this.open(scope);
    if (!conversation.stored) return false;
    conversation.title = title;
    await this.save(conversation, { listChanged: true });
    return true;
  }

  /**
   * Deletes a stored conversation (its lines and transcript) and tells the tenant's tabs the list; false when the
   * tenant has none with that id, so another user's id reads as unknown.
   */
  async delete(scope: Scope): Promise<boolean> {
    const conversation = await this.open(scope);
    const key = keyOf(scope);
    if (!conversation.stored) {
      this.#open.delete(key);
      return false;
    }
    await this.#store.write([
      {
        kind: 'conversation.delete',
        tenant: { userId: scope.userId, workspaceId: scope.workspaceId },
        id: scope.conversationId,
      },
    ]);
    this.#open.delete(key);
    this.#pinned.delete(key);
    this.#hub.send(scope, 'conversations', { conversations: await this.list(scope) });
    return true;
  }

  /** The tenant's conversations, most recently updated first. */
  async list(tenant: Pick<Scope, 'userId' | 'workspaceId'>): Promise<ConversationView[]> {
    const summaries = await this.#store.listConversations(
      { userId: tenant.userId, workspaceId: tenant.workspaceId },
      { limit: 100 },
    );
    // One kept before its first message (a view's context) has no name yet, and nothing to resume in a list.
    return summaries.filter((c) => c.title !== '').map(({ id, title, updatedAt }) => ({ id, title, updatedAt }));
  }

  #dropOldest(): void {
    for (const [key] of this.#open) {
      if (this.#open.size <= MAX_OPEN) return;
      if (!this.#pinned.has(key)) this.#open.delete(key);
    }
  }
}

/** A stored JSON list read back; anything else (a row written by hand, say) reads as empty rather than failing. */
function parseList<T>(text: string): T[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

/** The views' contexts kept in a record's `context` ({ views: [...] }); anything else reads as none. */
function parseViews(text: string): ViewContext[] {
  try {
    const value = JSON.parse(text) as { views?: unknown };
    return Array.isArray(value.views) ? (value.views as ViewContext[]) : [];
  } catch {
    return [];
  }
}

/**
 * The transcript without its oldest turn: everything up to the second user message goes, so a tool call never stays
 * without its result (or a result without its call).
 */
function dropOldestTurn(messages: ModelMessage[]): ModelMessage[] {
  const next = messages.findIndex((message, index) => index > 0 && message.role === 'user');
  return next === -1 ? [] : messages.slice(next);
}

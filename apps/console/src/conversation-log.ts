import { randomUUID } from 'node:crypto';
import type { ModelMessage } from 'ai';
import { HostError, systemClock } from '@airlock/core';
import type { Clock, ConversationRecord, HostStore, Scope } from '@airlock/core';
import type { ConsoleEventMap } from './console-events.js';
import type { EventHub } from '@airlock/web-kit';
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
/**
 * How long a turn's claim on a conversation holds without a save renewing it: an instance that dies mid-turn leaves
 * the conversation to the others after this.
 */
export const TURN_CLAIM_MS = 15 * 60 * 1000;
/** How often a write that found a newer revision is tried again over it. */
const REBASES = 3;

/** What a second turn is told while one runs in the conversation, on this instance or another. */
export const TURN_BUSY_MESSAGE = 'a reply is already being written in this conversation';

/** A conversation being shown or answered: its record's fields with its contents as values. */
export interface OpenConversation {
  readonly scope: Scope;
  title: string;
  createdAt: number;
  updatedAt: number;
  messages: ModelMessage[];
  lines: ChatLine[];
  /** What MCP Apps views of it added to the model's context, oldest update first. */
  views: ViewContext[];
  /** Whether the store holds it (a conversation with no message yet is not kept). */
  stored: boolean;
  /** The revision kept (its `updatedAt`), which the next save replaces; null when none is kept yet. */
  revision: number | null;
  /** The claim of the turn this log runs in it, when it runs one. */
  turn: string | undefined;
  /** The turn's claim the revision read holds (another log's, maybe): a write outside a turn keeps it as it is. */
  keptClaim?: TurnClaim | undefined;
}

/** A turn's claim as the kept context holds it: whose, and until when unless renewed. */
export interface TurnClaim {
  readonly id: string;
  readonly until: number;
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
  readonly #hub: EventHub<ConsoleEventMap>;
  readonly #clock: Clock;
  /** Conversations a turn is writing to: never dropped from memory while it runs. */
  readonly #pinned = new Set<string>();

  constructor(options: { readonly store: HostStore; readonly hub: EventHub<ConsoleEventMap>; readonly clock?: Clock }) {
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
    const opened: OpenConversation = {
      scope,
      title: '',
      createdAt: now,
      updatedAt: now,
      messages: [],
      lines: [],
      views: [],
      stored: false,
      revision: null,
      turn: undefined,
    };
    if (record !== undefined) readRecord(opened, record);
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
   * Claims the conversation for a turn: read afresh from the store (what another instance kept shows here), then kept
   * with this turn's claim over exactly that revision. Refused with `TURN_BUSY_MESSAGE` (a `conflict`) while another
   * turn's claim holds, here or on another instance, or when another writer kept a revision meanwhile.
   */
  async claimTurn(scope: Scope): Promise<OpenConversation> {
    const conversation = await this.open(scope);
    if (conversation.turn !== undefined) throw busy(scope);
    const record = await this.#store.getConversation(scope, scope.conversationId);
    if (record !== undefined) {
      const claim = parseTurn(record.context);
      if (claim !== undefined && claim.until > this.#clock.now()) throw busy(scope);
      readRecord(conversation, record);
    } else if (conversation.stored) conversation.revision = null;
    conversation.turn = randomUUID();
    try {
      // Kept even before its first message, so a turn starting on another instance at once finds the claim.
      await this.#put(conversation, true);
    } catch (error) {
      conversation.turn = undefined;
      throw isConflict(error) ? busy(scope) : error;
    }
    return conversation;
  }

  /** Ends the turn's claim: the conversation is kept as it is, without it. */
  async releaseTurn(conversation: OpenConversation): Promise<void> {
    if (conversation.turn === undefined) return;
    try {
      if (conversation.stored) await this.save(conversation, { release: true });
    } finally {
      conversation.turn = undefined;
    }
  }

  /**
   * Changes a conversation outside a turn (a rename, a view's context): applied to the revision the store holds now
   * and kept over exactly it, again over a newer one another writer kept meanwhile.
   */
  async update(scope: Scope, change: (conversation: OpenConversation) => void, listChanged = false): Promise<void> {
    const conversation = await this.open(scope);
    for (let attempt = 0; ; attempt += 1) {
      if (conversation.turn === undefined) {
        const record = await this.#store.getConversation(scope, scope.conversationId);
        if (record !== undefined) readRecord(conversation, record);
      }
      change(conversation);
      try {
        await this.save(conversation, { listChanged });
        return;
      } catch (error) {
        if (!isConflict(error) || attempt >= REBASES) throw error;
      }
    }
  }

  /**
   * Stores the conversation as it is now (the transcript cut from its oldest turns to fit) over the revision it was
   * read at, and tells the tenant's tabs the list when it was not stored before or its title changed. A turn's save
   * that finds a newer revision (a view's context, a rename) takes its title and views and keeps its own transcript
   * over it; any other save is refused with `conflict` (`update` reads afresh and tries again).
   */
  async save(conversation: OpenConversation, { listChanged = false, release = false } = {}): Promise<void> {
    const announce = listChanged || !conversation.stored;
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.#put(conversation, conversation.turn !== undefined && !release);
        break;
      } catch (error) {
        if (!isConflict(error) || conversation.turn === undefined || attempt >= REBASES) throw error;
        const { scope } = conversation;
        const record = await this.#store.getConversation(scope, scope.conversationId);
        if (record === undefined || parseTurn(record.context)?.id !== conversation.turn) throw busy(scope);
        conversation.title = record.title;
        conversation.views = parseViews(record.context);
        conversation.revision = record.updatedAt;
      }
    }
    if (announce) {
      const { scope } = conversation;
      this.#hub.send(scope, 'conversations', { conversations: await this.list(scope) });
    }
  }

  /** One write of the conversation over its revision, with the turn's claim (renewed) when `claimed`. */
  async #put(conversation: OpenConversation, claimed: boolean): Promise<void> {
    const now = this.#clock.now();
    conversation.updatedAt = Math.max(now, (conversation.revision ?? 0) + 1);
    const lines = JSON.stringify(conversation.lines);
    let messages = JSON.stringify(conversation.messages);
    while (messages.length + lines.length > MAX_CONTENTS && conversation.messages.length > 0) {
      conversation.messages = dropOldestTurn(conversation.messages);
      messages = JSON.stringify(conversation.messages);
    }
    const { scope } = conversation;
    const turn: TurnClaim | undefined =
      claimed && conversation.turn !== undefined
        ? { id: conversation.turn, until: now + TURN_CLAIM_MS }
        : conversation.turn === undefined
          ? conversation.keptClaim
          : undefined;
    const claim = turn === undefined ? {} : { turn };
    const record: ConversationRecord = {
      userId: scope.userId,
      workspaceId: scope.workspaceId,
      id: scope.conversationId,
      title: conversation.title,
      createdAt: conversation.createdAt,
      updatedAt: conversation.updatedAt,
      messages,
      lines,
      context: JSON.stringify({ views: conversation.views, ...claim }),
    };
    await this.#store.write([{ kind: 'conversation.put', record, ifUpdatedAt: conversation.revision }]);
    conversation.stored = true;
    conversation.revision = record.updatedAt;
    conversation.keptClaim = turn;
  }

  /** Renames a stored conversation; false when the tenant has none with that id. */
  async rename(scope: Scope, title: string): Promise<boolean> {
    const conversation = await this.open(scope);
    if (!conversation.stored) return false;
    await this.update(scope, (c) => void (c.title = title), true);
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

/** The record's fields read into a conversation held in memory (its claim stays this log's own). */
function readRecord(conversation: OpenConversation, record: ConversationRecord): void {
  conversation.title = record.title;
  conversation.createdAt = record.createdAt;
  conversation.updatedAt = record.updatedAt;
  conversation.messages = parseList<ModelMessage>(record.messages);
  conversation.lines = parseList<ChatLine>(record.lines);
  conversation.views = parseViews(record.context);
  conversation.stored = true;
  conversation.revision = record.updatedAt;
  conversation.keptClaim = parseTurn(record.context);
}

/** The turn's claim kept in a record's `context`, if any. */
function parseTurn(text: string): TurnClaim | undefined {
  try {
    const turn = (JSON.parse(text) as { turn?: Partial<TurnClaim> }).turn;
    return typeof turn?.id === 'string' && typeof turn.until === 'number'
      ? { id: turn.id, until: turn.until }
      : undefined;
  } catch {
    return undefined;
  }
}

const isConflict = (error: unknown) => error instanceof HostError && error.code === 'conflict';

/** The refusal of a second turn. */
function busy(scope: Scope): HostError {
  return new HostError('conflict', TURN_BUSY_MESSAGE, { data: { conversationId: scope.conversationId } });
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

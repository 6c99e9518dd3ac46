/**
 * A chat's conversation as a host keeps it, so it can be listed, named and resumed on any instance and after a
 * restart. The store keeps `messages` (what the model is sent again: its transcript) and `lines` (what a page
 * shows) as the JSON text it is given: their shape belongs to the application that writes them, not to the store.
 * The tool calls themselves are history's, under the same `conversationId`.
 */
export interface ConversationRecord {
  readonly userId: string;
  readonly workspaceId: string;
  /** The `conversationId` of the scope its calls run in. */
  readonly id: string;
  /** What the list shows; the application names it (its first message, or what the user typed). */
  readonly title: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** The model's transcript, as JSON text. */
  readonly messages: string;
  /** What a page shows of it, as JSON text. */
  readonly lines: string;
  /**
   * What else the application gives the model with it, as JSON text (the console: what MCP Apps views added to the
   * model's context), so it too resumes on any instance.
   */
  readonly context: string;
}

/** A conversation as a list shows it: everything but its contents. */
export type ConversationSummary = Omit<ConversationRecord, 'messages' | 'lines' | 'context'>;

/** The longest title a conversation may have, in characters. */
export const CONVERSATION_TITLE_MAX = 200;

/**
 * The most a conversation's contents may hold (messages, lines and context together), in characters of JSON: 8 MiB. A chat
 * that grows past it drops its oldest turns before it is kept (the application's choice); the store refuses more.
 */
export const CONVERSATION_CONTENTS_MAX = 8 * 1024 * 1024;

import type { ContentBlock } from '@modelcontextprotocol/client';

/** The exact statement of what was cut from the middle of a model payload, and the handle that reads it. */
export interface Truncation {
  /** Characters in the full serialized result. */
  readonly totalChars: number;
  /** The cut is the half-open character range [cutFrom, cutTo) of the full serialized result. */
  readonly cutFrom: number;
  readonly cutTo: number;
  readonly cutChars: number;
  /** Lines of the full serialized result, and the 1-based lines the cut touches. */
  readonly totalLines: number;
  readonly cutFromLine: number;
  readonly cutToLine: number;
  readonly handle: string;
}

/** What the model is given: one text block of untrusted data (plus media blocks when the caller asks for them). */
export interface ModelPayload {
  readonly content: readonly ContentBlock[];
  readonly text: string;
  readonly isError: boolean;
  readonly truncation?: Truncation;
}

/** A content block as a surface shows it: text capped, binary data dropped past a size, sizes always known. */
export type ScreenBlock =
  | { readonly type: 'text'; readonly text: string; readonly totalChars: number; readonly truncated: boolean }
  | {
      readonly type: 'image' | 'audio';
      readonly mimeType: string;
      readonly bytes: number;
      /** Base64 data, absent when over the screen's media budget. */
      readonly data?: string;
    }
  | {
      readonly type: 'resource_link';
      readonly uri: string;
      readonly name: string;
      readonly title?: string;
      readonly mimeType?: string;
      readonly size?: number;
    }
  | {
      readonly type: 'resource';
      readonly uri: string;
      readonly mimeType?: string;
      readonly text?: string;
      readonly totalChars?: number;
      readonly truncated?: boolean;
      readonly blobBytes?: number;
      readonly blob?: string;
    };

/** What a surface renders: every block in order, the structured content and `_meta`, within the screen budgets. */
export interface ScreenPayload {
  readonly blocks: readonly ScreenBlock[];
  readonly isError: boolean;
  readonly structuredContent?: unknown;
  readonly meta?: Readonly<Record<string, unknown>>;
  /** The handle of the whole result: "copy" and "show all" read through it. */
  readonly handle: string;
}

/** The three views of one result: for the model, for the screen, and the whole of it. */
export interface BoundedResult {
  readonly model: ModelPayload;
  readonly screen: ScreenPayload;
  /** The full serialized text the model payload was cut from. */
  readonly fullText: string;
  /** The result exactly as received, as JSON. */
  readonly rawJson: string;
}

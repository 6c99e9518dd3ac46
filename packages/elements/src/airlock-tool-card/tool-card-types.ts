import type { InvocationRecord, JsonSchema, ToolProgress } from '@airlock/core';

/**
 * The part of an `InvocationRecord` the card reads. A stored record fits as is; a host that streams events can pass
 * a smaller object with the same fields.
 */
export type ToolCardInvocation = Pick<
  InvocationRecord,
  'id' | 'tool' | 'originalName' | 'serverId' | 'state' | 'outcome' | 'error' | 'args'
>;

/** What the card shows of a tool: the name, the title a server gave it, its icons and its input schema. */
export interface ToolCardTool {
  readonly name: string;
  readonly title?: string;
  /** MCP icons; only the first is used, and only when it is a data:image/ or https URL. */
  readonly icons?: readonly { readonly src: string }[];
  readonly inputSchema?: JsonSchema;
}

/** The server a tool comes from, and whether the user trusts it (the chip's colour and label). */
export interface ToolCardServer {
  readonly id: string;
  readonly trusted: boolean;
}

/** Progress a running tool reported. A bar shows when `total` is known. */
export type ToolCardProgress = ToolProgress;

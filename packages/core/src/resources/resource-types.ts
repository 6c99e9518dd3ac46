import type {
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
} from '@modelcontextprotocol/client';
import type { Scope } from '../scope.js';
import type { BoundedPrompt } from './bound-prompt.js';
import type { BoundedRead } from './bound-resource.js';

/** A listed item with the server it came from. */
export type FromServer<T> = T & { readonly serverId: string };

/**
 * What a listing over servers found: every page of each; a server that could not answer (not ready, needs sign-in,
 * an error) is named in `failures` instead of failing the whole listing. With `serverId`, a failure rejects.
 */
export interface Listing<T> {
  readonly items: readonly FromServer<T>[];
  readonly failures: readonly { readonly serverId: string; readonly message: string }[];
}

export type ListedResource = FromServer<Resource>;
export type ListedTemplate = FromServer<ResourceTemplateType>;
export type ListedPrompt = FromServer<Prompt>;

/** Who starts a read: the user (a form, a chip, the CLI), or the model. */
export type ReadCaller = 'user' | 'model';

export interface ReadResourceOptions {
  readonly scope: Scope;
  readonly serverId: string;
  /** The resource's URI; or, with `template` and `values`, left out. */
  readonly uri?: string;
  /** An RFC 6570 template of the server's, expanded from `values` (each a variable of it). */
  readonly template?: string;
  readonly values?: Readonly<Record<string, unknown>>;
  /**
   * Default `user`: allowed unless a rule of kind `resource` denies (or asks). `model`: governed like a tool call
   * (rules, stored decisions, the surface asks); a refusal throws `permission_denied` and nothing reaches the server.
   */
  readonly caller?: ReadCaller;
  /** Also return the contents whole, as the server sent them (already within the connection's message cap). */
  readonly full?: boolean;
  readonly signal?: AbortSignal;
}

/** A read: its URI, the bounded payloads, and the whole contents only when asked with `full`. */
export interface ResourceRead extends BoundedRead {
  readonly serverId: string;
  readonly uri: string;
  readonly contents?: ReadResourceResult['contents'];
}

/** What `completion/complete` is asked about: a template's variable, or a prompt's argument. */
export type CompletionRef =
  { readonly type: 'ref/resource'; readonly uri: string } | { readonly type: 'ref/prompt'; readonly name: string };

export interface CompleteOptions {
  readonly scope: Scope;
  readonly serverId: string;
  readonly ref: CompletionRef;
  /** The variable or argument being filled, and what is typed so far. */
  readonly argument: { readonly name: string; readonly value: string };
  /** The values already chosen for the other variables or arguments. */
  readonly context?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

/** Suggestions from the server; empty when it does not offer completions. */
export interface Completions {
  readonly values: readonly string[];
  readonly total?: number;
  readonly hasMore?: boolean;
}

export interface GetPromptOptions {
  readonly scope: Scope;
  readonly serverId: string;
  readonly name: string;
  /** The prompt's arguments: text values by name. */
  readonly args?: Readonly<Record<string, unknown>>;
  readonly signal?: AbortSignal;
}

/**
 * A filled prompt: the server's result as it came (its `messages` whole, for an application that adds them to a
 * conversation after the user reviewed them), and the same bounded: `model` within the model budget, `screen` per
 * message within the screen's.
 */
export type PromptMessages = GetPromptResult & { readonly serverId: string; readonly name: string } & BoundedPrompt;

import type { AuditEvent, ElicitationRequest, PermissionRequest } from '@airlock/core';
import type { ConsoleMessageKey } from './console-messages.js';
import type { Card, ChatLine, Snapshot } from './types.js';

/** The conversation this page shows (the console has one per tab for now). */
export const CONVERSATION = 'main';

/** What the console says of the audit chain (no counts: the chain is shared by every tenant). */
export type Verification = { ok: true } | { ok: false; seq: number; problem: string };

/** The audit page's contents: the events found, the last check of the chain, or why they could not be read. */
export interface AuditState {
  readonly events: readonly AuditEvent[];
  readonly verification?: Verification;
  readonly error?: string;
}

/** The sign-in form: how this console signs people in, and why the last attempt failed. */
export interface SignInState {
  readonly mode: 'local' | 'token';
  readonly error?: string;
}

/**
 * The one-line notice at the top of the page: a message the API answered with, or one of the console's own (kept as
 * a key, so state stays free of the page's language and `reduce` stays pure).
 */
export type Notice = string | { readonly key: ConsoleMessageKey; readonly params?: Readonly<Record<string, string>> };

/**
 * Everything the page shows, rebuilt from the `state` event and kept current by the others (`reduce`) and by what
 * the user does (`actions`). Never changed in place: every change makes a new state, so a view is a function of it.
 */
export interface PageState {
  readonly snapshot?: Snapshot;
  readonly cards: ReadonlyMap<string, Card>;
  /** The whole text behind each cut result ("" while it is being fetched), so "copy" copies all of it. */
  readonly fullTexts: ReadonlyMap<string, string>;
  /** Cut results whose whole text retention removed, and when (the full-text route answered 410 result_expired). */
  readonly expiredResults: ReadonlyMap<string, number>;
  readonly permissionRequests: readonly PermissionRequest[];
  readonly questions: readonly ElicitationRequest[];
  /** Accepted URL flows still waiting for the server (or for "done, retry"). */
  readonly urlFlows: readonly ElicitationRequest[];
  readonly launcherTool?: string | undefined;
  readonly launcherError?: string | undefined;
  readonly chatLines: readonly ChatLine[];
  readonly chatError?: string | undefined;
  readonly audit?: AuditState | undefined;
  readonly signIn?: SignInState | undefined;
  readonly notice?: Notice | undefined;
}

/** A page with nothing of anyone's in it: what a tab starts from, and goes back to on every sign-in or new state. */
export function initialState(): PageState {
  return {
    cards: new Map(),
    fullTexts: new Map(),
    expiredResults: new Map(),
    permissionRequests: [],
    questions: [],
    urlFlows: [],
    chatLines: [],
  };
}

import type { AuditEvent, ElicitationEnd, ElicitationRequest, PermissionRequest } from '@airlock/core';
import { CARDS_PER_FRAME } from './card-window.js';
import type { ConsoleMessageKey } from './console-messages.js';
import type { ConsoleEventMap } from '../../src/console-events.js';
import type { Card, ChatLine, ConversationView, Snapshot } from '../../src/wire.js';

/** A call the model is still writing, for a tool with a view: its view is shown early with the input so far. */
export type StreamingCall = ConsoleEventMap['tool.input.partial'];

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
  /**
   * How many of the newest cards are drawn; unset, all of them. A page starts (and every snapshot starts it again)
   * with the newest `CARDS_PER_FRAME`, and draws the older ones in the frames after (`card-window.ts`), so a long
   * conversation shows its newest calls without waiting for all the others.
   */
  readonly cardsDrawn?: number;
  /** The whole text behind each cut result ("" while it is being fetched), so "copy" copies all of it. */
  readonly fullTexts: ReadonlyMap<string, string>;
  /** Cut results whose whole text retention removed, and when (the full-text route answered 410 result_expired). */
  readonly expiredResults: ReadonlyMap<string, number>;
  /** Blocks shown whole after "show all": each call's block index to its whole text (seed 000 R4). */
  readonly wholeTexts: ReadonlyMap<string, ReadonlyMap<number, string>>;
  /** Why a cut block's whole text could not be read, by call and block, until "show all" is pressed again. */
  readonly wholeTextErrors: ReadonlyMap<string, ReadonlyMap<number, string>>;
  readonly permissionRequests: readonly PermissionRequest[];
  readonly questions: readonly ElicitationRequest[];
  /** Accepted URL flows still waiting for the server (or for "done, retry"). */
  readonly urlFlows: readonly ElicitationRequest[];
  /**
   * Retries shown in the card of the call they retry: each retry's invocation id to the id of the first call of its
   * card. The host runs a retry as a new call (a new id, history row and audit trail); the page keeps it in place.
   */
  readonly retries: ReadonlyMap<string, string>;
  /** Retries asked for and not yet seen: the card they belong in, and the call they repeat (tool and arguments). */
  readonly retrying: readonly RetryWanted[];
  /** Calls the permission sheet asked about, so a retried card can say whether the user was asked again. */
  readonly asked: ReadonlySet<string>;
  /** Questions that closed without this page's answer (withdrawn by the server, timed out): a notice stays. */
  readonly closedQuestions: readonly ClosedQuestion[];
  readonly launcherTool?: string | undefined;
  /** What the tools panel's search holds. */
  readonly toolFilter?: string;
  /** Whether the side panels are open (undefined: the page's default for its width). */
  readonly toolsOpen?: boolean;
  readonly serversOpen?: boolean;
  readonly launcherError?: string | undefined;
  /** The shown conversation's lines, the reply streaming into the last one while a turn runs. */
  readonly chatLines: readonly ChatLine[];
  /**
   * Calls the model is still writing in the shown conversation (display only), until their card is here or the turn
   * ended: each shows its tool's view early, in the place its card then takes.
   */
  readonly streamingCalls: readonly StreamingCall[];
  /** A turn of the model is running in the shown conversation (from the message sent until the turn ends). */
  readonly chatBusy: boolean;
  /** The tenant's kept conversations, most recently updated first. */
  readonly conversations: readonly ConversationView[];
  readonly chatError?: string | undefined;
  readonly audit?: AuditState | undefined;
  readonly signIn?: SignInState | undefined;
  readonly notice?: Notice | undefined;
}

/** A retry the user asked for: the card it belongs in, and what it calls. */
export interface RetryWanted {
  readonly slot: string;
  readonly tool: string;
  readonly args: string;
}

/** A question that went away without an answer from this page, and why. */
export interface ClosedQuestion {
  readonly id: string;
  readonly serverId: string;
  readonly tool: string;
  readonly end: Exclude<ElicitationEnd, 'answered'>;
}

/** A page with nothing of anyone's in it: what a tab starts from, and goes back to on every sign-in or new state. */
export function initialState(): PageState {
  return {
    cards: new Map(),
    cardsDrawn: CARDS_PER_FRAME,
    fullTexts: new Map(),
    expiredResults: new Map(),
    wholeTexts: new Map(),
    wholeTextErrors: new Map(),
    permissionRequests: [],
    questions: [],
    urlFlows: [],
    retries: new Map(),
    retrying: [],
    asked: new Set(),
    closedQuestions: [],
    chatLines: [],
    streamingCalls: [],
    chatBusy: false,
    conversations: [],
  };
}

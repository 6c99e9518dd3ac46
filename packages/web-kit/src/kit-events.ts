import type {
  ElicitationRequest,
  InvocationRecord,
  PermissionDecision,
  PermissionRequest,
  ScreenPayload,
  ToolProgress,
} from '@airlock/core';

/** One call as a card draws it: the record, what it shows of the tool and server, and the screen payload at the end. */
export interface KitCall {
  readonly invocation: InvocationRecord;
  readonly tool?: {
    readonly name: string;
    readonly title?: string;
    readonly icons?: readonly { readonly src: string }[];
  };
  readonly server?: { readonly id: string; readonly trusted: boolean };
  /** The screen payload of a finished call (what the card shows as its result). */
  readonly screen?: ScreenPayload;
}

/**
 * The events of one user's stream (`GET {base}/events`), by name, with what each carries as JSON. The stream opens
 * with `state`; the server part sends them and the browser part reads them, so both compile against this map.
 */
export interface KitEventMap {
  /**
   * What is open now (calls that have not ended, unanswered permission questions and server questions), and the calls
   * that ended lately, so a page that reconnects can close the cards of calls that ended while it was away.
   */
  readonly state: {
    readonly calls: readonly KitCall[];
    readonly permissions: readonly PermissionRequest[];
    readonly elicitations: readonly ElicitationRequest[];
  };
  /** A call changed state (the first is `pending`). */
  readonly call: KitCall;
  readonly progress: { readonly invocationId: string; readonly progress: ToolProgress };
  readonly 'permission.requested': PermissionRequest;
  /** The question is over: answered (here or in another tab), or withdrawn (`decision` null). */
  readonly 'permission.closed': { readonly id: string; readonly decision: PermissionDecision | null };
  readonly 'elicitation.requested': ElicitationRequest;
  readonly 'elicitation.closed': { readonly id: string };
  /** The page's session ended (signed out): the stream ends after this. */
  readonly 'session.ended': Readonly<Record<string, never>>;
}

export type KitEventName = keyof KitEventMap;

/** The body of every refusal the routes send: a code to branch on and a message naming what was wrong. */
export interface KitError {
  readonly error: { readonly code: string; readonly message: string };
}

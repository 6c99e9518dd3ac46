import type { Scope } from '@airlock/core';

/** Who a request is: the scope its events and answers belong to, and the session it came in, when there is one. */
export interface KitSession {
  readonly scope: Scope;
  /** The app's own id of the session: its pages' streams end when it does (`KitSessions.onEnded`). */
  readonly id?: string;
}

/**
 * Where the kit learns who the user is and when a session ends (a sign-out, an expiry): from the app's own sessions,
 * cookies or tokens. A session that ends tells its pages `session.ended`, and their streams close.
 */
export interface KitSessions {
  /** The request's session; undefined refuses it (401). */
  of(request: Request): KitSession | undefined | Promise<KitSession | undefined>;
  /** Hears each session that ends, by its id; returns what stops it. */
  onEnded?(ended: (sessionId: string) => void): () => void;
}

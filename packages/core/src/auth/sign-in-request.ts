import type { Scope } from '../scope.js';

/** A sign-in the surface is asked to show: whose, to which server, where to send them, and the scopes asked for. */
export interface SignInRequest {
  /** The user signing in (and the tab or conversation they asked from). */
  readonly user: Scope;
  readonly serverId: string;
  readonly authorizationUrl: URL;
  /** The OAuth scopes asked for, space-separated, when any. */
  readonly scope?: string;
}

/** Who shows a user the authorization page (a surface is one); without `authorize`, sign-in cannot be offered. */
export interface SignInAsker {
  /**
   * Signs a user in to a remote server: shows them `authorizationUrl` (a popup, the system browser) and resolves with
   * the redirect URL the authorization server sent them back to (its `code`, `state` and `iss`); rejects when they
   * give up, or when `signal` aborts. Absent: sign-in cannot be offered, and servers that need it stay `needs_auth`.
   */
  authorize?(request: SignInRequest, signal: AbortSignal): Promise<URL | string>;
}

import type { AuthStatus, SignOutResult } from '../auth/oauth-sign-out.js';
import type { SignInResult } from '../auth/oauth-sign-in.js';
import type { HostAuth } from '../auth/host-auth.js';
import type { Scope } from '../scope.js';
import { assertScope } from '../scope.js';

/** `host.auth`: each user's own sign-in to remote servers, through the surface's `authorize`. Tokens are never shown. */
export interface HostAuthApi {
  /** Signs the scope's user in to a server, then connects their connection afresh with the new tokens. */
  signIn(options: { scope: Scope; serverId: string; signal?: AbortSignal }): Promise<SignInResult>;
  /** Revokes (where the server offers it) and deletes the user's tokens for a server; closes their connection. */
  signOut(options: { scope: Scope; serverId: string }): Promise<SignOutResult>;
  /** The user's sign-in state on each server users sign in to. */
  status(options: { scope: Scope }): Promise<AuthStatus[]>;
  /** Opens the user's own connections to the servers they are signed in to (after a restart of the host). */
  resume(options: { scope: Scope }): Promise<void>;
}

/** The `host.auth` object over the host's sign-in service: the scope checked, then the service's calls. */
export function hostAuthApi(auth: HostAuth): HostAuthApi {
  return {
    signIn: ({ scope, serverId, signal }) => auth.signIn(assertScope(scope), serverId, signal),
    signOut: ({ scope, serverId }) => auth.signOut(assertScope(scope), serverId),
    status: ({ scope }) => auth.status(assertScope(scope)),
    resume: ({ scope }) => auth.resume(assertScope(scope)),
  };
}

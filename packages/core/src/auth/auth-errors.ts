import { HostError } from '../errors/host-error.js';

/** The steps of OAuth sign-in, refresh and sign-out, as an `auth_failed` error names them. */
export type AuthStep = 'discovery' | 'registration' | 'authorization' | 'token' | 'refresh' | 'revocation';

/** What an error of the SDK or the network says, as one line (an OAuth error keeps its code). */
export function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const message = error.message === '' ? error.name : error.message;
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * `HostError('auth_failed')` for a step of the OAuth flow with one server: the message names the server and the step,
 * `data` carries both (and the OAuth error code when the authorization server sent one).
 */
export function authFailed(serverId: string, step: AuthStep, why: string, cause?: unknown): HostError {
  const oauthCode = (cause as { code?: unknown } | undefined)?.code;
  return new HostError('auth_failed', `sign-in to ${serverId} failed at ${step}: ${why}`, {
    data: { serverId, step, ...(typeof oauthCode === 'string' ? { oauthError: oauthCode } : {}) },
    ...(cause === undefined ? {} : { cause }),
  });
}

/** `HostError('auth_required')`: the user must sign in to the server before it can be called. */
export function authRequired(serverId: string, why = 'the user has not signed in'): HostError {
  return new HostError('auth_required', `${serverId} needs sign-in: ${why}`, { data: { serverId } });
}

/**
 * True when an error (or any error in its `cause` chain) means the server needs the user to sign in: our
 * `auth_required`, stored tokens that cannot be opened (`credential_unreadable`: the secret key changed; signing in
 * again replaces them), or the SDK's `UnauthorizedError` (a 401 the transport could not answer). A connection uses it to
 * turn a failed call into the outcome `auth_required` rather than `transport_error`.
 */
export function isAuthRequired(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth += 1) {
    if (e instanceof HostError) {
      if (e.code === 'auth_required' || e.code === 'credential_unreadable') return true;
      if (e.code === 'auth_failed') return false;
    }
    if (e.name === 'UnauthorizedError') return true;
  }
  return false;
}

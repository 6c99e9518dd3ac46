import { HostError } from '../errors/host-error.js';

/**
 * A server connection's state. `degraded`: it was ready and lost its connection (the process died, its stream broke,
 * the HTTP server went away), and the host is reconnecting with capped backoff (calls fail fast meanwhile). `failed`:
 * it could not be started or reached, and reconnecting gave up. `needs_auth`: a remote server answered HTTP 401; no
 * retry helps until the user signs in (or the configured credentials change and the server is restarted).
 */
export type ServerState = 'connecting' | 'ready' | 'degraded' | 'failed' | 'needs_auth' | 'closed';

/** The one transition table of the connection state machine. */
export const SERVER_TRANSITIONS = {
  connecting: ['ready', 'degraded', 'failed', 'needs_auth', 'closed'],
  ready: ['degraded', 'connecting', 'needs_auth', 'closed'],
  degraded: ['connecting', 'failed', 'closed'],
  failed: ['connecting', 'closed'],
  needs_auth: ['connecting', 'closed'],
  closed: [],
} as const satisfies Record<ServerState, readonly ServerState[]>;

/** Returns `to` when the table allows it; throws `invalid_transition` otherwise. */
export function serverTransition(from: ServerState, to: ServerState): ServerState {
  const allowed: readonly ServerState[] = SERVER_TRANSITIONS[from];
  if (!allowed.includes(to)) {
    throw new HostError('invalid_transition', `a server cannot move from ${from} to ${to}`, { data: { from, to } });
  }
  return to;
}

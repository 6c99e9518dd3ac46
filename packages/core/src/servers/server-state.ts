import { HostError } from '../errors/host-error.js';

/**
 * A server connection's state. `degraded`: it was ready and lost its connection, and the host is reconnecting
 * (calls fail fast meanwhile). `failed`: it could not be started or reached, and reconnecting gave up.
 */
export type ServerState = 'connecting' | 'ready' | 'degraded' | 'failed' | 'closed';

/** The one transition table of the connection state machine. */
export const SERVER_TRANSITIONS = {
  connecting: ['ready', 'degraded', 'failed', 'closed'],
  ready: ['degraded', 'connecting', 'closed'],
  degraded: ['connecting', 'failed', 'closed'],
  failed: ['connecting', 'closed'],
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

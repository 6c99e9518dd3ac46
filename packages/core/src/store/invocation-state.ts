import { HostError } from '../errors/host-error.js';

/**
 * The states of one tool call. A call is never pending and then successful without running in between. A call that
 * runs as a task moves on from `running` through its task's statuses while it runs (`working`, and `input_required`
 * while the task waits for the user); they are running states, and the task's end maps to the same terminal states.
 */
export type InvocationState = 'pending' | 'running' | 'working' | 'input_required' | 'success' | 'error' | 'cancelled';

/**
 * How a call ended. Kept distinct so the model, the card and the audit can tell each apart. `tool_not_found` (an
 * unknown tool, or one the caller may not see) and `invalid_arguments` (arguments that are not an object or fail the
 * tool's inputSchema) end a call refused before it is recorded: no history row, no audit event, nothing sent.
 */
export type InvocationOutcome =
  | 'success'
  | 'tool_error'
  | 'protocol_error'
  | 'transport_error'
  | 'timeout'
  | 'cancelled'
  | 'permission_denied'
  | 'invalid_output'
  | 'tool_not_found'
  | 'invalid_arguments'
  /** The server needs this user to sign in first: nothing was sent; the surface offers the sign-in. */
  | 'auth_required';

/** The one transition table of the call state machine. */
export const INVOCATION_TRANSITIONS = {
  pending: ['running', 'cancelled'],
  running: ['working', 'input_required', 'success', 'error', 'cancelled'],
  working: ['input_required', 'success', 'error', 'cancelled'],
  input_required: ['working', 'success', 'error', 'cancelled'],
  success: [],
  error: [],
  cancelled: [],
} as const satisfies Record<InvocationState, readonly InvocationState[]>;

/** True for states no transition leaves. */
export function isTerminalState(state: InvocationState): boolean {
  return INVOCATION_TRANSITIONS[state].length === 0;
}

/** True while the call runs: `running`, or a task's `working` or `input_required`. */
export function isRunningState(state: InvocationState): boolean {
  return state === 'running' || state === 'working' || state === 'input_required';
}

/** Returns `to` when the table allows `from -> to`; throws `invalid_transition` otherwise. */
export function transition(from: InvocationState, to: InvocationState): InvocationState {
  const allowed: readonly InvocationState[] = INVOCATION_TRANSITIONS[from];
  if (!allowed.includes(to)) {
    throw new HostError('invalid_transition', `an invocation cannot move from ${from} to ${to}`, {
      data: { from, to },
    });
  }
  return to;
}

/** The terminal state an outcome puts a call in: `cancelled` when the caller, the gate or a refusal stopped it. */
export function stateForOutcome(outcome: InvocationOutcome): InvocationState {
  if (outcome === 'success') return 'success';
  if (
    outcome === 'cancelled' ||
    outcome === 'permission_denied' ||
    outcome === 'tool_not_found' ||
    outcome === 'invalid_arguments'
  ) {
    return 'cancelled';
  }
  return 'error';
}

import type { InvocationState } from '@airlock/core';

/** What the badge can say: the call's states, with a denied call (a cancelled call the gate refused) told apart. */
export type ShownState = InvocationState | 'denied';

/**
 * How long "Running…" stays up when a call went from pending straight to its end between two renders (a call that
 * fails fast), so the badge still passes through running as R3 requires and a person can see it did.
 */
export const RUNNING_HOLD_MS = 600;

/**
 * True when the card must show running before `next` (R3: a card never jumps from pending to success or error). A
 * pending call that ends cancelled (denied, or cancelled before it ran) never ran, so it goes straight there.
 */
export function mustPassRunning(shown: InvocationState | undefined, next: InvocationState | undefined): boolean {
  return shown === 'pending' && (next === 'success' || next === 'error');
}

/** True while the call runs: `running`, or the `working` and `input_required` statuses of a call that is a task. */
export function runs(state: ShownState): boolean {
  return state === 'running' || state === 'working' || state === 'input_required';
}

/** The badge's word for a state: a cancelled call whose outcome is `permission_denied` reads "Denied". */
export function shownState(state: InvocationState, outcome: string | null | undefined): ShownState {
  return state === 'cancelled' && outcome === 'permission_denied' ? 'denied' : state;
}

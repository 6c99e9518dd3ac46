import { HostError } from '../errors/host-error.js';
import { isTerminalState, transition as checkMove } from '../invocations/invocation-state.js';
import type { InvocationRecord, ListInvocationsOptions, ResultRecord, TransitionRecord } from './host-store.js';

// Checks shared by every HostStore, so that each backend refuses exactly the same writes with the same codes and the
// contract suite can hold them all to it. Internal to storage/: not part of the public entry.

/** The page size when the caller names none. */
export const DEFAULT_PAGE_SIZE = 50;

/** The largest page a store returns; bigger requests are cut to this. */
export const MAX_PAGE_SIZE = 500;

/**
 * Refuses a first transition that does not open the invocation it comes with: it must be seq 1, from nothing, into
 * the record's state, and that state must be pending (the only state a call starts in).
 */
export function checkFirstTransition(record: InvocationRecord, first: TransitionRecord): void {
  if (first.invocationId !== record.id) {
    throw new HostError('invalid_transition', `the first transition names ${first.invocationId}, not ${record.id}`, {
      data: { invocationId: record.id },
    });
  }
  if (record.state !== 'pending' || first.seq !== 1 || first.from !== null || first.to !== record.state) {
    throw new HostError(
      'invalid_transition',
      `invocation ${record.id} must start pending with transition 1 from nothing to pending`,
      { data: { invocationId: record.id, state: record.state, seq: first.seq, from: first.from, to: first.to } },
    );
  }
}

/**
 * Refuses a transition the state machine does not allow, and a result that does not come with the transition that
 * ends the call (a stored result always belongs to a finished call).
 */
export function checkTransition(transition: TransitionRecord, result: ResultRecord | undefined): void {
  if (transition.from === null) {
    throw new HostError('invalid_transition', `only the first transition of ${transition.invocationId} has no from`, {
      data: { invocationId: transition.invocationId, seq: transition.seq },
    });
  }
  checkMove(transition.from, transition.to);
  if (result === undefined) return;
  if (result.invocationId !== transition.invocationId) {
    throw new HostError(
      'invalid_transition',
      `the result names ${result.invocationId}, the transition ${transition.invocationId}`,
      { data: { invocationId: transition.invocationId } },
    );
  }
  if (!isTerminalState(transition.to)) {
    throw new HostError(
      'invalid_transition',
      `a result is stored only with the transition that ends the call, not with one into ${transition.to}`,
      { data: { invocationId: transition.invocationId, to: transition.to } },
    );
  }
}

/** The row count a list returns: 50 unless told, never above 500; a limit below 1 or not an integer is refused. */
export function pageSize(options: ListInvocationsOptions | undefined): number {
  const limit = options?.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new HostError('invalid_arguments', `limit must be an integer of at least 1, not ${String(limit)}`);
  }
  const before = options?.before;
  if (before !== undefined && (typeof before !== 'number' || Number.isNaN(before))) {
    throw new HostError('invalid_arguments', `before must be a time in milliseconds, not ${String(before)}`);
  }
  return Math.min(limit, MAX_PAGE_SIZE);
}

/** The error for a write to an id the caller's scope does not hold (absent, or another tenant's: the same answer). */
export function notFound(invocationId: string): HostError {
  return new HostError('not_found', `no invocation ${invocationId} in this scope`, { data: { invocationId } });
}

/** The error for a transition whose `from` is not the state the store holds (a stale or repeated write). */
export function staleTransition(transition: TransitionRecord, stored: string): HostError {
  return new HostError(
    'invalid_transition',
    `invocation ${transition.invocationId} is ${stored}, so a transition from ${String(transition.from)} cannot apply`,
    { data: { invocationId: transition.invocationId, stored, from: transition.from, to: transition.to } },
  );
}

/** The error for a transition whose seq the invocation already has. */
export function duplicateSeq(transition: TransitionRecord, cause?: unknown): HostError {
  return new HostError(
    'store_error',
    `invocation ${transition.invocationId} already has a transition ${transition.seq}`,
    { data: { invocationId: transition.invocationId, seq: transition.seq }, ...(cause === undefined ? {} : { cause }) },
  );
}

/** The error for creating an id that is already taken. */
export function duplicateInvocation(invocationId: string, cause?: unknown): HostError {
  return new HostError('store_error', `an invocation ${invocationId} already exists`, {
    data: { invocationId },
    ...(cause === undefined ? {} : { cause }),
  });
}

/** The error every call after `close()` rejects with. */
export function closedError(store: string): HostError {
  return new HostError('closed', `the ${store} is closed`);
}

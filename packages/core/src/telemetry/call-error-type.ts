import type { InvocationRecord } from '../store/invocation-record.js';

/**
 * The `error.type` of an ended call, after the GenAI conventions: its outcome whenever it is not a success, so a call
 * that was denied, timed out or cancelled counts as failed on a dashboard, like one that broke. Undefined for a
 * success and for a call that has not ended.
 */
export function callErrorType(invocation: Pick<InvocationRecord, 'outcome'>): string | undefined {
  const outcome = invocation.outcome;
  return outcome === null || outcome === 'success' ? undefined : outcome;
}

/**
 * The short name of a call on the audit page: the last 8 characters of its id. An invocation id starts with its
 * creation time (a UUID version 7), so calls made close together share their first characters and differ at the end,
 * in its random bits.
 */
export function callLabel(invocationId: string): string {
  return invocationId.replace(/-/g, '').slice(-8);
}

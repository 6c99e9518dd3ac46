import type { InvocationOutcome } from '@airlock/core';

/** Exit codes of `airlock`: one per outcome, so scripts can branch on how a call ended. */
export const EXIT_CODES = {
  success: 0,
  tool_error: 1,
  usage: 2,
  protocol_error: 3,
  transport_error: 4,
  timeout: 5,
  invalid_output: 6,
  permission_denied: 7,
  /** Refused before anything was sent, as a usage error: no such tool, or arguments the tool does not take. */
  tool_not_found: 2,
  invalid_arguments: 2,
  /** `airlock audit --verify` found an edited, removed or reordered event. */
  tampered: 8,
  /** The server needs you to sign in first (OAuth): nothing was sent. */
  auth_required: 9,
  cancelled: 130,
} as const satisfies Record<InvocationOutcome | 'usage' | 'tampered', number>;

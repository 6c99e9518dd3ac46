import { HostError } from '../errors/host-error.js';

/**
 * The user's answer to one call, taken by the app in its own approval flow (an AI SDK `needsApproval` prompt) rather
 * than by the host's surface: the gate takes it where it would have asked, and audits it with `by`, so the log says
 * which flow asked. A deny always denies (even a call a rule or a stored decision would allow); an allow answers only
 * a call that would be asked, never one a rule or a stored decision denies.
 */
export interface CallApproval {
  readonly decision: 'allow_once' | 'deny_once';
  /** Which flow asked the user (`ai-sdk`): kept in the decision's audit event and told to listeners. */
  readonly by: string;
}

/** The longest `by` kept: a flow's name, not a sentence. */
const MAX_BY_LENGTH = 64;

/**
 * Checks `InvokeOptions.approval` before anything is recorded: absent, or a once-only decision with a `by` of 1 to 64
 * characters. Anything else is a programmer's error (an adapter passing the app's answer), thrown as `invalid_options`.
 */
export function assertCallApproval(value: unknown): CallApproval | undefined {
  if (value === undefined) return undefined;
  const { decision, by } = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  if (decision !== 'allow_once' && decision !== 'deny_once') {
    throw new HostError('invalid_options', 'approval.decision must be "allow_once" or "deny_once"');
  }
  if (typeof by !== 'string' || by.length === 0 || by.length > MAX_BY_LENGTH) {
    throw new HostError(
      'invalid_options',
      `approval.by must name the flow that asked, in 1 to ${MAX_BY_LENGTH} characters`,
    );
  }
  return { decision, by };
}

import type { Scope } from '../scope.js';
import type { InvocationRecord } from '../store/invocation-record.js';

/**
 * A call in flight, as the pipeline hands it to whatever runs around the call (the elicitation broker ties a server's
 * questions to it). It is the pipeline's own shape, so the pipeline depends on no module that wraps its calls.
 */
export interface CallInFlight {
  /** The server the call went to (null for a native tool), known before the call is recorded. */
  readonly serverId: string | null;
  /** Whose call it is (known before the call is recorded): picks the tenant's connection of a server per tenant. */
  readonly scope: Scope;
  /** The call's record; read it only when a question arrives (reading it finishes recording a call sent first). */
  readonly invocation: InvocationRecord;
  readonly signal: AbortSignal;
  /** Suspends the call's idle timeout while a person is answering; returns the release. */
  hold(): () => void;
}

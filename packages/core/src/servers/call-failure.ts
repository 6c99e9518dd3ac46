import { SdkError } from '@modelcontextprotocol/client';
import { HostError } from '../errors/host-error.js';
import { describeUnauthorized, httpStatusOf, unreachableReason } from './connection-failure.js';
import type { HttpChallenge } from './http-transport.js';
import { describeRefusal, refusalOf } from './stream-fault.js';
import type { StreamFault } from './stream-fault.js';

/** A failed call as the connection reports it, and what it means for the server. */
export interface CallFailure {
  /** What the call rejects with. */
  readonly error: unknown;
  /** `needs_auth`: the server waits for sign-in. `lost`: it cannot be reached; reconnect with backoff. */
  readonly server?: { readonly becomes: 'needs_auth' | 'lost'; readonly message: string };
}

/**
 * Names the server in a failed call and says what happened in the host's terms: a reply refused over the message cap
 * (`result_too_large`), a stream that broke on something not JSON-RPC (`protocol_error`), HTTP 401 (`needs_auth`:
 * the server waits for sign-in), an HTTP server that cannot be reached (`server_unreachable`: the server reconnects
 * with backoff), or else the SDK's own error with the last transport error beside it. A call the caller aborted keeps
 * its error as it is (the pipeline knows why it aborted).
 */
export function describeCallFailure(facts: {
  readonly id: string;
  readonly transport: 'stdio' | 'http';
  readonly error: unknown;
  readonly aborted: boolean;
  readonly fault: StreamFault | undefined;
  readonly challenge: HttpChallenge | undefined;
  readonly lastError: string | undefined;
}): CallFailure {
  const { id, error } = facts;
  if (facts.aborted) return { error };
  const data = { serverId: id };
  const refusal = refusalOf(error);
  if (refusal !== undefined) {
    return {
      error: new HostError('result_too_large', `server "${id}": ${describeRefusal(refusal)}`, {
        data: { ...data, bytes: refusal.bytes, cap: refusal.cap },
      }),
    };
  }
  if (facts.fault !== undefined) {
    const message = `server "${id}" ${facts.fault.message}; the call got no answer`;
    return { error: new HostError('protocol_error', message, { data, cause: error }) };
  }
  if (httpStatusOf(error) === 401) {
    const message = describeUnauthorized(id, facts.challenge);
    return {
      error: new HostError('needs_auth', message, { data, cause: error }),
      server: { becomes: 'needs_auth', message },
    };
  }
  const unreachable = facts.transport === 'http' ? unreachableReason(error) : undefined;
  if (unreachable !== undefined) {
    const message = `server "${id}" could not be reached: ${unreachable}`;
    return {
      error: new HostError('server_unreachable', message, { data, cause: error }),
      server: { becomes: 'lost', message },
    };
  }
  if (!(error instanceof SdkError)) return { error };
  const last = facts.lastError !== undefined && facts.lastError !== error.message ? ` (${facts.lastError})` : '';
  return { error: new SdkError(error.code, `server "${id}": ${error.message}${last}`, error.data, { cause: error }) };
}

/** Why a call cannot be sent to a server that is not ready, in its state's own words. */
export function unavailableError(id: string, state: string, lastError: string | undefined): HostError {
  const data = { serverId: id, state };
  const why = lastError === undefined ? '' : ` (${lastError})`;
  if (state === 'needs_auth') {
    return new HostError(
      'needs_auth',
      `server "${id}" needs the user to sign in first; the call was not sent. Ask the user to sign in to "${id}"${why}`,
      { data },
    );
  }
  return new HostError('server_unavailable', `server "${id}" is ${state}; the call was not sent${why}`, { data });
}

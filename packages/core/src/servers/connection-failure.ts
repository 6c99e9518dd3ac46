import { ProtocolError, SdkHttpError } from '@modelcontextprotocol/client';
import { HostError } from '../errors/host-error.js';
import type { HttpChallenge } from './http-transport.js';
import type { ProtocolNegotiation, ServerConfig } from './server-config.js';
import { describeRefusal, refusalOf } from './stream-fault.js';
import type { StreamFault } from './stream-fault.js';

const UNSUPPORTED_PROTOCOL_VERSION = -32022;
const LEGACY_VERSION = '2025-11-25';

/** What a failed connection attempt leads to: the state to show and the sentence that says why. */
export interface ConnectFailure {
  readonly state: 'failed' | 'needs_auth';
  readonly message: string;
}

/** Everything a connect failure is told from; pure data, so every wording is tested without a server. */
export interface ConnectFailureFacts {
  readonly config: ServerConfig;
  readonly error: unknown;
  /** The host's connect timeout fired (its length in ms). */
  readonly timedOutAfterMs: number | undefined;
  readonly lastError: string | undefined;
  readonly stderrTail: string;
  /** A line the server wrote that is not JSON-RPC, which ended the attempt. */
  readonly fault: StreamFault | undefined;
  /** The last HTTP 401 the attempt met. */
  readonly challenge: HttpChallenge | undefined;
}

/**
 * Words a failed connection attempt so the user can act on it: the server's name first, then the cause in its own
 * terms (HTTP 401 and what `WWW-Authenticate` asked for, a 2026-only server and the setting that reaches it, a reply
 * over the message cap, a line that is not JSON-RPC, a missing command), with the tail of its stderr.
 */
export function describeConnectFailure(facts: ConnectFailureFacts): ConnectFailure {
  const { config, error } = facts;
  const id = config.id;
  const stderr = facts.stderrTail.trim();
  const tail = stderr === '' ? '' : ` (stderr: ${stderr.split('\n').slice(-5).join(' | ')})`;
  // A fresh transport per attempt: any 401 it met means the attempt needs sign-in, whatever the SDK threw after.
  if (facts.challenge !== undefined) {
    return { state: 'needs_auth', message: describeUnauthorized(id, facts.challenge) };
  }
  if (facts.timedOutAfterMs !== undefined) {
    const last = facts.lastError === undefined ? '' : `; last error: ${facts.lastError}`;
    return {
      state: 'failed',
      message: `server "${id}" did not answer within ${facts.timedOutAfterMs} ms${last}${tail}`,
    };
  }
  const version = versionHint(id, config.negotiation ?? 'legacy', error);
  if (version !== undefined) return { state: 'failed', message: version };
  // A start refused before anything was sent (an input with no value, a placeholder left): its own words.
  if (error instanceof HostError && (error.code === 'input_required' || error.code === 'config_invalid')) {
    return { state: 'failed', message: error.message };
  }
  const refusal = refusalOf(error);
  if (refusal !== undefined) return { state: 'failed', message: `server "${id}": ${describeRefusal(refusal)}` };
  if (facts.fault !== undefined) return { state: 'failed', message: `server "${id}" ${facts.fault.message}${tail}` };
  const message = error instanceof Error ? error.message : String(error);
  if (config.transport === 'stdio' && /ENOENT/.test(message)) {
    return { state: 'failed', message: `server "${id}": command not found: ${config.command}` };
  }
  const unreachable = unreachableReason(error);
  if (unreachable !== undefined)
    return { state: 'failed', message: `server "${id}" could not be reached: ${unreachable}` };
  const status = httpStatusOf(error);
  const http = status === undefined || message.includes(String(status)) ? '' : ` (HTTP ${status})`;
  return { state: 'failed', message: `server "${id}" failed to connect: ${message}${http}${tail}` };
}

/** Which transport a server with no `type` was reached with, after its 4xx to the Streamable HTTP initialize. */
export function describeSseFallback(id: string, status: number): string {
  return (
    `server "${id}" answered HTTP ${status} to a Streamable HTTP initialize: connected with the legacy HTTP+SSE ` +
    'transport (set "type": "sse" to go straight to it)'
  );
}

/** HTTP 401 in words: the status, that sign-in is needed, and the challenge as the server sent it. */
export function describeUnauthorized(id: string, challenge: HttpChallenge | undefined): string {
  const asked =
    challenge?.wwwAuthenticate === undefined
      ? 'it sent no WWW-Authenticate challenge'
      : `WWW-Authenticate: ${challenge.wwwAuthenticate}`;
  return `server "${id}" answered HTTP 401 Unauthorized: it needs sign-in (${asked})`;
}

/**
 * The hint for -32022 (unsupported protocol version): under `legacy` a server that lists only 2026-07-28 is named as
 * 2026-only with the setting that reaches it. The code is read from a JSON-RPC error (stdio) or from the body of an
 * HTTP error (Streamable HTTP answers it with status 400).
 */
export function versionHint(id: string, negotiation: ProtocolNegotiation, error: unknown): string | undefined {
  const supported = unsupportedVersion(error);
  if (supported === undefined) return undefined;
  const list = supported.length === 0 ? 'other versions' : supported.join(', ');
  if (negotiation === 'legacy' && supported.length > 0 && !supported.includes(LEGACY_VERSION)) {
    return (
      `server "${id}" speaks only ${list} and refused ${LEGACY_VERSION}, the version "negotiation": "legacy" ` +
      `(the default) speaks; set "negotiation": "auto" on this server to reach it (-32022)`
    );
  }
  return `server "${id}" supports only ${list}, none of which this host speaks (-32022)`;
}

function unsupportedVersion(error: unknown): string[] | undefined {
  let code: unknown;
  let data: unknown;
  if (error instanceof ProtocolError) {
    code = error.code;
    data = error.data;
  } else if (error instanceof SdkHttpError) {
    const text = (error.data as { text?: unknown } | undefined)?.text;
    if (typeof text !== 'string') return undefined;
    try {
      const body = JSON.parse(text) as { error?: { code?: unknown; data?: unknown } };
      code = body.error?.code;
      data = body.error?.data;
    } catch {
      return undefined;
    }
  }
  if (code !== UNSUPPORTED_PROTOCOL_VERSION) return undefined;
  const supported = (data as { supported?: unknown } | undefined)?.supported;
  return Array.isArray(supported) ? supported.filter((v): v is string => typeof v === 'string') : [];
}

/** The HTTP status of an error the Streamable HTTP transport threw, if it is one. */
export function httpStatusOf(error: unknown): number | undefined {
  return error instanceof SdkHttpError ? (error.data as { status?: number } | undefined)?.status : undefined;
}

/**
 * Why a request never reached an HTTP server (refused, reset, unknown host), from `fetch`'s error and its cause; or
 * undefined when the error is something else.
 */
export function unreachableReason(error: unknown): string | undefined {
  if (!(error instanceof TypeError)) return undefined;
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (typeof cause?.message === 'string') return cause.message;
  if (typeof cause?.code === 'string') return cause.code;
  return error.message === 'fetch failed' ? error.message : undefined;
}

import { SdkHttpError } from '@modelcontextprotocol/client';
import { httpStatusOf } from './connection-failure.js';

const SAYS_SESSION_UNKNOWN = /not initialized|session/i;

/**
 * The HTTP status of an answer that says the server no longer knows the session, or undefined for any other error.
 * The spec's answer is 404; a server that restarted may instead answer 400 with a JSON-RPC error naming the session
 * or "Server not initialized" (the v1 SDK's single-session server), and that is the same lost session.
 */
export function lostSessionStatus(error: unknown): number | undefined {
  const status = httpStatusOf(error);
  if (status === 404) return status;
  if (status !== 400 || !(error instanceof SdkHttpError)) return undefined;
  const text = (error.data as { text?: unknown } | undefined)?.text;
  if (typeof text !== 'string') return undefined;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    const message = body.error?.message;
    return typeof message === 'string' && SAYS_SESSION_UNKNOWN.test(message) ? status : undefined;
  } catch {
    return undefined;
  }
}

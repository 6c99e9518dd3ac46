import type { Context } from 'hono';
import type { Scope } from '@airlock/core';
import { ApiError } from '../api-error.js';
import { checkName } from '../check-name.js';
import type { ApiEnv } from './api-app.js';

/**
 * The body of a request as a JSON object. Anything else is refused with its own code (415 for another content type,
 * 400 for bad JSON or a non-object), so a client learns what to fix.
 */
export async function readBody(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? '';
  if (!type.toLowerCase().startsWith('application/json')) {
    throw new ApiError(415, 'unsupported_media_type', 'send the body as JSON (content-type: application/json)');
  }
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch (error) {
    throw new ApiError(400, 'bad_json', `the body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(400, 'bad_json', 'the body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** The conversation a request's query names (default "main"). */
export function queryConversation(c: Context): string {
  return checkName(c.req.query('conversation') ?? 'main', 'conversation');
}

/** The conversation a body names (default "main"). */
export function bodyConversation(body: Record<string, unknown>): string {
  return body['conversation'] === undefined ? 'main' : checkName(body['conversation'], 'conversation');
}

/** The scope a route acts in: the session's user and workspace, and the conversation the request names. */
export function scopeOf(c: Context<ApiEnv>, conversationId = queryConversation(c)): Scope {
  const session = c.get('session');
  return { userId: session.userId, workspaceId: session.workspaceId, conversationId };
}

import type { Context } from 'hono';
import type { Scope } from '@airlock/core';
import { checkName } from '../check-name.js';
import type { ApiEnv } from './api-app.js';

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

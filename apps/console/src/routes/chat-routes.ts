import { ApiError } from '../api-error.js';
import type { Chat } from '../chat.js';
import type { ApiApp } from './api-app.js';
import { bodyConversation, readBody, scopeOf } from './request-input.js';

/** What the chat routes work with. */
export interface ChatRoutesOptions {
  readonly app: ApiApp;
  /** Absent when no model is configured: the chat answers 409 with how to configure one. */
  readonly chat: Chat | undefined;
}

/**
 * The chat box: a conversation's lines and whether the model is answering, and a message that starts a turn (one
 * turn per conversation at a time; the lines arrive on the event stream).
 */
export function mountChatRoutes({ app, chat }: ChatRoutesOptions): void {
  app.get('/api/chat', (c) => {
    const scope = scopeOf(c);
    return c.json({
      configured: chat !== undefined,
      busy: chat?.busy(scope) ?? false,
      lines: chat?.lines(scope) ?? [],
    });
  });
  app.post('/api/chat', async (c) => {
    if (chat === undefined) {
      throw new ApiError(
        409,
        'model_not_configured',
        'no model is configured: set model.baseURL and model.model in airlock.config.json (or AIRLOCK_MODEL_BASE_URL and AIRLOCK_MODEL)',
      );
    }
    const body = await readBody(c);
    const text = body['message'];
    if (typeof text !== 'string' || text.trim() === '')
      throw new ApiError(400, 'invalid_request', 'message must be text');
    const scope = scopeOf(c, bodyConversation(body));
    if (chat.busy(scope)) throw new ApiError(409, 'busy', 'the model is still answering in this conversation');
    void chat.turn(scope, text);
    return c.json({ ok: true }, 202);
  });
}

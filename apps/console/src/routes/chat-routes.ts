import { readJsonBody } from '@airlock/web-kit';
import { CONVERSATION_TITLE_MAX } from '@airlock/core';
import { ApiError } from '../api-error.js';
import type { Chat } from '../chat.js';
import { checkName } from '../check-name.js';
import type { ConversationLog } from '../conversation-log.js';
import type { ModelKeys } from '../model-keys.js';
import type { ApiApp } from './api-app.js';
import { bodyConversation, scopeOf } from './request-input.js';

/** What the chat routes work with. */
export interface ChatRoutesOptions {
  readonly app: ApiApp;
  /** Absent when no model is configured: a message answers 409 with how to configure one. */
  readonly chat: Chat | undefined;
  readonly conversations: ConversationLog;
  /** Users' own model keys: a model that takes one and has no key at all is refused before its turn starts. */
  readonly modelKeys?: ModelKeys;
}

/**
 * The chat: a conversation's lines and whether the model is answering, a message that starts a turn (one turn per
 * conversation at a time; the lines arrive on the event stream), Stop, and the tenant's conversations (listed,
 * renamed, deleted). A new conversation needs no route: a message to an id not used before starts it.
 */
export function mountChatRoutes({ app, chat, conversations, modelKeys }: ChatRoutesOptions): void {
  app.get('/api/chat', async (c) => {
    const scope = scopeOf(c);
    return c.json({
      configured: chat !== undefined,
      busy: chat?.busy(scope) ?? false,
      lines: (await conversations.open(scope)).lines,
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
    const body = await readJsonBody(c);
    const text = body['message'];
    if (typeof text !== 'string' || text.trim() === '')
      throw new ApiError(400, 'invalid_request', 'message must be text');
    const scope = scopeOf(c, bodyConversation(body));
    const model = body['model'] ?? '0';
    if (typeof model !== 'string' || !chat.hasModel(model)) {
      const known = chat.models().map((m) => `${m.id} (${m.label})`);
      throw new ApiError(400, 'invalid_request', `model must be one of ${known.join(', ')}`);
    }
    const choice = modelKeys?.model(model);
    if (choice?.keyFrom === 'user' && (await modelKeys?.keyFor(scope.userId, choice)) === undefined) {
      throw new ApiError(
        409,
        'model_key_missing',
        `model "${model}" (${choice.label}) needs your API key for ${new URL(choice.baseURL).host}: keep it under "Model keys" beside the message box`,
      );
    }
    if (chat.busy(scope)) throw new ApiError(409, 'busy', 'the model is still answering in this conversation');
    void chat.turn(scope, text, model);
    return c.json({ ok: true }, 202);
  });
  app.post('/api/chat/stop', async (c) => {
    const scope = scopeOf(c, bodyConversation(await readJsonBody(c)));
    return c.json({ stopped: chat?.stop(scope) ?? false });
  });
  app.get('/api/conversations', async (c) => c.json({ conversations: await conversations.list(scopeOf(c)) }));
  app.patch('/api/conversations/:id', async (c) => {
    const scope = scopeOf(c, checkName(c.req.param('id'), 'conversation'));
    const title = (await readJsonBody(c))['title'];
    if (typeof title !== 'string' || title.trim() === '' || title.length > CONVERSATION_TITLE_MAX) {
      throw new ApiError(400, 'invalid_request', `title must be text of 1 to ${CONVERSATION_TITLE_MAX} characters`);
    }
    if (!(await conversations.rename(scope, title.trim()))) {
      throw new ApiError(404, 'not_found', `no conversation ${scope.conversationId} is kept for you`);
    }
    return c.json({ ok: true });
  });
  app.delete('/api/conversations/:id', async (c) => {
    const scope = scopeOf(c, checkName(c.req.param('id'), 'conversation'));
    // A turn still writing would store the conversation again as it ends: it is stopped first.
    if (chat?.busy(scope) === true) {
      throw new ApiError(409, 'busy', 'the model is still answering in this conversation: stop it first');
    }
    if (!(await conversations.delete(scope))) {
      throw new ApiError(404, 'not_found', `no conversation ${scope.conversationId} is kept for you`);
    }
    return c.json({ ok: true });
  });
}

import { readJsonBody } from '@airlock/web-kit';
import type { KitActionRoutes } from '@airlock/web-kit';
import { ApiError } from '../api-error.js';
import type { PageData } from '../page-data.js';
import type { RunningCalls } from '../running-calls.js';
import type { ApiApp, ApiEnv } from './api-app.js';
import { bodyConversation, scopeOf } from './request-input.js';

/** What the invocation routes work with. */
export interface InvocationRoutesOptions {
  readonly app: ApiApp;
  readonly pageData: PageData;
  readonly running: RunningCalls;
  /** The kit's cancel, over `running`. */
  readonly actions: KitActionRoutes<ApiEnv>;
}

/**
 * Tool calls: the conversation's cards, one card, a card's whole result text (and one block's, for "show all"), a call started by hand (caller user,
 * through the one path) and a call cancelled from its card.
 */
export function mountInvocationRoutes({ app, pageData, running, actions }: InvocationRoutesOptions): void {
  app.get('/api/invocations', async (c) => c.json(await pageData.cards(scopeOf(c))));
  app.post('/api/invocations', async (c) => {
    const body = await readJsonBody(c);
    if (typeof body['tool'] !== 'string') throw new ApiError(400, 'invalid_request', 'tool must be a tool name');
    const scope = scopeOf(c, bodyConversation(body));
    const invocationId = await running.start(scope, body['tool'], body['args'] ?? {});
    return c.json({ invocationId }, 202);
  });
  app.get('/api/invocations/:id', async (c) => c.json(await pageData.card(scopeOf(c), c.req.param('id'))));
  app.get('/api/invocations/:id/full', async (c) =>
    c.json({ text: await pageData.fullText(scopeOf(c), c.req.param('id')) }),
  );
  app.get('/api/invocations/:id/blocks/:block', async (c) => {
    const block = Number(c.req.param('block'));
    if (!Number.isInteger(block) || block < 0) {
      throw new ApiError(400, 'invalid_request', 'block must be an integer >= 0 (a result block index)');
    }
    return c.json({ text: await pageData.blockText(scopeOf(c), c.req.param('id'), block) });
  });
  app.post('/api/invocations/:id/cancel', actions.cancel);
}

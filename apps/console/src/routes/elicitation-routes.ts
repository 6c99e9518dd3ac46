import type { Host } from '@airlock/core';
import { ApiError, toApiError } from '../api-error.js';
import type { KitSurface } from '@airlock/web-kit';
import type { HostEventRelay } from '../host-event-relay.js';
import type { ApiApp } from './api-app.js';
import { readBody } from './request-input.js';

/** What the elicitation routes work with. */
export interface ElicitationRoutesOptions {
  readonly app: ApiApp;
  readonly host: Host;
  readonly surface: KitSurface;
  readonly relay: HostEventRelay;
}

/**
 * Questions servers ask: the answer to an open question (the host validates a form's fields), and "done, retry" for
 * an accepted URL flow. A question answered meanwhile by another tab is told as such (409), not as "not found"; one
 * asked on another instance is answered there.
 */
export function mountElicitationRoutes({ app, host, surface, relay }: ElicitationRoutesOptions): void {
  app.post('/api/elicitations/:id', async (c) => {
    const id = c.req.param('id');
    const session = c.get('session');
    const answer = (await readBody(c))['answer'];
    const question = relay.question(session, id);
    // Asked by a call on another instance: that one checks the answer and sends it to the server.
    if (question === undefined && relay.askedElsewhere(session, id)) {
      const reply = await relay.answerElsewhere(session, id, answer);
      if (!reply.ok) throw new ApiError(reply.status, reply.code, reply.message, reply.data);
      return c.json({ ok: true });
    }
    try {
      if (question === undefined) throw new ApiError(404, 'not_found', `no open question ${id}`);
      host.elicitations.respond({ scope: question.scope, id, answer });
    } catch (error) {
      // Answered (or closed) meanwhile, by another tab: say so rather than "not found".
      if (toApiError(error).status === 404) surface.assertNotClosed(session, id, 'question');
      throw error;
    }
    return c.json({ ok: true });
  });
  app.post('/api/elicitations/:id/done', async (c) => {
    const session = c.get('session');
    const done = await relay.completeUrlFlow(session, c.req.param('id'));
    if (!done) throw new ApiError(404, 'not_found', `no URL flow ${c.req.param('id')} is waiting`);
    return c.json({ ok: true });
  });
}

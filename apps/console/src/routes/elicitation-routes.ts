import type { KitActionRoutes } from '@airlock/web-kit';
import { ApiError } from '../api-error.js';
import type { HostEventRelay } from '../host-event-relay.js';
import type { ApiApp, ApiEnv } from './api-app.js';

/** What the elicitation routes work with. */
export interface ElicitationRoutesOptions {
  readonly app: ApiApp;
  readonly relay: HostEventRelay;
  /** The kit's answer, over `relay` (which finds questions here and sends answers on to other instances). */
  readonly actions: KitActionRoutes<ApiEnv>;
}

/**
 * Questions servers ask: the answer to an open question (the kit's route: the host validates a form's fields; one
 * answered meanwhile by another tab is told as such, 409; one asked on another instance is answered there), and
 * "done, retry" for an accepted URL flow.
 */
export function mountElicitationRoutes({ app, relay, actions }: ElicitationRoutesOptions): void {
  app.post('/api/elicitations/:id', actions.answer);
  app.post('/api/elicitations/:id/done', async (c) => {
    const session = c.get('session');
    const done = await relay.completeUrlFlow(session, c.req.param('id'));
    if (!done) throw new ApiError(404, 'not_found', `no URL flow ${c.req.param('id')} is waiting`);
    return c.json({ ok: true });
  });
}

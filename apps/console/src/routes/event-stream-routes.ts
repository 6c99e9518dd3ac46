import type { EventHub } from '@airlock/web-kit';
import { eventStream } from '@airlock/web-kit';
import { toApiError } from '../api-error.js';
import type { ConsoleEventMap } from '../console-events.js';
import type { PageData } from '../page-data.js';
import type { ApiApp, ApiEnv } from './api-app.js';
import { queryConversation } from './request-input.js';

/** What the event stream route works with. */
export interface EventStreamRoutesOptions {
  readonly app: ApiApp;
  readonly hub: EventHub<ConsoleEventMap>;
  readonly pageData: PageData;
}

/**
 * `GET /api/events`: one stream per tab. It opens with the tab's `state` (a snapshot of everything it draws), then
 * carries every event of the tab's tenant as it happens, in order; events that arrive while the snapshot is built
 * wait and follow it. A snapshot that fails is told as `failure`, and the stream ends.
 */
export function mountEventStreamRoutes({ app, hub, pageData }: EventStreamRoutesOptions): void {
  app.get(
    '/api/events',
    eventStream<ConsoleEventMap, ApiEnv>(hub, {
      open: (c) => {
        const session = c.get('session');
        const admin = c.get('admin');
        const conversationId = queryConversation(c);
        return {
          // The session itself is the tenant: a workspace switch changes it, and so moves the tab's stream at once.
          viewer: { tenant: session, sessionId: session.id, admin },
          snapshot: () => pageData.snapshot(session, conversationId, admin),
        };
      },
      failure: (error) => {
        const failure = toApiError(error);
        return { event: 'failure', data: { code: failure.code, message: failure.message } };
      },
    }),
  );
}

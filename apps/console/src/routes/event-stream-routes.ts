import type { SSEMessage } from 'hono/streaming';
import { streamSSE } from 'hono/streaming';
import { toApiError } from '../api-error.js';
import type { ConsoleEventMap, ConsoleEventName } from '../console-events.js';
import type { PageData } from '../page-data.js';
import type { TabHub } from '../tab-hub.js';
import type { Snapshot } from '../wire.js';
import type { ApiApp } from './api-app.js';
import { queryConversation } from './request-input.js';

/** Events a tab may leave unread before its stream is dropped. */
const MAX_UNSENT_EVENTS = 2000;
/** How often an idle event stream says it is alive. */
const HEARTBEAT_MS = 25_000;

/** What the event stream route works with. */
export interface EventStreamRoutesOptions {
  readonly app: ApiApp;
  readonly hub: TabHub;
  readonly pageData: PageData;
}

/** One server-sent event, its data typed by the event map the page handles it through. */
function message<E extends ConsoleEventName>(event: E, data: ConsoleEventMap[E]): SSEMessage {
  return { event, data: JSON.stringify(data) };
}

/**
 * `GET /api/events`: one stream per tab. It opens with the tab's `state` (a snapshot of everything it draws), then
 * carries every event of the tab's tenant as it happens, in order; events that arrive while the snapshot is built
 * wait and follow it.
 */
export function mountEventStreamRoutes({ app, hub, pageData }: EventStreamRoutesOptions): void {
  app.get('/api/events', (c) => {
    const session = c.get('session');
    const admin = c.get('admin');
    const conversationId = queryConversation(c);
    return streamSSE(c, async (stream) => {
      const queued: SSEMessage[] = [];
      let open = false;
      // Writes go out one after another, and the stream ends only after the last (a "session ended" included).
      // A tab that stops reading is dropped once too much waits for it; it reconnects to a fresh state.
      let written = Promise.resolve();
      let unsent = 0;
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      const write = (next: SSEMessage) => {
        if (!open) {
          queued.push(next);
          return;
        }
        if (unsent >= MAX_UNSENT_EVENTS) return end();
        unsent += 1;
        written = written
          .then(() => stream.writeSSE(next))
          .catch(() => end())
          .finally(() => (unsent -= 1));
      };
      const send = <E extends ConsoleEventName>(event: E, data: ConsoleEventMap[E]) => write(message(event, data));
      stream.onAbort(end);
      const remove = hub.add({ session, admin, send, close: end });
      // A comment now and then, so a connection that died quietly (a sleeping laptop) is noticed and dropped.
      const heartbeat = setInterval(() => {
        written = written.then(() => stream.write(': ping\n\n')).then(() => undefined, end);
      }, HEARTBEAT_MS);
      try {
        let state: Snapshot;
        try {
          state = await pageData.snapshot(session, conversationId, admin);
        } catch (error) {
          const failure = toApiError(error);
          await stream.writeSSE(message('failure', { code: failure.code, message: failure.message }));
          return;
        }
        await stream.writeSSE(message('state', state));
        open = true;
        for (const next of queued.splice(0)) write(next);
        await ended;
        await written;
      } finally {
        clearInterval(heartbeat);
        remove();
      }
    });
  });
}

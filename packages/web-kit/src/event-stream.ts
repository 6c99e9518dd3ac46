import type { Context, Env } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { EventHub, OpenStream, Viewer } from './event-hub.js';

/** Events a page may leave unread before its stream is dropped (it reconnects to a fresh `state`). */
const MAX_UNSENT_EVENTS = 2000;
/** How often an idle stream says it is alive, so a connection that died quietly (a sleeping laptop) is noticed. */
const HEARTBEAT_MS = 25_000;

/** One event of `Events`: its name and what it carries, typed together. */
export type EventMessage<Events> = {
  [E in keyof Events & string]: { readonly event: E; readonly data: Events[E] };
}[keyof Events & string];

/** One request's stream before it opens: whose it is, and how its opening `state` is built. */
export interface StreamOpening<Events extends { state: unknown }> {
  /** Whose stream it is (the hub routes its events by this). */
  readonly viewer: Viewer;
  /**
   * The stream's opening `state`. It is asked for in the same turn the stream joins the hub; events sent while it is
   * built (a promise) wait and follow it in order, so no event falls between the two.
   */
  snapshot(): Events['state'] | Promise<Events['state']>;
}

/** How `eventStream` opens each request's stream. */
export interface EventStreamOptions<Events extends { state: unknown }, E extends Env> {
  /** Reads the request before the stream opens: what it throws is the request's error response (a 400, a 401). */
  open(c: Context<E>): StreamOpening<Events>;
  /** The one event sent instead of `state` when the snapshot fails; the stream ends after it (just ends without it). */
  failure?(error: unknown): EventMessage<Events>;
  /** Events a page may leave unread before its stream is dropped; 2000 unless given. */
  readonly maxUnsent?: number;
}

/**
 * The route of one page's server-sent event stream over `hub`: it opens with `state`, then carries every event the hub
 * sends to its viewer, in order. A page that stops reading is dropped once `maxUnsent` events wait for it (it
 * reconnects to a fresh `state`); an idle stream sends a comment every 25 s.
 */
export function eventStream<Events extends { state: unknown }, E extends Env>(
  hub: EventHub<Events>,
  options: EventStreamOptions<Events, E>,
): (c: Context<E>) => Response {
  const maxUnsent = options.maxUnsent ?? MAX_UNSENT_EVENTS;
  if (!Number.isInteger(maxUnsent) || maxUnsent < 1) {
    throw new Error(`maxUnsent must be a whole number of events, at least 1; got ${String(maxUnsent)}`);
  }
  return (c) => {
    const opening = options.open(c);
    const viewer = opening.viewer;
    return streamSSE(c, async (sse) => {
      // Writes go out one after another, the snapshot's first; the stream ends only after the last (a "session
      // ended" included), unless it was dropped or its snapshot failed.
      let unsent = 0;
      let dropped = false;
      let failed = false;
      let end!: () => void;
      const over = new Promise<void>((resolve) => (end = resolve));
      const write = (message: { event: string; data: unknown }) => () =>
        sse.writeSSE({ event: message.event, data: JSON.stringify(message.data) });
      // An async function runs to its first await at once: the snapshot is asked for in this turn.
      let written = (async () => {
        let state: Events['state'];
        try {
          state = await opening.snapshot();
        } catch (error) {
          failed = true;
          if (options.failure !== undefined) await write(options.failure(error))();
          return end();
        }
        await write({ event: 'state', data: state })();
      })().catch(() => end());
      const queue = (send: () => Promise<void>): void => {
        if (dropped) return;
        if (unsent >= maxUnsent) {
          dropped = true;
          return end();
        }
        unsent += 1;
        written = written
          .then(() => (dropped || failed ? undefined : send()))
          .catch(() => end())
          .finally(() => (unsent -= 1));
      };
      const stream: OpenStream<Events> = {
        ...viewer,
        send: (event, data) => queue(write({ event, data })),
        close: end,
      };
      const remove = hub.add(stream);
      sse.onAbort(end);
      const heartbeat = setInterval(() => queue(() => sse.write(': ping\n\n').then(() => undefined)), HEARTBEAT_MS);
      try {
        await over;
      } finally {
        clearInterval(heartbeat);
        remove();
      }
      // A page that stopped reading is cut off now, its queued events dropped; otherwise the last writes go out.
      if (dropped) sse.abort();
      else await written;
    });
  };
}

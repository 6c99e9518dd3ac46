import type { ElicitationRequest, Host, InvocationRecord, InvokeOptions, Scope, ToolResult } from '@airlock/core';
import { HostError, isTerminalState } from '@airlock/core';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { EventHub } from './event-hub.js';
import { eventStream } from './event-stream.js';
import { kitActionRoutes } from './kit-action-routes.js';
import type { KitCall, KitError, KitEventMap, KitEventName } from './kit-events.js';
import { KitHostQuestions } from './kit-host-questions.js';
import { KitRefusal } from './kit-refusal.js';
import type { Tenant } from './kit-question-bus.js';
import { sameTenant } from './kit-question-bus.js';
import { KitRunningCalls } from './kit-running-calls.js';
import type { KitSessions } from './kit-sessions.js';
import type { KitSurface } from './kit-surface.js';

/** Who a request is: the scope its events and answers belong to; undefined refuses it (401). */
export type ScopeOf = (request: Request) => Scope | undefined | Promise<Scope | undefined>;

/** The biggest body a route reads: a decision is a few bytes; a form answer fits well inside this. */
const MAX_BODY_BYTES = 256 * 1024;
/**
 * Calls that ended lately, kept for a page that reconnects: a card whose call ended while its stream was down learns
 * the end from the next `state`. Bounded by count (each holds its screen payload, itself bounded).
 */
const RECENTLY_ENDED = 200;

/** What the kit's routes find on their context: who the request is, and its session's id when the app has one. */
export type KitEnv = { Variables: { scope: Scope; sessionId: string | undefined } };

/** The app's own events on the kit's stream (a chat's lines, say): their names, with what each carries as JSON. */
export type ExtraEvents = Record<string, unknown>;

/** What `serve` gives: the routes to mount, and `invoke`, whose calls a page can cancel from their card. */
export interface KitServer<Extra extends ExtraEvents = Record<never, never>> {
  /** `GET /events`, `POST /permissions/:id`, `POST /elicitations/:id`, `POST /calls/:id/cancel`. */
  readonly app: Hono<KitEnv>;
  /** `host.invoke`, with the call's "Cancel call" button wired to it (the card is `cancellable` while it runs). */
  invoke(options: InvokeOptions): Promise<ToolResult>;
  /**
   * Sends one of the app's own events to every page of `tenant`, in order with the kit's own on the same stream. A
   * name the kit uses itself is refused (a programmer's error).
   */
  send<E extends keyof Extra & string>(tenant: Tenant, event: E, data: Extra[E]): void;
  /** Ends every stream and stops following the host (the host itself is the caller's to close). */
  close(): void;
}

/** The kit's own event names, which the app's events may not take. */
const KIT_EVENTS: ReadonlySet<string> = new Set<KitEventName>([
  'state',
  'call',
  'progress',
  'permission.requested',
  'permission.closed',
  'elicitation.requested',
  'elicitation.closed',
  'session.ended',
]);

/**
 * The server part of the kit over one host whose surface is `surface`: each page's stream carries its tenant's calls
 * and questions (never another's), and the routes take its decisions, answers and cancels. Everything a page is shown
 * comes from the host's own events, so a call started anywhere (a model loop, a script) shows as a card.
 */
export function serveKit<Extra extends ExtraEvents = Record<never, never>>(
  host: Host,
  surface: KitSurface,
  sessions: KitSessions,
): KitServer<Extra> {
  const hub = new EventHub<KitEventMap & Extra>();
  const open = new Map<string, KitCall>();
  const ended = new Map<string, KitCall>();
  const questions = new Map<string, ElicitationRequest>();
  const calls = new KitRunningCalls(host, surface.bus);
  const answerable = new KitHostQuestions(host, surface);
  const tell = <E extends KitEventName>(tenant: Tenant, event: E, data: KitEventMap[E]): void =>
    hub.send(tenant, event, data as (KitEventMap & Extra)[E]);

  const cardOf = (invocation: InvocationRecord): Pick<KitCall, 'tool' | 'server'> => {
    const known = open.get(invocation.id);
    if (known !== undefined) return { tool: known.tool, server: known.server };
    // What the person may see, then what an app view may call (app-only tools are listed per server).
    const scope = invocation.scope;
    const serverId = invocation.serverId;
    const tool = [
      ...host.tools.list({ audience: 'user', scope }),
      ...(serverId === null ? [] : host.tools.list({ audience: 'app', serverId, scope })),
    ].find((t) => t.name === invocation.tool);
    const server = host.servers.list({ scope: invocation.scope }).find((s) => s.id === invocation.serverId);
    return {
      ...(tool && {
        tool: { name: tool.name, ...(tool.title && { title: tool.title }), ...(tool.icons && { icons: tool.icons }) },
      }),
      ...(server && { server: { id: server.id, trusted: server.trusted } }),
    };
  };

  const off = [
    host.on('invocation.transition', ({ invocation, screen }) => {
      const call: KitCall = { invocation, ...cardOf(invocation), ...(screen && { screen }) };
      if (isTerminalState(invocation.state)) {
        open.delete(invocation.id);
        ended.set(invocation.id, call);
        if (ended.size > RECENTLY_ENDED) ended.delete(ended.keys().next().value as string);
      } else {
        open.set(invocation.id, call);
      }
      tell(invocation.scope, 'call', call);
    }),
    host.on('invocation.progress', ({ invocation, progress }) =>
      tell(invocation.scope, 'progress', { invocationId: invocation.id, progress }),
    ),
    host.on('elicitation.requested', ({ request }) => {
      questions.set(request.id, request);
      tell(request.scope, 'elicitation.requested', request);
    }),
    host.on('elicitation.closed', ({ request }) => {
      questions.delete(request.id);
      tell(request.scope, 'elicitation.closed', { id: request.id });
    }),
    surface.listen((news) =>
      news.kind === 'opened'
        ? tell(news.request.scope, 'permission.requested', news.request)
        : tell(news.request.scope, 'permission.closed', { id: news.request.invocationId, decision: news.decision }),
    ),
    sessions.onEnded?.((sessionId) => {
      hub.sendToSession(sessionId, 'session.ended', {} as (KitEventMap & Extra)['session.ended']);
      hub.closeSession(sessionId);
    }),
  ];

  const app = new Hono<KitEnv>();
  app.onError((error, c) => refuse(c, error));
  app.use(async (c, next) => {
    const session = await sessions.of(c.req.raw);
    if (session === undefined) throw new KitRefusal(401, 'unauthenticated', 'the request names no signed-in user');
    c.set('scope', session.scope);
    c.set('sessionId', session.id);
    await next();
  });
  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new KitRefusal(413, 'body_too_large', `a request body may hold at most ${MAX_BODY_BYTES} bytes`);
      },
    }),
  );

  app.get(
    '/events',
    eventStream<KitEventMap & Extra, KitEnv>(hub, {
      open: (c) => {
        const tenant = c.get('scope');
        return {
          viewer: { tenant, sessionId: c.get('sessionId') },
          // Built from what this instance holds, in the turn the stream joins the hub.
          snapshot: () =>
            ({
              calls: [...ended.values(), ...open.values()].filter((call) => sameTenant(call.invocation.scope, tenant)),
              permissions: surface.pending(tenant),
              elicitations: [...questions.values()].filter((q) => sameTenant(q.scope, tenant)),
            }) satisfies KitEventMap['state'] as (KitEventMap & Extra)['state'],
        };
      },
    }),
  );

  const actions = kitActionRoutes<KitEnv>({
    host,
    surface,
    scopeOf: (c) => c.get('scope'),
    calls,
    questions: answerable,
  });
  app.post('/permissions/:id', actions.decide);
  app.post('/elicitations/:id', actions.answer);
  app.post('/calls/:id/cancel', actions.cancel);

  return {
    app,
    invoke(options) {
      // `onRecorded` is how the call's id meets its controller; it also makes the call take the recorded path (its
      // record before the request goes out) rather than the deferred quick allow of a call nobody can cancel.
      const controller = new AbortController();
      const signal =
        options.signal === undefined ? controller.signal : AbortSignal.any([options.signal, controller.signal]);
      return host.invoke({
        ...options,
        signal,
        onRecorded: (invocation) => {
          calls.track(invocation, controller);
          options.onRecorded?.(invocation);
        },
      });
    },
    send(tenant, event, data) {
      if (KIT_EVENTS.has(event))
        throw new Error(`"${event}" is an event of the kit's own; name the app's event otherwise`);
      hub.send(tenant, event, data as (KitEventMap & Extra)[typeof event]);
    },
    close() {
      for (const stop of off) stop?.();
      calls.close();
      answerable.close();
      hub.closeAll();
    },
  };
}

/** A refusal as JSON: the kit's own, a host error by its code, anything else a 500 that names no internals. */
function refuse(c: Context, error: unknown): Response {
  const send = (status: number, code: string, message: string): Response =>
    c.json({ error: { code, message } } satisfies KitError, status as 400);
  if (error instanceof KitRefusal) return send(error.status, error.code, error.message);
  if (error instanceof HostError) {
    const status = error.code === 'not_found' ? 404 : error.code === 'invalid_arguments' ? 400 : 409;
    return send(status, error.code, error.message);
  }
  return send(500, 'internal', 'the request failed inside the server');
}

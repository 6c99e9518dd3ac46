import { Hono } from 'hono';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { streamSSE } from 'hono/streaming';
import type { AuditEventType, Host, Scope } from '@airlock/core';
import { ApiError, toApiError } from './api-error.js';
import type { Chat } from './chat.js';
import type { ConsoleSurface } from './console-surface.js';
import type { HostEventRelay } from './host-event-relay.js';
import type { PageData } from './page-data.js';
import type { RunningCalls } from './running-calls.js';
import { checkName } from './check-name.js';
import type { Session, Sessions } from './sessions.js';
import type { TabHub } from './tab-hub.js';

export const SESSION_COOKIE = 'airlock_session';
/** The largest request body the API reads. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Events a tab may leave unread before its stream is dropped. */
const MAX_UNSENT_EVENTS = 2000;
/** How often an idle event stream says it is alive. */
const HEARTBEAT_MS = 25_000;

/** What the routes work with; the console server builds it. */
export interface ApiParts {
  readonly host: Host;
  readonly sessions: Sessions;
  readonly surface: ConsoleSurface;
  readonly hub: TabHub;
  readonly relay: HostEventRelay;
  readonly running: RunningCalls;
  readonly pageData: PageData;
  readonly chat: Chat | undefined;
  readonly authMode: 'local' | 'token';
  /** Host names (with port) the page may be reached by; anything else is refused (DNS rebinding). Empty: any. */
  readonly allowedHosts: () => readonly string[];
}

type Env = { Variables: { session: Session } };

const AUDIT_TYPES: readonly AuditEventType[] = ['invocation.transition', 'permission.decision', 'elicitation'];

async function readBody(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? '';
  if (!type.toLowerCase().startsWith('application/json')) {
    throw new ApiError(415, 'unsupported_media_type', 'send the body as JSON (content-type: application/json)');
  }
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch (error) {
    throw new ApiError(400, 'bad_json', `the body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(400, 'bad_json', 'the body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

function conversationOf(c: Context): string {
  return checkName(c.req.query('conversation') ?? 'main', 'conversation');
}

/** The conversation a body names (default "main"). */
function bodyConversation(body: Record<string, unknown>): string {
  return body['conversation'] === undefined ? 'main' : checkName(body['conversation'], 'conversation');
}

function scopeOf(c: Context<Env>, conversationId = conversationOf(c)): Scope {
  const session = c.get('session');
  return { userId: session.userId, workspaceId: session.workspaceId, conversationId };
}

function numberParam(c: Context, name: string): number | undefined {
  const raw = c.req.query(name);
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new ApiError(400, 'invalid_request', `${name} must be a number`);
  return value;
}

/** The HTTP API: sign-in, one event stream per tab, and a scoped route for everything a page shows or does. */
export function createApi(parts: ApiParts): Hono<Env> {
  const { host, sessions, surface, hub, relay, running, pageData, chat } = parts;
  const app = new Hono<Env>();

  app.onError((error, c) => {
    const api = toApiError(error);
    if (api.status === 500) console.error('airlock console:', error);
    return c.json({ error: { ...(api.data ?? {}), code: api.code, message: api.message } }, api.status);
  });
  app.notFound((c) => c.json({ error: { code: 'not_found', message: `no route ${c.req.method} ${c.req.path}` } }, 404));

  app.use('*', async (c, next) => {
    const allowed = parts.allowedHosts();
    const hostHeader = c.req.header('host') ?? '';
    if (allowed.length > 0 && !allowed.includes(hostHeader)) {
      throw new ApiError(403, 'forbidden_host', `this console does not answer for host "${hostHeader}"`);
    }
    await next();
  });
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new ApiError(413, 'body_too_large', `the body is over ${MAX_BODY_BYTES} bytes`);
      },
    }),
  );
  app.use('/api/*', async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const origin = c.req.header('origin');
      if (origin !== undefined && new URL(c.req.url).origin !== origin) {
        throw new ApiError(403, 'forbidden_origin', `requests from ${origin} are not accepted`);
      }
    }
    await next();
  });

  // Sign-in: the only routes that need no session.
  app.get('/api/auth', (c) => c.json({ mode: parts.authMode }));
  app.post('/api/session', async (c) => {
    const session = sessions.signIn(await readBody(c));
    setCookie(c, SESSION_COOKIE, session.id, { httpOnly: true, sameSite: 'Strict', path: '/' });
    return c.json({ userId: session.userId, workspaceId: session.workspaceId });
  });

  app.use('/api/*', async (c, next) => {
    const session = sessions.get(getCookie(c as Context, SESSION_COOKIE));
    if (session === undefined) throw new ApiError(401, 'unauthorized', 'sign in first (POST /api/session)');
    c.set('session', session);
    await next();
  });

  app.get('/api/session', (c) => {
    const s = c.get('session');
    return c.json({ userId: s.userId, workspaceId: s.workspaceId, model: chat !== undefined });
  });
  app.delete('/api/session', (c) => {
    const id = c.get('session').id;
    sessions.signOut(id);
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    hub.sendToSession(id, 'session.ended', {});
    hub.closeSession(id);
    return c.json({ ok: true });
  });
  app.post('/api/session/workspace', async (c) => {
    const workspaceId = checkName((await readBody(c))['workspaceId'], 'workspaceId');
    const session = c.get('session');
    // The user's open questions in other workspaces close (the servers get cancel), then every tab moves.
    const closed = host.elicitations.switchWorkspace({
      userId: session.userId,
      workspaceId,
      from: session.workspaceId,
    });
    session.workspaceId = workspaceId;
    hub.sendToSession(session.id, 'session.workspace', { workspaceId });
    return c.json({ workspaceId, closedQuestions: closed });
  });

  app.get('/api/events', (c) => {
    const session = c.get('session');
    const conversationId = conversationOf(c);
    return streamSSE(c, async (stream) => {
      const queued: [string, unknown][] = [];
      let open = false;
      // Writes go out one after another, and the stream ends only after the last (a "session ended" included).
      // A tab that stops reading is dropped once too much waits for it; it reconnects to a fresh state.
      let written = Promise.resolve();
      let unsent = 0;
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      const send = (event: string, data: unknown) => {
        if (!open) {
          queued.push([event, data]);
          return;
        }
        if (unsent >= MAX_UNSENT_EVENTS) return end();
        unsent += 1;
        const message = { event, data: JSON.stringify(data) };
        written = written
          .then(() => stream.writeSSE(message))
          .catch(() => end())
          .finally(() => (unsent -= 1));
      };
      stream.onAbort(end);
      const remove = hub.add({ session, send, close: end });
      // A comment now and then, so a connection that died quietly (a sleeping laptop) is noticed and dropped.
      const heartbeat = setInterval(() => {
        written = written.then(() => stream.write(': ping\n\n')).then(() => undefined, end);
      }, HEARTBEAT_MS);
      try {
        let state;
        try {
          state = await pageData.snapshot(session, conversationId);
        } catch (error) {
          const failure = toApiError(error);
          await stream.writeSSE({
            event: 'failure',
            data: JSON.stringify({ code: failure.code, message: failure.message }),
          });
          return;
        }
        await stream.writeSSE({ event: 'state', data: JSON.stringify(state) });
        open = true;
        for (const [event, data] of queued.splice(0)) send(event, data);
        await ended;
        await written;
      } finally {
        clearInterval(heartbeat);
        remove();
      }
    });
  });

  app.get('/api/servers', (c) => c.json(pageData.servers()));
  app.get('/api/tools', (c) => {
    const audience = c.req.query('audience') ?? 'model';
    if (audience !== 'model' && audience !== 'user') {
      throw new ApiError(400, 'invalid_request', 'audience must be "model" or "user"');
    }
    return c.json(pageData.toolEntries(scopeOf(c), audience));
  });

  app.get('/api/invocations', async (c) => c.json(await pageData.cards(scopeOf(c))));
  app.post('/api/invocations', async (c) => {
    const body = await readBody(c);
    if (typeof body['tool'] !== 'string') throw new ApiError(400, 'invalid_request', 'tool must be a tool name');
    const scope = scopeOf(c, bodyConversation(body));
    const invocationId = await running.start(scope, body['tool'], body['args'] ?? {});
    return c.json({ invocationId }, 202);
  });
  app.get('/api/invocations/:id', async (c) => c.json(await pageData.card(scopeOf(c), c.req.param('id'))));
  app.get('/api/invocations/:id/full', async (c) =>
    c.json({ text: await pageData.fullText(scopeOf(c), c.req.param('id')) }),
  );
  app.post('/api/invocations/:id/cancel', async (c) => {
    await running.cancel(scopeOf(c), c.req.param('id'));
    return c.json({ ok: true }, 202);
  });

  app.post('/api/permission-requests/:id', async (c) => {
    surface.decide(c.get('session'), c.req.param('id'), (await readBody(c))['decision']);
    return c.json({ ok: true });
  });
  app.get('/api/permissions', (c) => c.json(host.permissions.list({ scope: scopeOf(c) })));
  app.delete('/api/permissions/:id', async (c) => {
    const id = c.req.param('id');
    const scope = scopeOf(c);
    if (!host.permissions.list({ scope }).some((d) => d.id === id)) {
      throw new ApiError(404, 'not_found', `no stored decision ${id}`);
    }
    await host.permissions.revoke({ scope, id });
    hub.send(scope, 'permissions.changed', {});
    return c.json({ ok: true });
  });
  app.patch('/api/permissions/:id', async (c) => {
    const expiresAt = (await readBody(c))['expiresAt'];
    if (expiresAt !== null && (typeof expiresAt !== 'number' || !Number.isFinite(expiresAt))) {
      throw new ApiError(400, 'invalid_request', 'expiresAt must be a time in milliseconds, or null for never');
    }
    const scope = scopeOf(c);
    const decision = await host.permissions.setExpiry({ scope, id: c.req.param('id'), expiresAt });
    hub.send(scope, 'permissions.changed', {});
    return c.json(decision);
  });

  app.post('/api/elicitations/:id', async (c) => {
    const id = c.req.param('id');
    const session = c.get('session');
    const answer = (await readBody(c))['answer'];
    const question = relay.question(session, id);
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
  app.post('/api/elicitations/:id/done', (c) => {
    const session = c.get('session');
    const done = relay.completeUrlFlow(session, c.req.param('id'));
    if (!done) throw new ApiError(404, 'not_found', `no URL flow ${c.req.param('id')} is waiting`);
    return c.json({ ok: true });
  });

  app.get('/api/audit', async (c) => {
    const type = c.req.query('type');
    if (type !== undefined && type !== '' && !AUDIT_TYPES.includes(type as AuditEventType)) {
      throw new ApiError(400, 'invalid_request', `type must be one of ${AUDIT_TYPES.join(', ')}`);
    }
    const filters = {
      ...(type ? { type: type as AuditEventType } : {}),
      ...(c.req.query('tool') ? { tool: c.req.query('tool') } : {}),
      ...(c.req.query('serverId') ? { serverId: c.req.query('serverId') } : {}),
      ...(c.req.query('invocationId') ? { invocationId: c.req.query('invocationId') } : {}),
    };
    const since = numberParam(c, 'since');
    const afterSeq = numberParam(c, 'afterSeq');
    const limit = numberParam(c, 'limit');
    const events = await host.audit.query({
      scope: c.get('session'),
      ...filters,
      ...(since === undefined ? {} : { since }),
      ...(afterSeq === undefined ? {} : { afterSeq }),
      limit: Math.min(limit ?? 500, 10_000),
    });
    return c.json(events);
  });
  app.get('/api/audit/export', async (c) => {
    const s = c.get('session');
    const ndjson = await host.audit.export({ scope: { userId: s.userId, workspaceId: s.workspaceId } });
    return c.body(ndjson, 200, {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-disposition': `attachment; filename="airlock-audit-${s.workspaceId}.ndjson"`,
    });
  });
  app.post('/api/audit/verify', async (c) => {
    // The chain is one for every tenant: say whether it holds and where it breaks, not how much others did.
    const verification = await host.audit.verify();
    return c.json(verification.ok ? { ok: true } : { ok: false, seq: verification.seq, problem: verification.problem });
  });
  app.get('/api/audit/:seq', async (c) => {
    const seq = Number(c.req.param('seq'));
    if (!Number.isInteger(seq) || seq < 1) throw new ApiError(404, 'not_found', `no audit event ${c.req.param('seq')}`);
    const [event] = await host.audit.query({ scope: c.get('session'), afterSeq: seq - 1, limit: 1 });
    if (event?.seq !== seq) throw new ApiError(404, 'not_found', `no audit event ${seq}`);
    return c.json(event);
  });

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

  return app;
}

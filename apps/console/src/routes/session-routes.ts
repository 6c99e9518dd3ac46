import { readJsonBody } from '@airlock/web-kit';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Host } from '@airlock/core';
import { ApiError } from '../api-error.js';
import { checkName } from '../check-name.js';
import type { AuthMode } from '../console-config.js';
import type { Sessions } from '../sessions.js';
import type { ConsoleEventMap } from '../console-events.js';
import type { EventHub } from '@airlock/web-kit';
import type { ApiApp } from './api-app.js';

/** The cookie that carries the session id (HttpOnly, SameSite=Strict). */
export const SESSION_COOKIE = 'airlock_session';

/** What the session routes work with. */
export interface SessionRoutesOptions {
  readonly app: ApiApp;
  readonly host: Host;
  readonly sessions: Sessions;
  readonly hub: EventHub<ConsoleEventMap>;
  readonly authMode: AuthMode;
  /** Whether a model drives the chat box (the page shows it or says how to set one). */
  readonly modelConfigured: boolean;
}

/**
 * Sign-in, the session guard, and the session itself (who, sign-out, workspace switch). Mount it before every other
 * route: sign-in is the only thing answered without a session, and every route mounted after the guard finds the
 * signed-in session on its context.
 */
export function mountSessionRoutes({
  app,
  host,
  sessions,
  hub,
  authMode,
  modelConfigured,
}: SessionRoutesOptions): void {
  // Answered without a session: how to sign in, and whether this browser is signed in already, so a page can ask
  // on load without a 401 in its console.
  app.get('/api/auth', async (c) =>
    c.json({ mode: authMode, signedIn: (await sessions.get(getCookie(c as Context, SESSION_COOKIE))) !== undefined }),
  );
  app.post('/api/session', async (c) => {
    const session = await sessions.signIn(await readJsonBody(c));
    setCookie(c, SESSION_COOKIE, session.id, { httpOnly: true, sameSite: 'Strict', path: '/' });
    return c.json({ userId: session.userId, workspaceId: session.workspaceId });
  });

  app.use('/api/*', async (c, next) => {
    const session = await sessions.get(getCookie(c as Context, SESSION_COOKIE));
    if (session === undefined) throw new ApiError(401, 'unauthorized', 'sign in first (POST /api/session)');
    c.set('session', session);
    c.set('admin', sessions.isAdmin(session));
    await next();
  });

  app.get('/api/session', (c) => {
    const s = c.get('session');
    return c.json({ userId: s.userId, workspaceId: s.workspaceId, admin: c.get('admin'), model: modelConfigured });
  });
  app.delete('/api/session', async (c) => {
    const id = c.get('session').id;
    await sessions.signOut(id);
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    hub.sendToSession(id, 'session.ended', {});
    hub.closeSession(id);
    return c.json({ ok: true });
  });
  app.post('/api/session/workspace', async (c) => {
    const workspaceId = checkName((await readJsonBody(c))['workspaceId'], 'workspaceId');
    const session = c.get('session');
    sessions.checkMember(session.userId, workspaceId);
    // The user's open questions in the workspace left close (the servers get cancel; their tabs, still there, are
    // told), then the session moves (refused when it ended on another instance), then every tab moves.
    const closed = host.elicitations.switchWorkspace({
      userId: session.userId,
      workspaceId,
      from: session.workspaceId,
    });
    await sessions.moveTo(session, workspaceId);
    hub.sendToSession(session.id, 'session.workspace', { workspaceId });
    return c.json({ workspaceId, closedQuestions: closed });
  });
}

import { readJsonBody } from '@airlock/web-kit';
import type { Context } from 'hono';
import type { Host } from '@airlock/core';
import { ApiError } from '../api-error.js';
import type { PageData } from '../page-data.js';
import type { ApiApp, ApiEnv } from './api-app.js';
import { scopeOf } from './request-input.js';

/** What the server panel's routes work with. */
export interface ServerPanelRoutesOptions {
  readonly app: ApiApp;
  readonly host: Host;
  readonly pageData: PageData;
}

/** Refuses (403 `admin_only`) a request of a user who is not an administrator, saying what it was and why. */
function requireAdmin(c: Context<ApiEnv>, what: string, why: string): void {
  if (!c.get('admin')) {
    throw new ApiError(403, 'admin_only', `${what} is for administrators: ${why}`);
  }
}

/** A boolean field of a body, or 400 naming it. */
function booleanField(body: Record<string, unknown>, field: string): boolean {
  const value = body[field];
  if (typeof value !== 'boolean') throw new ApiError(400, 'invalid_request', `${field} must be true or false`);
  return value;
}

/**
 * The server panel's actions. Administrators (`Sessions.isAdmin`) read what a server wrote to stderr or sent as log
 * notifications (its own words, which may hold secrets) and switch a server off or on for everyone. Anyone hides a
 * server's tool from the model for themselves (level `user`); for the whole workspace (level `workspace`) is an
 * administrator's. Every switch is stored and audited by the host.
 */
export function mountServerPanelRoutes({ app, host, pageData }: ServerPanelRoutesOptions): void {
  // `after`: only lines numbered after it (what the page saw last), so a tab that reconnects reads only the rest.
  app.get('/api/servers/:id/logs', (c) => {
    requireAdmin(c, "reading a server's log", "it holds the server's own words, which may carry secrets");
    const raw = c.req.query('after');
    const after = raw === undefined ? 0 : Number(raw);
    if (!Number.isSafeInteger(after) || after < 0) {
      throw new ApiError(400, 'invalid_request', 'after must be a line number (an integer >= 0)');
    }
    return c.json(host.servers.logs(c.req.param('id'), { scope: scopeOf(c), after }));
  });

  // `{ "enabled": false }` switches the server off (its tools leave every listing); true switches it on again and
  // answers once it is ready or has failed.
  app.post('/api/servers/:id/enabled', async (c) => {
    requireAdmin(c, 'switching a server off or on', 'it changes the server for every user');
    const enabled = booleanField(await readJsonBody(c), 'enabled');
    const id = c.req.param('id');
    const changed = await host.servers.setEnabled(id, { enabled, by: c.get('session').userId });
    const server = pageData.servers(scopeOf(c), true).find((s) => s.id === id);
    return c.json({ changed, server });
  });

  app.get('/api/tool-switches', (c) => c.json(host.tools.switches({ scope: scopeOf(c) })));

  // `{ "tool": "demo__echo", "level": "user" | "workspace", "hidden": true }`: hidden from the model (or shown again).
  app.post('/api/tool-switches', async (c) => {
    const body = await readJsonBody(c);
    const tool = body['tool'];
    if (typeof tool !== 'string' || tool === '') {
      throw new ApiError(400, 'invalid_request', 'tool must name a tool as the tool list gives it ("server__tool")');
    }
    const level = body['level'] ?? 'user';
    if (level !== 'user' && level !== 'workspace') {
      throw new ApiError(400, 'invalid_request', 'level must be "user" or "workspace"');
    }
    const hidden = booleanField(body, 'hidden');
    if (level === 'workspace') {
      requireAdmin(c, 'switching a tool for the whole workspace', 'it changes what the model sees for every user');
    }
    const scope = scopeOf(c);
    const changed = await host.tools.setHidden({ scope, tool, level, hidden });
    return c.json({ changed, switches: host.tools.switches({ scope }) });
  });
}

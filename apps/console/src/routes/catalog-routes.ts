import type { Host } from '@airlock/core';
import { ApiError } from '../api-error.js';
import type { PageData } from '../page-data.js';
import type { ApiApp } from './api-app.js';
import { scopeOf } from './request-input.js';

/** What the catalog routes work with. */
export interface CatalogRoutesOptions {
  readonly app: ApiApp;
  readonly host: Host;
  readonly pageData: PageData;
}

/**
 * What there is to call: the servers (their state; their command line or URL to administrators only) and the tools
 * an audience sees, each with its risk and stored decision. A page refetches these when the stream says they changed.
 */
export function mountCatalogRoutes({ app, host, pageData }: CatalogRoutesOptions): void {
  app.get('/api/servers', (c) => c.json(pageData.servers(scopeOf(c), c.get('admin'))));
  // A server that is not working for this user is connected afresh: their own connection on a server per user, the
  // shared one otherwise (only while it is down, so one tenant cannot interrupt a working server for the others).
  app.post('/api/servers/:id/restart', async (c) => {
    const scope = scopeOf(c);
    const id = c.req.param('id');
    const server = pageData.servers(scope).find((s) => s.id === id);
    if (server === undefined) throw new ApiError(404, 'not_found', `no server "${id}"`);
    if (server.state === 'ready' || server.state === 'connecting') {
      throw new ApiError(409, 'server_working', `server "${id}" is ${server.state}; it is not reconnected`);
    }
    await host.servers.restart(id, { scope });
    return c.json(pageData.servers(scope, c.get('admin')).find((s) => s.id === id));
  });
  app.get('/api/tools', (c) => {
    const audience = c.req.query('audience') ?? 'model';
    if (audience !== 'model' && audience !== 'user') {
      throw new ApiError(400, 'invalid_request', 'audience must be "model" or "user"');
    }
    return c.json(pageData.toolEntries(scopeOf(c), audience));
  });
}

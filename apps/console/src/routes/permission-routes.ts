import type { Host } from '@airlock/core';
import { ApiError } from '../api-error.js';
import type { EventHub, KitActionRoutes } from '@airlock/web-kit';
import { readJsonBody } from '@airlock/web-kit';
import type { ConsoleEventMap } from '../console-events.js';
import type { ApiApp, ApiEnv } from './api-app.js';
import { scopeOf } from './request-input.js';

/** What the permission routes work with. */
export interface PermissionRoutesOptions {
  readonly app: ApiApp;
  readonly host: Host;
  /** The kit's decision route. */
  readonly actions: KitActionRoutes<ApiEnv>;
  readonly hub: EventHub<ConsoleEventMap>;
}

/**
 * Permissions: the answer to an open permission question (the first tab to answer wins), and the workspace's stored
 * decisions, listed, revoked or given a new expiry. A change to a stored decision tells every tab of the tenant.
 */
export function mountPermissionRoutes({ app, host, hub, actions }: PermissionRoutesOptions): void {
  app.post('/api/permission-requests/:id', actions.decide);
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
    const expiresAt = (await readJsonBody(c))['expiresAt'];
    if (expiresAt !== null && (typeof expiresAt !== 'number' || !Number.isFinite(expiresAt))) {
      throw new ApiError(400, 'invalid_request', 'expiresAt must be a time in milliseconds, or null for never');
    }
    const scope = scopeOf(c);
    const decision = await host.permissions.setExpiry({ scope, id: c.req.param('id'), expiresAt });
    hub.send(scope, 'permissions.changed', {});
    return c.json(decision);
  });
}

import { readJsonBody } from '@airlock/web-kit';
import type { Host, ViewConsentDecision } from '@airlock/core';
import { ApiError } from '../api-error.js';
import { VIEW_FEATURES } from '../view-consents.js';
import type { ConsentedView, ViewConsents } from '../view-consents.js';
import type { ApiApp } from './api-app.js';
import { scopeOf } from './request-input.js';

/** What the consent routes work with. */
export interface ViewConsentRoutesOptions {
  readonly app: ApiApp;
  readonly host: Host;
  readonly consents: ViewConsents;
}

type Feature = (typeof VIEW_FEATURES)[number];

/** The view a request names (`serverId`, `uri`), or 400 naming what is missing. */
function viewOf(source: Readonly<Record<string, unknown>>): ConsentedView {
  const { serverId, uri } = source;
  if (typeof serverId !== 'string' || serverId === '' || typeof uri !== 'string' || uri === '') {
    throw new ApiError(400, 'invalid_request', 'serverId and uri must name the view (its server and resource URI)');
  }
  return { serverId, uri };
}

/** The answers a body gives (`{ camera: 'allow', microphone: 'deny' }`), or 400 naming the one at fault. */
function decisionsOf(value: unknown): Partial<Record<Feature, ViewConsentDecision>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError(400, 'invalid_request', 'decisions must be an object of feature: "allow" | "deny"');
  }
  const decisions: Partial<Record<Feature, ViewConsentDecision>> = {};
  for (const [feature, decision] of Object.entries(value as Record<string, unknown>)) {
    if (!(VIEW_FEATURES as readonly string[]).includes(feature)) {
      throw new ApiError(400, 'invalid_request', `${feature} is not a browser feature a view may ask for`, {
        field: feature,
      });
    }
    if (decision !== 'allow' && decision !== 'deny') {
      throw new ApiError(400, 'invalid_request', `the answer for ${feature} must be "allow" or "deny"`, {
        field: feature,
      });
    }
    decisions[feature as Feature] = decision;
  }
  return decisions;
}

/**
 * MCP Apps views' browser-permission consents (camera, microphone, geolocation, clipboard write), kept in the store
 * for the signed-in user and workspace: read (all, one server's or one view's), answered for a view the user is
 * shown, and revoked (one feature or the whole view), so an answer holds in every tab and on every instance.
 */
export function mountViewConsentRoutes({ app, host, consents }: ViewConsentRoutesOptions): void {
  app.get('/api/view-consents', async (c) => {
    const serverId = c.req.query('serverId');
    const uri = c.req.query('uri');
    const filter = { ...(serverId === undefined ? {} : { serverId }), ...(uri === undefined ? {} : { uri }) };
    return c.json({ consents: await consents.list(c.get('session'), filter) });
  });

  app.put('/api/view-consents', async (c) => {
    const body = await readJsonBody(c);
    const view = viewOf(body);
    const decisions = decisionsOf(body['decisions']);
    // Only a view the user can be shown: a tool of that server, visible to the user, whose view is this resource.
    const scope = scopeOf(c);
    const shown = host.tools
      .list({ audience: 'user', serverId: view.serverId, scope })
      .some((tool) => tool.resourceUri === view.uri);
    if (!shown) throw new ApiError(404, 'not_found', `server ${view.serverId} shows no view ${view.uri}`);
    return c.json({ consents: await consents.decide(c.get('session'), view, decisions) });
  });

  app.delete('/api/view-consents', async (c) => {
    const view = viewOf({ serverId: c.req.query('serverId'), uri: c.req.query('uri') });
    const permission = c.req.query('permission');
    if (permission !== undefined && !(VIEW_FEATURES as readonly string[]).includes(permission)) {
      throw new ApiError(400, 'invalid_request', `${permission} is not a browser feature a view may ask for`);
    }
    return c.json({ consents: await consents.revoke(c.get('session'), view, permission) });
  });
}

import type { Host } from '@airlock/core';
import { ApiError } from '../api-error.js';
import type { ApiApp } from './api-app.js';
import { readBody, scopeOf } from './request-input.js';

/** What the resource routes work with. */
export interface ResourceRoutesOptions {
  readonly app: ApiApp;
  readonly host: Host;
}

/**
 * What servers offer besides tools, as the signed-in user's connections see it: resources and templates (every
 * server's, with the servers that could not answer named), and a read the user asks for (bounded for the screen,
 * audited; never the model's). Server text comes back as data; the page renders it as text.
 */
export function mountResourceRoutes({ app, host }: ResourceRoutesOptions): void {
  app.get('/api/resources', async (c) => c.json(await host.resources.list({ scope: scopeOf(c) })));
  app.get('/api/resource-templates', async (c) => c.json(await host.resources.templates({ scope: scopeOf(c) })));
  app.post('/api/resources/read', async (c) => {
    const body = await readBody(c);
    const serverId = body['serverId'];
    if (typeof serverId !== 'string' || serverId === '') {
      throw new ApiError(400, 'invalid_request', 'serverId must name a server');
    }
    const uri = body['uri'];
    const template = body['template'];
    const values = body['values'];
    const read = await host.resources.read({
      scope: scopeOf(c),
      serverId,
      caller: 'user',
      ...(typeof uri === 'string' ? { uri } : {}),
      ...(typeof template === 'string' ? { template } : {}),
      ...(typeof values === 'object' && values !== null ? { values: values as Record<string, unknown> } : {}),
    });
    // The screen's share only: the model's text and the whole contents stay on the server.
    return c.json({ serverId: read.serverId, uri: read.uri, screen: read.screen, totalChars: read.totalChars });
  });
}

import type { Host } from '@airlock/core';
import { ApiError } from '../api-error.js';
import type { ApiApp } from './api-app.js';
import { readBody, scopeOf } from './request-input.js';

/** What the resource routes work with. */
export interface ResourceRoutesOptions {
  readonly app: ApiApp;
  readonly host: Host;
}

/** How much of one prompt message's text the page is given. */
const PROMPT_TEXT_CHARS = 100_000;

/**
 * What servers offer besides tools, as the signed-in user's connections see it: resources, templates and prompts
 * (every server's, with the servers that could not answer named), a read the user asks for (bounded for the screen,
 * audited; never the model's), and a prompt filled with the user's arguments, shown as a preview (text bounded,
 * other content named). Server text comes back as data; the page renders it as text.
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
  app.get('/api/prompts', async (c) => c.json(await host.prompts.list({ scope: scopeOf(c) })));
  app.post('/api/prompts/get', async (c) => {
    const body = await readBody(c);
    const { serverId, name, args } = body;
    if (typeof serverId !== 'string' || typeof name !== 'string') {
      throw new ApiError(400, 'invalid_request', 'serverId and name must name a server and its prompt');
    }
    const prompt = await host.prompts.get({
      scope: scopeOf(c),
      serverId,
      name,
      ...(typeof args === 'object' && args !== null ? { args: args as Record<string, string> } : {}),
    });
    return c.json({
      serverId,
      name,
      ...(prompt.description === undefined ? {} : { description: prompt.description }),
      messages: prompt.messages.map((message) => ({
        role: message.role,
        kind: message.content.type,
        ...(message.content.type === 'text'
          ? {
              text: message.content.text.slice(0, PROMPT_TEXT_CHARS),
              truncated: message.content.text.length > PROMPT_TEXT_CHARS,
            }
          : {}),
      })),
    });
  });
}

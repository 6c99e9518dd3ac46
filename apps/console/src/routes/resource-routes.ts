import { readJsonBody } from '@airlock/web-kit';
import type { CompleteOptions, Host } from '@airlock/core';
import type { Context } from 'hono';
import { ApiError } from '../api-error.js';
import type { ApiApp } from './api-app.js';
import { scopeOf } from './request-input.js';
import type { ApiEnv } from './api-app.js';

/** What the resource routes work with. */
export interface ResourceRoutesOptions {
  readonly app: ApiApp;
  readonly host: Host;
}

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
    const body = await readJsonBody(c);
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
    // The screen's share, and the handle the whole read is kept behind (for "show all" and the full-size view).
    return c.json({
      serverId: read.serverId,
      uri: read.uri,
      screen: read.screen,
      totalChars: read.totalChars,
      ...(read.handle === undefined ? {} : { handle: read.handle }),
    });
  });
  app.post('/api/resources/whole', async (c) => {
    const { handle } = await readJsonBody(c);
    if (typeof handle !== 'string') throw new ApiError(400, 'invalid_request', 'handle must be a read handle');
    return c.json(await host.resources.whole({ scope: scopeOf(c), handle }));
  });
  app.post('/api/resources/subscribe', async (c) => {
    await host.resources.subscribe({ scope: scopeOf(c), ...serverUri(await readJsonBody(c)) });
    return c.json({ ok: true });
  });
  app.post('/api/resources/unsubscribe', async (c) => {
    await host.resources.unsubscribe({ scope: scopeOf(c), ...serverUri(await readJsonBody(c)) });
    return c.json({ ok: true });
  });
  // Suggestions for a template's variable or a prompt's argument, from the server (none when it offers none).
  app.post('/api/resources/complete', async (c) => {
    const body = await readJsonBody(c);
    const template = body['template'];
    if (typeof template !== 'string') throw new ApiError(400, 'invalid_request', 'template must be a URI template');
    return c.json(await host.resources.complete(completion(c, body, { type: 'ref/resource', uri: template })));
  });
  app.post('/api/prompts/complete', async (c) => {
    const body = await readJsonBody(c);
    const prompt = body['prompt'];
    if (typeof prompt !== 'string') throw new ApiError(400, 'invalid_request', 'prompt must name a prompt');
    return c.json(await host.prompts.complete(completion(c, body, { type: 'ref/prompt', name: prompt })));
  });
  app.get('/api/prompts', async (c) => c.json(await host.prompts.list({ scope: scopeOf(c) })));
  app.post('/api/prompts/get', async (c) => {
    const body = await readJsonBody(c);
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
      // Bounded for the screen by the host (text capped, media only of a safe type within budget, else described).
      messages: prompt.screen,
      // What would go into the chat box: the messages' text within the model budget.
      model: prompt.model,
    });
  });
}

/** The server and URI a subscription names, checked. */
function serverUri(body: Record<string, unknown>): { serverId: string; uri: string } {
  const { serverId, uri } = body;
  if (typeof serverId !== 'string' || serverId === '' || typeof uri !== 'string' || uri === '') {
    throw new ApiError(400, 'invalid_request', 'serverId and uri must name a server and its resource');
  }
  return { serverId, uri };
}

/** A completion request from its body: the server, the argument being typed and the others already filled. */
function completion(c: Context<ApiEnv>, body: Record<string, unknown>, ref: CompleteOptions['ref']): CompleteOptions {
  const { serverId, argument, context } = body;
  const arg = argument as { name?: unknown; value?: unknown } | undefined;
  if (typeof serverId !== 'string' || typeof arg?.name !== 'string' || typeof arg.value !== 'string') {
    throw new ApiError(400, 'invalid_request', 'serverId and argument { name, value } must be given as text');
  }
  const others = Object.entries(typeof context === 'object' && context !== null ? context : {}).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );
  return {
    scope: scopeOf(c),
    serverId,
    ref,
    argument: { name: arg.name, value: arg.value },
    ...(others.length === 0 ? {} : { context: Object.fromEntries(others) }),
  };
}

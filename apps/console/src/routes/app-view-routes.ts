import { readJsonBody } from '@airlock/web-kit';
import type { Host, ToolResult } from '@airlock/core';
import { inspectUrl } from '@airlock/core';
import { ApiError } from '../api-error.js';
import type { RunningCalls } from '../running-calls.js';
import type { ViewContexts } from '../view-context.js';
import type { ViewProxyAddress } from '../view-proxy-address.js';
import type { ApiApp } from './api-app.js';
import { bodyConversation, scopeOf } from './request-input.js';

/** What the view routes work with. */
export interface AppViewRoutesOptions {
  readonly app: ApiApp;
  readonly host: Host;
  readonly running: RunningCalls;
  /** Where pages find the views' sandbox proxy; undefined when this console shows no views. */
  readonly viewProxy: ViewProxyAddress | undefined;
  readonly contexts: ViewContexts;
}

/**
 * MCP Apps views: a tool's view (its HTML, declared CSP origins, and the sandbox proxy URL the page frames it behind)
 * and the calls a view makes. A view's call goes through the host's one path as caller `{ kind: 'app', serverId }`:
 * visibility (its own server's tools, "app" in their visibility), the permission gate, history (its own card) and
 * audit. A call is answered 202 with its invocation id once recorded, its result coming on the event stream; one the
 * host refuses before recording it (another server's tool, a model-only one) is answered 403 and reaches no server.
 */
export function mountAppViewRoutes({ app, host, running, viewProxy, contexts }: AppViewRoutesOptions): void {
  app.get('/api/app-views/:tool', async (c) => {
    if (viewProxy === undefined) throw new ApiError(404, 'not_found', 'this console shows no MCP Apps views');
    const view = await host.apps.view({ scope: scopeOf(c), tool: c.req.param('tool') });
    const origin = viewProxy.pageOrigin({ url: c.req.url, host: c.req.header('host') });
    return c.json({ ...view, proxyUrl: viewProxy.proxyUrl(origin) });
  });

  // A link a view asks to open: described first (the whole address, its site, what is odd about it), recorded in the
  // audit once the user consented and the page opened it.
  app.post('/api/app-links/inspect', async (c) => {
    const inspected = inspectUrl((await readJsonBody(c))['url']);
    if (!inspected.ok) throw new ApiError(400, 'invalid_url', inspected.reason);
    return c.json(inspected.inspection);
  });
  app.post('/api/app-links', async (c) => {
    const body = await readJsonBody(c);
    if (typeof body['tool'] !== 'string') throw new ApiError(400, 'invalid_request', 'tool must be a tool name');
    const scope = scopeOf(c, bodyConversation(body));
    return c.json(host.apps.linkOpened({ scope, tool: body['tool'], url: String(body['url']) }));
  });

  // A view's message the user consented to send: audited (its length and hash) before the page sends it to the chat.
  app.post('/api/app-messages', async (c) => {
    const body = await readJsonBody(c);
    if (typeof body['tool'] !== 'string' || typeof body['text'] !== 'string') {
      throw new ApiError(400, 'invalid_request', 'tool must name the view and text be the message');
    }
    host.apps.messageSent({ scope: scopeOf(c, bodyConversation(body)), tool: body['tool'], text: body['text'] });
    return c.json({ ok: true });
  });

  // What a view adds to the model's context (ui/update-model-context): kept per conversation and view, bounded.
  app.post('/api/app-context', async (c) => {
    const body = await readJsonBody(c);
    const { serverId, tool } = body;
    if (typeof serverId !== 'string' || typeof tool !== 'string') {
      throw new ApiError(400, 'invalid_request', 'serverId and tool must name the view');
    }
    const scope = scopeOf(c, bodyConversation(body));
    const known = host.tools.list({ audience: 'user', serverId, scope }).find((t) => t.name === tool);
    if (known?.resourceUri === undefined) throw new ApiError(404, 'not_found', `tool ${tool} has no view`);
    return c.json(
      await contexts.set(scope, {
        serverId,
        tool,
        content: body['content'],
        ...(body['structuredContent'] === undefined ? {} : { structuredContent: body['structuredContent'] }),
      }),
    );
  });

  app.post('/api/app-calls', async (c) => {
    const body = await readJsonBody(c);
    const { serverId, name } = body;
    if (typeof serverId !== 'string' || serverId === '') {
      throw new ApiError(400, 'invalid_request', 'serverId must name the server whose view makes the call');
    }
    if (typeof name !== 'string' || name === '') throw new ApiError(400, 'invalid_request', 'name must be a tool name');
    const scope = scopeOf(c, bodyConversation(body));
    // The view names its own server's tool; a name that is none of them is passed on as it is, for the host to refuse.
    const tool =
      host.tools
        .list({ audience: 'user', serverId, scope })
        .find((t) => t.origin.kind === 'mcp' && t.origin.serverId === serverId && t.origin.originalName === name)
        ?.name ?? name;
    const controller = new AbortController();
    // Accepted once the host has recorded the call (before it asks anyone or sends anything): the request ends there,
    // and the call's end reaches the page on its event stream as every card's does. A view that waits for a person's
    // answer holds no connection, so views and tabs cannot use up the browser's connections to the console.
    const recorded = new Promise<string | ToolResult>((resolve, reject) => {
      host
        .invoke({
          scope,
          caller: { kind: 'app', serverId },
          tool,
          args: body['args'] ?? {},
          signal: controller.signal,
          onRecorded: (invocation) => {
            running.track(invocation, controller);
            resolve(invocation.id);
          },
        })
        .then(resolve, reject);
    });
    const accepted = await recorded;
    if (typeof accepted === 'string') return c.json({ invocationId: accepted }, 202);
    // Refused before it was recorded: another server's tool, a model-only one, arguments its schema refuses.
    const code = accepted.error?.code ?? accepted.outcome;
    throw new ApiError(
      accepted.outcome === 'invalid_arguments' ? 400 : 403,
      String(code),
      accepted.error?.message ?? accepted.text,
    );
  });
}

import type { Host, Scope } from '@airlock/core';
import { HostError, namespacedToolName, tenantMatches } from '@airlock/core';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { ReadResourceResult, Server } from '@modelcontextprotocol/server';
import type { ListenedResources } from './listened-resources.js';
import { ResourceOwners } from './resource-owners.js';

/** The scheme of the handles behind which the host keeps whole tool results (`airlock:result/<id>`). */
const RESULT_HANDLE = 'airlock:result/';

/**
 * Serves the servers' resources, resource templates, prompts and completions through the host, as the scope sees
 * them. Resource URIs pass unchanged (a tool result's links keep working), so a read goes to the server that listed
 * the URI, or whose template it fits; prompt names are namespaced like tool names (`server__prompt`), since two
 * servers may name a prompt alike. A tool result's handle (`airlock:result/…`) reads the whole result back.
 *
 * A subscription is the host's (`host.resources.subscribe`: the server is told once per URI and connection, and each
 * session, a conversation of its own, holds its own part of it), and a server's `notifications/resources/updated`
 * reaches this session only for a URI it subscribed to, from the server it subscribed on, of its own tenant. Returns
 * what ends the session's subscriptions (when the session closes). A 2026-07-28 connection subscribes through the
 * URIs its `subscriptions/listen` requests name (`listened`) instead.
 */
export function serveCatalog(
  server: Server,
  host: Host,
  scope: Scope,
  listened?: ListenedResources,
): () => Promise<void> {
  const owners = new ResourceOwners(host, scope);
  const ownerOf = (uri: string): Promise<string> => owners.ownerOf(uri);
  const promptNames = new Map<string, { readonly serverId: string; readonly name: string }>();

  server.setRequestHandler('resources/list', async () => {
    const listing = await host.resources.list({ scope });
    owners.listed(listing.items);
    return { resources: listing.items.map(({ serverId: _server, ...resource }) => resource) };
  });

  server.setRequestHandler('resources/templates/list', async () => {
    const listing = await owners.templates();
    return { resourceTemplates: listing.items.map(({ serverId: _server, ...template }) => template) };
  });

  server.setRequestHandler('resources/read', async (request, ctx): Promise<ReadResourceResult> => {
    const { uri } = request.params;
    const signal = ctx.mcpReq.signal;
    if (uri.startsWith(RESULT_HANDLE)) {
      return { contents: [{ uri, mimeType: 'application/json', text: await wholeResult(host, scope, uri) }] };
    }
    const serverId = await ownerOf(uri);
    const read = await host.resources.read({ scope, serverId, uri, full: true, signal }).catch(refused(uri));
    return { contents: read.contents ?? [] };
  });

  /** The session's subscriptions: `serverId` and URI, as the host holds them for this session's scope. */
  const subscribed = new Map<string, { readonly serverId: string; readonly uri: string }>();
  let closed = false;
  const key = (serverId: string, uri: string): string => `${serverId}\u0000${uri}`;

  /** Subscribes to `uri` for as long as `wanted` holds once the server has been told (the session may end first). */
  async function subscribe(uri: string, wanted: () => boolean): Promise<void> {
    const serverId = await ownerOf(uri);
    await host.resources.subscribe({ scope, serverId, uri }).catch(refused(uri));
    // The session may have closed while the server was told: then the subscription ends at once, not never.
    if (closed || !wanted()) await host.resources.unsubscribe({ scope, serverId, uri }).catch(() => undefined);
    else subscribed.set(key(serverId, uri), { serverId, uri });
  }

  async function unsubscribe(uri: string): Promise<void> {
    const held = [...subscribed.entries()].filter(([, s]) => s.uri === uri);
    for (const [k, { serverId }] of held) {
      subscribed.delete(k);
      await host.resources.unsubscribe({ scope, serverId, uri }).catch(refused(uri));
    }
  }

  server.setRequestHandler('resources/subscribe', async (request) => {
    await subscribe(request.params.uri, () => true);
    return {};
  });

  server.setRequestHandler('resources/unsubscribe', async (request) => {
    await unsubscribe(request.params.uri);
    return {};
  });

  // A URI no server lists cannot be told about: the acknowledgement already went out, so it is only left out.
  const stopListening = listened?.follow((uri, listening) => {
    const done = listening ? subscribe(uri, () => listened.has(uri)) : unsubscribe(uri);
    void done.catch(() => undefined);
  });

  const stopUpdates = host.on('resource.updated', ({ serverId, tenant, uri }) => {
    if (!subscribed.has(key(serverId, uri))) return;
    if (tenant !== undefined && !tenantMatches(tenant, scope)) return;
    void server.sendResourceUpdated({ uri }).catch(() => undefined);
  });

  server.setRequestHandler('prompts/list', async () => {
    const listing = await host.prompts.list({ scope });
    return {
      prompts: listing.items.map(({ serverId, ...prompt }) => {
        const name = namespacedToolName(serverId, prompt.name);
        promptNames.set(name, { serverId, name: prompt.name });
        return { ...prompt, name };
      }),
    };
  });

  async function promptOf(name: string): Promise<{ serverId: string; name: string }> {
    if (!promptNames.has(name)) {
      for (const item of (await host.prompts.list({ scope })).items) {
        promptNames.set(namespacedToolName(item.serverId, item.name), { serverId: item.serverId, name: item.name });
      }
    }
    const found = promptNames.get(name);
    if (found === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    return found;
  }

  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const signal = ctx.mcpReq.signal;
    const { serverId, name } = await promptOf(request.params.name);
    const args = request.params.arguments;
    const got = await host.prompts.get({ scope, serverId, name, ...(args === undefined ? {} : { args }), signal });
    return { ...(got.description === undefined ? {} : { description: got.description }), messages: got.messages };
  });

  server.setRequestHandler('completion/complete', async (request, ctx) => {
    const signal = ctx.mcpReq.signal;
    const { ref, argument, context } = request.params;
    const target =
      ref.type === 'ref/prompt'
        ? await promptOf(ref.name).then(({ serverId, name }) => ({
            serverId,
            ref: { type: 'ref/prompt' as const, name },
          }))
        : { serverId: await ownerOf(ref.uri), ref: { type: 'ref/resource' as const, uri: ref.uri } };
    const completions = await host.prompts.complete({
      scope,
      ...target,
      argument,
      ...(context?.arguments === undefined ? {} : { context: context.arguments }),
      signal,
    });
    return { completion: { ...completions, values: [...completions.values] } };
  });

  return async () => {
    closed = true;
    stopUpdates();
    stopListening?.();
    const held = [...subscribed.values()];
    subscribed.clear();
    await Promise.allSettled(held.map(({ serverId, uri }) => host.resources.unsubscribe({ scope, serverId, uri })));
  };
}

/** The whole result behind a handle, read a slice at a time (the host keeps it up to its hard cap). */
async function wholeResult(host: Host, scope: Scope, handle: string): Promise<string> {
  let text = '';
  for (;;) {
    const slice = await host.results.read({ scope, handle, offset: text.length }).catch(refused(handle));
    text += slice.text;
    if (slice.done || slice.text === '') return text;
  }
}

/**
 * A host refusal of a read as a protocol error the client can show: an unknown handle (or another tenant's) is not
 * found; a refusal by the gate or a server's failure keeps the host's code and words.
 */
function refused(uri: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof HostError) {
      if (error.code === 'not_found')
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource not found: ${uri}`);
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `${error.code}: ${error.message}`);
    }
    throw error;
  };
}

import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryStore, createHost } from '@airlock/core';
import type { Host, ServerConfig } from '@airlock/core';
import type { ServerNotifier } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewaySurface } from './gateway-surface.js';
import { UserListens } from './user-listens.js';

// UserListens over a real host with server-everything behind it: which listen streams hold the user's subscription
// upstream, and for how long.
const here = dirname(fileURLToPath(import.meta.url));
const EVERYTHING: ServerConfig = {
  id: 'everything',
  transport: 'stdio',
  command: process.execPath,
  args: [resolve(here, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  env: {},
  trusted: false,
  disabled: false,
};
const URI = 'demo://resource/dynamic/text/1';
const SCOPE = { userId: 'grace', workspaceId: 'default', conversationId: 'gateway-2026' };
const NOTIFY: ServerNotifier = {
  toolsChanged: () => undefined,
  promptsChanged: () => undefined,
  resourcesChanged: () => undefined,
  resourceUpdated: () => undefined,
};

let host: Host;
let listens: UserListens;
const errors: Error[] = [];
beforeEach(async () => {
  host = createHost({ store: new MemoryStore(), surface: new GatewaySurface(), servers: [EVERYTHING] });
  await host.servers.settled();
  listens = new UserListens({ host, scope: SCOPE, notify: NOTIFY, onerror: (error) => errors.push(error) });
});
afterEach(async () => {
  await listens.close();
  await host.close();
  errors.length = 0;
});

/** A listen stream as the SDK answers one (an SSE body), and what ends it from the server's side. */
function listenStream(): { response: Response; end: () => void } {
  let end!: () => void;
  const body = new ReadableStream<Uint8Array>({ start: (controller) => (end = () => controller.close()) });
  return { response: new Response(body, { headers: { 'content-type': 'text/event-stream' } }), end };
}

const subscribers = () => host.resources.subscribers({ serverId: 'everything', uri: URI });

describe('UserListens: the URIs one user listens to over HTTP', () => {
  it('holds the subscription while any stream naming the URI is open, and lets go after the last', async () => {
    const first = listenStream();
    const second = listenStream();
    const watchedFirst = listens.watch([URI, URI], first.response);
    const watchedSecond = listens.watch([URI], second.response);
    await listens.settled();
    expect(subscribers()).toEqual([{ userId: 'grace', workspaceId: 'default' }]);

    // The client goes away from the first stream: the second still names the URI.
    await watchedFirst.body!.cancel();
    await listens.settled();
    expect(subscribers()).toEqual([{ userId: 'grace', workspaceId: 'default' }]);

    // The SDK ends the second (its graceful close): read to its end, nobody names the URI any more.
    second.end();
    await watchedSecond.text();
    await listens.settled();
    expect(subscribers()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('leaves an answer that is not a stream (a refused listen) as it is, holding nothing', async () => {
    const refused = Response.json({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'limit' } });
    expect(listens.watch([URI], refused)).toBe(refused);
    await listens.settled();
    expect(subscribers()).toEqual([]);
  });

  it('reports a URI no server lists, and holds nothing for it', async () => {
    const stream = listenStream();
    listens.watch(['demo://nowhere/at-all'], stream.response);
    await listens.settled();
    expect(errors.map((error) => error.message)).toEqual(['Resource not found: no server lists demo://nowhere/at-all']);
  });
});

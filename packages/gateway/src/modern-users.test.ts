import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryStore, createHost, sha256Hex } from '@airlock/core';
import type { Host, ServerConfig } from '@airlock/core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGatewayHandler } from './gateway-handler.js';
import type { GatewayHandler } from './gateway-handler.js';
import { GatewaySurface } from './gateway-surface.js';

// The HTTP gateway's per-user 2026-07-28 handlers over a real host with server-everything behind it, a v2 client
// speaking to the handler in process: a user's handler lives while a request or listen stream of theirs is open.
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
const TOKEN = 'grace-modern-users-token-0123456789';

let host: Host;
let gateway: GatewayHandler;
const clients: Client[] = [];
beforeEach(async () => {
  const surface = new GatewaySurface();
  host = createHost({ store: new MemoryStore(), surface, servers: [EVERYTHING] });
  await host.servers.settled();
  gateway = createGatewayHandler({
    host,
    surface,
    users: [{ tokenSha256: sha256Hex(TOKEN), userId: 'grace', workspaceId: 'default' }],
    allowedHostnames: 'any',
  });
});
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await gateway.close();
  await host.close();
});

/** A 2026-07-28 client whose requests go straight to the gateway's handler. */
async function modernClient(): Promise<Client> {
  const client = new Client({ name: 'modern-users', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  clients.push(client);
  const transport = new StreamableHTTPClientTransport(new URL('http://gateway.test/mcp'), {
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    fetch: (url, init) => gateway.handle(new Request(url, init)),
  });
  await client.connect(transport);
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  return client;
}

const subscribers = () => host.resources.subscribers({ serverId: 'everything', uri: URI });

describe("the HTTP gateway's 2026-07-28 handler of each user", () => {
  it('is kept while a request or listen stream of theirs is open, and dropped after', async () => {
    const client = await modernClient();
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    // Every request of hers has been answered and read: nothing of hers is held.
    await expect.poll(() => gateway.modernUsers()).toBe(0);

    // A listen stream holds her handler and her subscription upstream for as long as it is open.
    const listening = await client.listen({ resourceSubscriptions: [URI] });
    expect(listening.honoredFilter).toEqual({ resourceSubscriptions: [URI] });
    expect(gateway.modernUsers()).toBe(1);
    await expect.poll(subscribers).toEqual([{ userId: 'grace', workspaceId: 'default' }]);

    await listening.close();
    await expect.poll(() => gateway.modernUsers()).toBe(0);
    expect(subscribers()).toEqual([]);

    // A handler made afresh serves her next listen as the first did.
    const again = await client.listen({ resourceSubscriptions: [URI] });
    await expect.poll(subscribers).toEqual([{ userId: 'grace', workspaceId: 'default' }]);
    await again.close();
    await expect.poll(() => gateway.modernUsers()).toBe(0);
  }, 60_000);
});

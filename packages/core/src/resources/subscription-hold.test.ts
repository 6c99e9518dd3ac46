import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { ServerConfig } from '../servers/server-config.js';
import type { Surface } from '../host/surface.js';
import type { PermissionDecision } from '../permissions/permission-request.js';
import { nextEvent, SCOPE } from '../testing/demo-fixture.js';
import { FakeClock } from '../testing/fake-clock.js';

// A resource subscription lives on one connection, which forgets it when it closes: a user's own connection that
// carries a subscription is kept open past its idle time, and let go once the last subscriber is gone.

const EVERYTHING: ServerConfig = {
  id: 'everything',
  transport: 'stdio',
  command: process.execPath,
  args: [resolve(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  env: {},
  trusted: false,
  disabled: false,
  isolation: 'user',
};
const allow: Surface = { askPermission: (): Promise<PermissionDecision> => Promise.resolve('allow_once') };
const URI = 'demo://resource/dynamic/text/1';
const IDLE_MS = 60_000;

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe("a subscription on a user's own connection", () => {
  it('keeps the connection open past its idle time, and lets it close after the last unsubscribe', async () => {
    const clock = new FakeClock();
    host = createHost({ servers: [EVERYTHING], surface: allow, clock, limits: { tenantIdleMs: IDLE_MS } });
    await host.servers.settled();
    await host.resources.subscribe({ scope: SCOPE, serverId: 'everything', uri: URI });
    clock.advance(IDLE_MS * 3);
    expect(host.servers.list({ scope: SCOPE })[0]?.tenantConnection).toBe(true);
    await host.resources.unsubscribe({ scope: SCOPE, serverId: 'everything', uri: URI });
    const closed = nextEvent(host, 'server.state', (e) => e.tenant === `user:${SCOPE.userId}` && e.state === 'closed');
    clock.advance(IDLE_MS);
    await closed;
    expect(host.servers.list({ scope: SCOPE })[0]?.tenantConnection).toBe(false);
  });
});

describe('who follows a resource', () => {
  it('names the users who subscribed on a shared connection, and only them, as they come and go', async () => {
    host = createHost({ servers: [{ ...EVERYTHING, isolation: 'shared' }], surface: allow });
    await host.servers.settled();
    const ben = { ...SCOPE, userId: 'ben' };
    const followers = () => host!.resources.subscribers({ serverId: 'everything', uri: URI });
    expect(followers()).toEqual([]);
    await host.resources.subscribe({ scope: SCOPE, serverId: 'everything', uri: URI });
    expect(followers()).toEqual([{ userId: SCOPE.userId, workspaceId: SCOPE.workspaceId }]);
    await host.resources.subscribe({ scope: ben, serverId: 'everything', uri: URI });
    await host.resources.unsubscribe({ scope: SCOPE, serverId: 'everything', uri: URI });
    expect(followers()).toEqual([{ userId: 'ben', workspaceId: SCOPE.workspaceId }]);
    expect(host.resources.subscribers({ serverId: 'everything', uri: 'demo://resource/dynamic/text/2' })).toEqual([]);
  });

  it("keeps one user's subscription from a second conversation when the first one unsubscribes", async () => {
    host = createHost({ servers: [{ ...EVERYTHING, isolation: 'shared' }], surface: allow });
    await host.servers.settled();
    const other = { ...SCOPE, conversationId: 'second' };
    await host.resources.subscribe({ scope: SCOPE, serverId: 'everything', uri: URI });
    await host.resources.subscribe({ scope: other, serverId: 'everything', uri: URI });
    await host.resources.unsubscribe({ scope: SCOPE, serverId: 'everything', uri: URI });
    expect(host.resources.subscribers({ serverId: 'everything', uri: URI })).toEqual([
      { userId: SCOPE.userId, workspaceId: SCOPE.workspaceId },
    ]);
    // The server was not told to stop: it still tells updates of the URI.
    const updated = nextEvent(host, 'resource.updated', (e) => e.uri === URI);
    const toggle = { scope: SCOPE, caller: { kind: 'user' } as const, tool: 'everything__toggle-subscriber-updates' };
    await host.invoke({ ...toggle, args: {} });
    expect(await updated).toMatchObject({ serverId: 'everything', uri: URI });
    await host.invoke({ ...toggle, args: {} });
  });
});

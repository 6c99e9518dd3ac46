import { createHash } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { CliGateways, EVERYTHING_BIN } from '../../../test/support/gateway/cli-gateways.js';

// 2026-07-28 resource listens (`subscriptions/listen`) through `airlock gateway --http`, with server-everything
// behind it, one process per user (isolation "user"): its toggle-subscriber-updates tool makes that user's process
// tell an update of each subscribed URI every five seconds.
const URI = 'demo://resource/dynamic/text/1';
const GRACE = 'grace-listens-token-0123456789abcdef';
const HOPPER = 'hopper-listens-token-0123456789abcdef';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const bench = new CliGateways();
afterEach(() => bench.end());

/** An HTTP gateway for grace and hopper in front of server-everything (a process per user); its /mcp URL. */
function httpGateway(): Promise<URL> {
  const w = bench.workspace('airlock-gateway-listens-', {
    mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'], isolation: 'user' } },
    permissions: { rules: [{ effect: 'allow', server: 'everything', tool: 'toggle-subscriber-updates' }] },
    gateway: { users: { grace: { tokenSha256: sha256(GRACE) }, hopper: { tokenSha256: sha256(HOPPER) } } },
  });
  return bench.listening(['gateway', '--config', w.config, '--store', w.store]);
}

/** A 2026-07-28 client of the gateway with `token`, and the resource updates it hears, in order. */
async function modernClient(url: URL, token: string) {
  const client = bench.client(new Client({ name: 'listens', version: '1' }, { versionNegotiation: { mode: 'auto' } }));
  const updated: string[] = [];
  const waiting: ((uri: string) => void)[] = [];
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    const wake = waiting.shift();
    if (wake === undefined) updated.push(notification.params.uri);
    else wake(notification.params.uri);
  });
  const next = () => {
    const heard = updated.shift();
    return heard !== undefined ? Promise.resolve(heard) : new Promise<string>((wake) => waiting.push(wake));
  };
  const headers = { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  return { client, updated, next };
}

const toggle = (client: Client) => client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });

describe('airlock gateway over HTTP, 2026-07-28 resource listens', () => {
  it("tells a user's listen stream their server's updates of its URI, and never another user's", async () => {
    const url = await httpGateway();
    const grace = await modernClient(url, GRACE);
    const hopper = await modernClient(url, HOPPER);
    const graceListens = await grace.client.listen({ resourceSubscriptions: [URI] });
    const hopperListens = await hopper.client.listen({ resourceSubscriptions: [URI] });
    expect(graceListens.honoredFilter).toEqual({ resourceSubscriptions: [URI] });
    expect(hopperListens.honoredFilter).toEqual({ resourceSubscriptions: [URI] });

    // Grace's own server process tells updates; two of them, five seconds apart, reach her stream.
    expect((await toggle(grace.client)).isError).toBeUndefined();
    expect(await grace.next()).toBe(URI);
    expect(await grace.next()).toBe(URI);
    // Published on one shared bus, the first would have reached hopper's stream too, long before the second.
    expect(hopper.updated).toEqual([]);

    // Hopper's stream is live: his own server's update reaches it.
    await toggle(grace.client);
    expect((await toggle(hopper.client)).isError).toBeUndefined();
    expect(await hopper.next()).toBe(URI);
    await toggle(hopper.client);
    await Promise.all([graceListens.close(), hopperListens.close()]);
  }, 90_000);
});

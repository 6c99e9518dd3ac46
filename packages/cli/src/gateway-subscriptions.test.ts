import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_BIN } from '../../../test/support/cli/run-cli.js';
import { CliGateways, EVERYTHING_BIN } from '../../../test/support/gateway/cli-gateways.js';

// Resource subscriptions through `airlock gateway` over stdio, with server-everything behind it (its
// toggle-subscriber-updates tool makes it tell updates of subscribed URIs).

const URI = 'demo://resource/dynamic/text/1';

const bench = new CliGateways();
afterEach(() => bench.end());

/** A config in a fresh folder: server-everything, whose toggle tool a rule allows. */
function configFile(): { config: string; store: string } {
  return bench.workspace('airlock-gateway-subscriptions-', {
    mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] } },
    permissions: { rules: [{ effect: 'allow', server: 'everything', tool: 'toggle-subscriber-updates' }] },
  });
}

/** A client that keeps the resource updates it hears, in order, and waits for the next one. */
function listening(client: Client): { updated: string[]; next: () => Promise<string> } {
  const updated: string[] = [];
  const waiting: ((uri: string) => void)[] = [];
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    const uri = notification.params.uri;
    const wake = waiting.shift();
    if (wake === undefined) updated.push(uri);
    else wake(uri);
  });
  const next = () => {
    const heard = updated.shift();
    return heard !== undefined ? Promise.resolve(heard) : new Promise<string>((wake) => waiting.push(wake));
  };
  return { updated, next };
}

/**
 * A client of a gateway over stdio in front of server-everything, and the updates it hears; `modern` negotiates the
 * era (a v2 client's `auto` mode, which finds 2026-07-28).
 */
async function connect(modern = false): Promise<{ client: Client; updated: string[]; next: () => Promise<string> }> {
  const { config, store } = configFile();
  const client = new Client(
    { name: 'test', version: '1' },
    modern ? { versionNegotiation: { mode: 'auto' } } : undefined,
  );
  bench.client(client);
  const heard = listening(client);
  const args = [CLI_BIN, 'gateway', '--config', config, '--store', store, '--user', 'ada'];
  await client.connect(new StdioClientTransport({ command: process.execPath, args }));
  return { client, ...heard };
}

/** An HTTP gateway in front of server-everything, with one user's token; its /mcp URL. */
async function httpGateway(token: string): Promise<string> {
  const { config, store } = configFile();
  const url = await bench.listening(['gateway', '--config', config, '--store', store], {
    ...process.env,
    AIRLOCK_GATEWAY_TOKEN: token,
  });
  return url.href;
}

const toggle = (client: Client) => client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });

describe('airlock gateway, resource subscriptions', () => {
  it("declares subscriptions and passes a subscribed resource's updates to the client", async () => {
    const { client, next } = await connect();
    expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true, listChanged: true });
    await client.subscribeResource({ uri: URI });
    const heard = next();
    expect((await toggle(client)).isError).toBeUndefined();
    expect(await heard).toBe(URI);
    await toggle(client);
    await client.unsubscribeResource({ uri: URI });
  });

  it('tells a 2026-07-28 client the updates of a URI its subscriptions/listen names', async () => {
    const { client, next } = await connect(true);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const subscription = await client.listen({ resourceSubscriptions: [URI] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [URI] });
    const heard = next();
    expect((await toggle(client)).isError).toBeUndefined();
    expect(await heard).toBe(URI);
    await toggle(client);
    await subscription.close();
  }, 60_000);

  it('refuses a subscription to a URI no server lists, naming it', async () => {
    const { client } = await connect();
    await expect(client.subscribeResource({ uri: 'demo://nowhere/at-all' })).rejects.toThrow(
      /no server lists demo:\/\/nowhere\/at-all/,
    );
  });

  it('keeps telling one session of a user after another session of that user unsubscribes', async () => {
    const token = 'subscriptions-token-0123456789abcdef';
    const url = await httpGateway(token);
    const session = async () => {
      const client = new Client({ name: 'test', version: '1' });
      bench.client(client);
      const heard = listening(client);
      const headers = { authorization: `Bearer ${token}` };
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      return { client, ...heard };
    };
    const first = await session();
    const second = await session();
    await first.client.subscribeResource({ uri: URI });
    await second.client.subscribeResource({ uri: URI });
    await first.client.unsubscribeResource({ uri: URI });
    const heard = second.next();
    await toggle(second.client);
    expect(await heard).toBe(URI);
    await toggle(second.client);
    expect(first.updated).toEqual([]);
  });
});

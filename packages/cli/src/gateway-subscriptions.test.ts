import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';

// Resource subscriptions through `airlock gateway` over stdio, with server-everything behind it (its
// toggle-subscriber-updates tool makes it tell updates of subscribed URIs).

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../dist/bin.js');
const EVERYTHING = resolve(here, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const URI = 'demo://resource/dynamic/text/1';

const dirs: string[] = [];
const clients: Client[] = [];
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  for (const stop of stops.splice(0)) await stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A config in a fresh folder: server-everything, whose toggle tool a rule allows. */
function configFile(): { dir: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-gateway-subscriptions-'));
  dirs.push(dir);
  const config = join(dir, 'airlock.config.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
      permissions: { rules: [{ effect: 'allow', server: 'everything', tool: 'toggle-subscriber-updates' }] },
    }),
  );
  return { dir, config };
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
  const { dir, config } = configFile();
  const client = new Client(
    { name: 'test', version: '1' },
    modern ? { versionNegotiation: { mode: 'auto' } } : undefined,
  );
  clients.push(client);
  const heard = listening(client);
  const args = [BIN, 'gateway', '--config', config, '--store', join(dir, 'airlock.db'), '--user', 'ada'];
  await client.connect(new StdioClientTransport({ command: process.execPath, args }));
  return { client, ...heard };
}

/** An HTTP gateway in front of server-everything, with one user's token; its /mcp URL. */
async function httpGateway(token: string): Promise<string> {
  const { dir, config } = configFile();
  const args = [BIN, 'gateway', '--http', '--port', '0', '--config', config, '--store', join(dir, 'airlock.db')];
  const gateway = spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, AIRLOCK_GATEWAY_TOKEN: token },
  });
  stops.push(async () => {
    if (gateway.exitCode !== null) return;
    gateway.kill('SIGTERM');
    await once(gateway, 'exit');
  });
  let stderr = '';
  gateway.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  while (!/listening on (\S+)/.test(stderr)) {
    if (gateway.exitCode !== null) throw new Error(stderr);
    await once(gateway.stderr, 'data');
  }
  return /listening on (\S+)/.exec(stderr)![1]!;
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
      clients.push(client);
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

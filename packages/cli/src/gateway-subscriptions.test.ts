import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
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
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A client of a gateway in front of server-everything, whose toggle tool a rule allows; updates it hears, in order. */
async function connect(): Promise<{ client: Client; updated: string[]; next: () => Promise<string> }> {
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
  const client = new Client({ name: 'test', version: '1' });
  clients.push(client);
  const updated: string[] = [];
  const waiting: ((uri: string) => void)[] = [];
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    const uri = notification.params.uri;
    const wake = waiting.shift();
    if (wake === undefined) updated.push(uri);
    else wake(uri);
  });
  const args = [BIN, 'gateway', '--config', config, '--store', join(dir, 'airlock.db'), '--user', 'ada'];
  await client.connect(new StdioClientTransport({ command: process.execPath, args }));
  const next = () => {
    const heard = updated.shift();
    return heard !== undefined ? Promise.resolve(heard) : new Promise<string>((wake) => waiting.push(wake));
  };
  return { client, updated, next };
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

  it('refuses a subscription to a URI no server lists, naming it', async () => {
    const { client } = await connect();
    await expect(client.subscribeResource({ uri: 'demo://nowhere/at-all' })).rejects.toThrow(
      /no server lists demo:\/\/nowhere\/at-all/,
    );
  });
});

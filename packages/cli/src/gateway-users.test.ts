import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { SqliteStore } from '@airlock/core/sqlite';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../dist/bin.js');
const DEMO = resolve(here, '../../demo-server/dist/bin.js');
const GRACE = 'grace-token-0123456789abcdef';
const HOPPER = 'hopper-token-0123456789abcdef';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const dirs: string[] = [];
const gateways: ChildProcess[] = [];
afterEach(async () => {
  for (const gateway of gateways.splice(0)) {
    if (gateway.exitCode === null) {
      gateway.kill('SIGTERM');
      await once(gateway, 'exit');
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A config with the demo server, echo allowed, and the given `gateway` section; the store beside it. */
function workspace(gateway: unknown) {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-gateway-users-'));
  dirs.push(dir);
  const config = join(dir, 'airlock.config.json');
  const demo = { command: process.execPath, args: [DEMO] };
  const rules = [{ effect: 'allow', server: 'demo', tool: 'echo' }];
  writeFileSync(config, JSON.stringify({ mcpServers: { demo }, permissions: { rules }, gateway }, null, 2));
  return { config, store: join(dir, 'airlock.db') };
}

/** Starts `airlock gateway --http` with no token in the environment; resolves with its URL or its exit. */
async function start(w: { config: string; store: string }) {
  const env = { ...process.env };
  delete env['AIRLOCK_GATEWAY_TOKEN'];
  const gateway = spawn(
    process.execPath,
    [BIN, 'gateway', '--http', '--port', '0', '--config', w.config, '--store', w.store],
    { stdio: ['ignore', 'ignore', 'pipe'], env },
  );
  gateways.push(gateway);
  let stderr = '';
  gateway.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(gateway, 'exit').then(([code]) => ({ code: code as number | null, stderr }));
  while (!/listening on (\S+)/.test(stderr)) {
    const ended = await Promise.race([once(gateway.stderr, 'data').then(() => undefined), exited]);
    if (ended !== undefined) return { ...ended, gateway, url: undefined };
  }
  return { gateway, url: new URL(/listening on (\S+)/.exec(stderr)![1]!), code: undefined, stderr };
}

async function connect(url: URL, token: string) {
  const client = new Client({ name: 'test', version: '1' });
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return { client, transport, conversationId: `gateway-${transport.sessionId!}` };
}

describe('airlock gateway --http with gateway.users in the config', () => {
  it("scopes each user's calls to their name and workspace, and keeps each history apart", async () => {
    const w = workspace({
      users: { grace: { tokenSha256: sha256(GRACE), workspace: 'lab' }, hopper: { tokenSha256: sha256(HOPPER) } },
    });
    const { gateway, url } = await start(w);
    const grace = await connect(url!, GRACE);
    const hopper = await connect(url!, HOPPER);
    await grace.client.callTool({ name: 'demo__echo', arguments: { text: 'from grace' } });
    await hopper.client.callTool({ name: 'demo__echo', arguments: { text: 'from hopper' } });
    await hopper.client.callTool({ name: 'demo__echo', arguments: { text: 'hopper again' } });
    await grace.transport.terminateSession();
    await hopper.transport.terminateSession();
    await Promise.all([grace.client.close(), hopper.client.close()]);
    // Stopping the gateway commits what its calls left in the history.
    gateway.kill('SIGTERM');
    await once(gateway, 'exit');

    const store = new SqliteStore({ database: new Database(w.store, { readonly: true }) });
    try {
      const inGrace = { userId: 'grace', workspaceId: 'lab', conversationId: grace.conversationId };
      const inHopper = { userId: 'hopper', workspaceId: 'default', conversationId: hopper.conversationId };
      const graces = await store.listInvocations(inGrace);
      const hoppers = await store.listInvocations(inHopper);
      expect(graces.map((call) => call.args)).toEqual([{ text: 'from grace' }]);
      expect(hoppers.map((call) => call.args)).toEqual([{ text: 'hopper again' }, { text: 'from hopper' }]);
      // Grace's conversation under Hopper's name, or in another workspace, holds nothing.
      expect(await store.listInvocations({ ...inGrace, userId: 'hopper' })).toEqual([]);
      expect(await store.listInvocations({ ...inGrace, workspaceId: 'default' })).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("refuses a token no user has, and a user cannot reach another user's session", async () => {
    const w = workspace({ users: { grace: { tokenSha256: sha256(GRACE) }, hopper: { tokenSha256: sha256(HOPPER) } } });
    const { url } = await start(w);
    const stranger = await fetch(url!, {
      method: 'POST',
      headers: { authorization: 'Bearer someone-else-0123456789', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(stranger.status).toBe(401);
    const grace = await connect(url!, GRACE);
    const intruder = await fetch(url!, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${HOPPER}`,
        'mcp-session-id': grace.transport.sessionId!,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }),
    });
    expect(intruder.status).toBe(404);
    await grace.transport.terminateSession();
    await grace.client.close();
  });

  it('says where a bad user entry is, by file, line and column, and does not start', async () => {
    const w = workspace({ users: { grace: { tokenSha256: 'not-a-hash' } } });
    const result = await start(w);
    expect(result.url).toBeUndefined();
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(
      new RegExp(
        `${w.config.replace(/[.]/g, '\\.')}:\\d+:\\d+: gateway\\.users\\.grace\\.tokenSha256 must be the sha256`,
      ),
    );
  });

  it('needs a token from somewhere to serve HTTP: no users and no AIRLOCK_GATEWAY_TOKEN is a usage error', async () => {
    const result = await start(workspace({ users: {} }));
    expect(result.url).toBeUndefined();
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--http needs bearer tokens[\s\S]*gateway[\s\S]*users/);
  });
});

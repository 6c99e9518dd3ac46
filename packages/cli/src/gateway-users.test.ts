import { createHash } from 'node:crypto';
import { once } from 'node:events';
import Database from 'better-sqlite3';
import { SqliteStore } from '@airlock/core/sqlite';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { CliGateways, DEMO_BIN } from '../../../test/support/gateway/cli-gateways.js';

const GRACE = 'grace-token-0123456789abcdef';
const HOPPER = 'hopper-token-0123456789abcdef';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const bench = new CliGateways();
afterEach(() => bench.end());

/** A config with the demo server, echo allowed, and the given `gateway` section; the store beside it. */
function workspace(gateway: unknown) {
  const demo = { command: process.execPath, args: [DEMO_BIN] };
  const rules = [{ effect: 'allow', server: 'demo', tool: 'echo' }];
  return bench.workspace('airlock-gateway-users-', { mcpServers: { demo }, permissions: { rules }, gateway });
}

/** Starts `airlock gateway --http` with no token in the environment; resolves with its URL or its exit. */
function start(w: { config: string; store: string }) {
  const env = { ...process.env };
  delete env['AIRLOCK_GATEWAY_TOKEN'];
  return bench.startHttp(['gateway', '--config', w.config, '--store', w.store], env);
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

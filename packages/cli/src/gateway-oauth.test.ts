import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthorizationServer } from '../../../test/support/oauth/authorization-server.js';
import type { AuthorizationServer } from '../../../test/support/oauth/authorization-server.js';

// `airlock gateway --http` as an OAuth 2.1 resource server of a real authorization server (oidc-provider issuing JWT
// access tokens with resource indicators): a machine client gets a token by client credentials and calls through.

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../dist/bin.js');
const DEMO = resolve(here, '../../demo-server/dist/bin.js');
const CLIENT = { client_id: 'reporting-job', client_secret: 'reporting-secret-0123456789' };

let dir: string;
let as: AuthorizationServer;
let gateway: ChildProcess;
let url: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'airlock-gateway-oauth-'));
  as = await startAuthorizationServer({
    accessTokenFormat: 'jwt',
    clients: [
      {
        ...CLIENT,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
  });
  const config = join(dir, 'airlock.config.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { demo: { command: process.execPath, args: [DEMO] } },
      permissions: { rules: [{ effect: 'allow', server: 'demo', tool: 'echo' }] },
      gateway: { oauth: { issuer: as.issuer, scopes: ['tools:read'], workspace: 'reports' } },
    }),
  );
  gateway = spawn(
    process.execPath,
    [BIN, 'gateway', '--http', '--port', '0', '--config', config, '--store', join(dir, 'airlock.db')],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, AIRLOCK_GATEWAY_TOKEN: '' } },
  );
  let stderr = '';
  gateway.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  while (!/listening on (\S+)/.test(stderr)) {
    if (gateway.exitCode !== null) throw new Error(stderr);
    await once(gateway.stderr!, 'data');
  }
  url = /listening on (\S+)/.exec(stderr)![1]!;
  as.resources.add(url);
});

afterAll(async () => {
  if (gateway?.exitCode === null) {
    gateway.kill('SIGTERM');
    await once(gateway, 'exit');
  }
  await as?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A token by client credentials, for `resource` with `scope`. */
async function token(resource: string, scope: string): Promise<string> {
  const response = await fetch(`${as.issuer}/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${CLIENT.client_id}:${CLIENT.client_secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }),
  });
  const body = (await response.json()) as { access_token?: string; error_description?: string };
  if (body.access_token === undefined) throw new Error(`no token: ${JSON.stringify(body)}`);
  return body.access_token;
}

const initialize = (bearer?: string) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });

describe('airlock gateway as an OAuth resource server', () => {
  it('publishes its protected-resource metadata, naming the authorization server and the scopes', async () => {
    const path = `${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`;
    expect(await (await fetch(path)).json()).toEqual({
      resource: url,
      authorization_servers: [as.issuer],
      bearer_methods_supported: ['header'],
      scopes_supported: ['tools:read'],
      resource_name: 'Airlock gateway',
    });
  });

  it('answers a request without a token 401, pointing at that metadata', async () => {
    const response = await initialize();
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(
      `resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it("lets a token of the authorization server for this resource call, as the token's subject", async () => {
    const bearer = await token(url, 'tools:read');
    const client = new Client({ name: 'reporting-job', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${bearer}` } },
      }),
    );
    try {
      const echo = await client.callTool({ name: 'demo__echo', arguments: { text: 'with a JWT' } });
      expect(echo.isError).toBeUndefined();
      expect(JSON.stringify(echo.content)).toContain('with a JWT');
      // Kept under the token's subject (client credentials: the client) in the configured workspace.
      const kept = () => {
        const db = new Database(join(dir, 'airlock.db'), { readonly: true });
        try {
          return db.prepare("SELECT user_id, workspace_id FROM invocations WHERE tool = 'demo__echo'").all();
        } finally {
          db.close();
        }
      };
      await expect.poll(kept).toEqual([{ user_id: 'reporting-job', workspace_id: 'reports' }]);
    } finally {
      await client.close();
    }
  });

  it('refuses a token meant for another resource, one without the scope, and one altered', async () => {
    const elsewhere = 'http://127.0.0.1:9/mcp';
    as.resources.add(elsewhere);
    const other = await initialize(await token(elsewhere, 'tools:read'));
    expect(other.status).toBe(401);
    expect(other.headers.get('www-authenticate')).toContain("the token's aud claim does not fit");

    const narrow = await initialize(await token(url, 'tools:admin'));
    expect(narrow.status).toBe(403);
    expect(narrow.headers.get('www-authenticate')).toContain('error="insufficient_scope"');

    const good = await token(url, 'tools:read');
    const altered = await initialize(`${good.slice(0, -4)}AAAA`);
    expect(altered.status).toBe(401);
    expect(altered.headers.get('www-authenticate')).toMatch(/signature does not verify|not a JWT/);
  });
});

describe('gateway.oauth in the config', () => {
  it('says where a plain-http issuer off loopback is, by file, line and column, and does not start', async () => {
    const config = join(dir, 'bad-oauth.config.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: {}, gateway: { oauth: { issuer: 'http://auth.example.com' } } }, null, 2),
    );
    const child = spawn(process.execPath, [BIN, 'gateway', '--http', '--port', '0', '--config', config], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).not.toBe(0);
    expect(stderr).toContain(`${config}:5:7: gateway.oauth.issuer must be an https URL (http only on localhost`);
  });
});

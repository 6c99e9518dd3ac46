import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliGateways, DEMO_BIN } from '../../../test/support/gateway/cli-gateways.js';
import { startAuthorizationServer } from '../../../test/support/oauth/authorization-server.js';
import type { AuthorizationServer } from '../../../test/support/oauth/authorization-server.js';

// `airlock gateway --http` as an OAuth 2.1 resource server of a real authorization server (oidc-provider issuing JWT
// access tokens with resource indicators): a machine client gets a token by client credentials and calls through.

const CLIENT = { client_id: 'reporting-job', client_secret: 'reporting-secret-0123456789' };
/** A client whose id is also the name of a static gateway user in one test. */
const ADA = { client_id: 'ada', client_secret: 'ada-secret-0123456789abcdef' };

const bench = new CliGateways();
let dir: string;
let as: AuthorizationServer;
let url: string;
/** The first gateway's store: its history. */
let store: string;
/** What a test started besides the gateways (a fake issuer), stopped before them. */
const stops: (() => Promise<void>)[] = [];
let started = 0;

/** `airlock gateway --http` on a config of `keys` (and the demo server): its /mcp URL once it listens, and its store. */
async function startGateway(keys: object, env: NodeJS.ProcessEnv = {}): Promise<{ url: string; store: string }> {
  const config = join(dir, `airlock-${started}.config.json`);
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { demo: { command: process.execPath, args: [DEMO_BIN] } },
      permissions: { rules: [{ effect: 'allow', server: 'demo', tool: 'echo' }] },
      ...keys,
    }),
  );
  const store = join(dir, `airlock-${started}.db`);
  started += 1;
  const listening = await bench.listening(['gateway', '--config', config, '--store', store], {
    ...process.env,
    AIRLOCK_GATEWAY_TOKEN: '',
    ...env,
  });
  return { url: listening.href, store };
}

beforeAll(async () => {
  dir = bench.folder('airlock-gateway-oauth-');
  const confidential = {
    grant_types: ['client_credentials'],
    redirect_uris: [],
    response_types: [],
    token_endpoint_auth_method: 'client_secret_basic' as const,
  };
  as = await startAuthorizationServer({
    accessTokenFormat: 'jwt',
    clients: [
      { ...CLIENT, ...confidential },
      { ...ADA, ...confidential },
    ],
  });
  ({ url, store } = await startGateway({
    gateway: { oauth: { issuer: as.issuer, scopes: ['tools:read'], workspace: 'reports' } },
  }));
  as.resources.add(url);
});

afterAll(async () => {
  for (const stop of stops.splice(0)) await stop();
  await bench.end();
  await as?.close();
});

/** A token by client credentials, for `resource` with `scope`. */
async function token(resource: string, scope: string, client = CLIENT): Promise<string> {
  const response = await fetch(`${as.issuer}/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }),
  });
  const body = (await response.json()) as { access_token?: string; error_description?: string };
  if (body.access_token === undefined) throw new Error(`no token: ${JSON.stringify(body)}`);
  return body.access_token;
}

const initialize = (bearer?: string, at = url) =>
  fetch(at, {
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
        const db = new Database(store, { readonly: true });
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

  it("refuses a token whose user is a static token's user, and never mixes the two in one session", async () => {
    const staticToken = 'static-ada-token-0123456789abcdef';
    const tokenSha256 = createHash('sha256').update(staticToken).digest('hex');
    const { url: both } = await startGateway({
      gateway: { users: { ada: { tokenSha256 } }, oauth: { issuer: as.issuer } },
    });
    as.resources.add(both);
    const staticUser = await initialize(staticToken, both);
    expect(staticUser.status).toBe(200);
    const jwt = await initialize(await token(both, 'tools:read', ADA), both);
    expect(jwt.status).toBe(401);
    expect(jwt.headers.get('www-authenticate')).toContain('is also a gateway user of a static token');
  });

  it('reads the keys from OpenID discovery when the RFC 8414 place answers a login page, and says 401', async () => {
    // An issuer behind a proxy whose sign-in page answers every unknown path: the gateway must look further.
    const issuerServer = createServer((request, response) => {
      if (request.url === '/.well-known/openid-configuration') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
      } else if (request.url === '/jwks') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [] }));
      } else {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<html>\n<body>"sign in"</body></html>');
      }
    });
    issuerServer.listen(0, '127.0.0.1');
    await once(issuerServer, 'listening');
    const issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
    stops.push(() => new Promise((done) => issuerServer.close(() => done())));
    const { url: behind } = await startGateway({ gateway: { oauth: { issuer } } });
    const refused = await initialize('not-a-jwt', behind);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('the token is not a JWT this gateway accepts');
  });
});

describe('gateway.oauth in the config', () => {
  it('says where a plain-http issuer off loopback is, by file, line and column, and does not start', async () => {
    const config = join(dir, 'bad-oauth.config.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: {}, gateway: { oauth: { issuer: 'http://auth.example.com' } } }, null, 2),
    );
    const { code, stderr } = await bench.exits(['gateway', '--config', config]);
    expect(code).not.toBe(0);
    expect(stderr).toContain(`${config}:5:7: gateway.oauth.issuer must be an https URL (http only on localhost`);
  });
});

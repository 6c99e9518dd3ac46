import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoServers, startConsole } from '@airlock/console';
import type { ConsoleConfig, RunningConsole } from '@airlock/console';
import { startAuthorizationServer } from '../../../test/support/oauth/authorization-server.js';
import { ConsoleClient } from './testing/console-client.js';
import type { ConsoleEventStream } from './testing/console-client.js';

// A console with gateway.enabled also answers MCP clients at /mcp, to the bearer users of gateway.users: a client's
// calls run as its token's user, and a question its client cannot show goes to that user's console tabs.

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const GRACE_MCP = 'grace-mcp-token-0123456789';
const GRACE_PAGE = 'grace-page-token-0123456789';

let dir: string;
let running: RunningConsole | undefined;
const closers: (() => Promise<void>)[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'airlock-console-gateway-'));
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await running?.close();
  running = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function open(gateway: ConsoleConfig['gateway']): Promise<RunningConsole> {
  running = await startConsole({
    source: 'console gateway test',
    servers: demoServers(),
    rules: [{ effect: 'allow', layer: 'host', server: 'demo', tool: 'echo', source: 'console gateway test' }],
    limits: {},
    storePath: join(dir, 'console.db'),
    host: '127.0.0.1',
    port: 0,
    auth: 'token',
    users: [{ id: 'grace', tokenSha256: sha256(GRACE_PAGE) }],
    retention: {},
    ...(gateway === undefined ? {} : { gateway }),
  });
  await running.host.servers.settled();
  return running;
}

const GRACE = { tokenSha256: sha256(GRACE_MCP), userId: 'grace', workspaceId: 'default' };

async function mcpClient(url: string, token: string, capabilities: object = {}) {
  const client = new Client({ name: 'test', version: '1' }, { capabilities });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  closers.push(async () => {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  });
  return client;
}

function textOf(result: unknown): string {
  const { content } = result as { content: { type: string; text?: string }[] };
  return content.map((block) => block.text ?? '').join('\n');
}

describe('the console with gateway.enabled', () => {
  it("takes the JWTs of gateway.oauth's authorization server at /mcp, and names it in its metadata", async () => {
    const client = { client_id: 'nightly', client_secret: 'nightly-secret-0123456789' };
    const as = await startAuthorizationServer({
      accessTokenFormat: 'jwt',
      clients: [
        {
          ...client,
          grant_types: ['client_credentials'],
          redirect_uris: [],
          response_types: [],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
    });
    closers.push(() => as.close());
    const { url } = await open({ enabled: true, users: [], oauth: { issuer: as.issuer } });
    const resource = new URL('/mcp', url).href;
    const metadata = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url));
    expect(await metadata.json()).toMatchObject({ resource, authorization_servers: [as.issuer] });
    as.resources.add(resource);
    const issued = await fetch(`${as.issuer}/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope: 'tools:read' }),
    });
    const { access_token } = (await issued.json()) as { access_token: string };
    const mcp = await mcpClient(url, access_token);
    const echo = await mcp.callTool({ name: 'demo__echo', arguments: { text: 'a JWT at the console' } });
    expect(textOf(echo)).toContain('a JWT at the console');
  });

  it("serves /mcp to a gateway user's token: the client lists and calls the tools, and the page still loads", async () => {
    const { url } = await open({ enabled: true, users: [GRACE] });
    const client = await mcpClient(url, GRACE_MCP);
    expect(client.getServerVersion()?.name).toBe('airlock-gateway');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('demo__echo');
    const echo = await client.callTool({ name: 'demo__echo', arguments: { text: 'through the console' } });
    expect(textOf(echo)).toContain('through the console');
    expect((await fetch(url)).status).toBe(200);
  });

  it("answers 401 without a gateway user's token; a page sign-in token is not one", async () => {
    const { url } = await open({ enabled: true, users: [GRACE] });
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const post = (extra: Record<string, string>) =>
      fetch(new URL('/mcp', url), { method: 'POST', headers: { ...headers, ...extra }, body: initialize });
    const missing = await post({});
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect((await post({ authorization: `Bearer ${GRACE_PAGE}` })).status).toBe(401);
    expect((await post({ authorization: `Bearer ${GRACE_MCP}`, origin: 'https://evil.example' })).status).toBe(403);
    const foreignHost = await new Promise<number>((resolve, reject) => {
      const auth = { ...headers, authorization: `Bearer ${GRACE_MCP}`, host: 'evil.example' };
      const req = request(new URL('/mcp', url), { method: 'POST', headers: auth }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(initialize);
    });
    expect(foreignHost).toBe(403);
  });

  it("asks the user's console tab when the client cannot elicit, and the call runs when answered", async () => {
    const { url } = await open({ enabled: true, users: [GRACE] });
    const page = await ConsoleClient.signIn(url, { token: GRACE_PAGE });
    const tab: ConsoleEventStream = await page.openEvents();
    closers.push(() => tab.close());
    const client = await mcpClient(url, GRACE_MCP);

    const call = client.callTool({ name: 'demo__search_notes', arguments: { query: 'shopping' } });
    const asked = await tab.waitFor((e) => e.event === 'permission.requested', 'the question of the MCP call');
    const question = asked.data as { invocationId: string; tool: { name: string }; scope: { userId: string } };
    expect(question.tool.name).toBe('demo__search_notes');
    expect(question.scope.userId).toBe('grace');
    const answered = await page.post(`/api/permission-requests/${question.invocationId}`, { decision: 'allow_once' });
    expect(answered.status).toBeLessThan(300);
    const result = await call;
    expect(result.isError).toBeFalsy();
  });

  it("serves a 2026-07-28 client at /mcp: its question goes to the user's tab, then the call runs", async () => {
    const { url } = await open({ enabled: true, users: [GRACE] });
    const page = await ConsoleClient.signIn(url, { token: GRACE_PAGE });
    const tab: ConsoleEventStream = await page.openEvents();
    closers.push(() => tab.close());
    const client = new Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', url), {
        requestInit: { headers: { authorization: `Bearer ${GRACE_MCP}` } },
      }),
    );
    closers.push(() => client.close());
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');

    const call = client.callTool({ name: 'demo__search_notes', arguments: { query: 'modern' } });
    const asked = await tab.waitFor((e) => e.event === 'permission.requested', 'the question of the 2026 call');
    const question = asked.data as { invocationId: string; scope: { userId: string } };
    expect(question.scope.userId).toBe('grace');
    await page.post(`/api/permission-requests/${question.invocationId}`, { decision: 'allow_once' });
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('modern');
  });

  it('answers /mcp as no endpoint when gateway.enabled is not set', async () => {
    const { url } = await open({ enabled: false, users: [GRACE] });
    const response = await fetch(new URL('/mcp', url), {
      method: 'POST',
      headers: { authorization: `Bearer ${GRACE_MCP}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.headers.get('www-authenticate')).toBeNull();
    expect(response.status).not.toBe(200);
  });
});

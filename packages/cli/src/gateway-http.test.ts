import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callLog, CliGateways, loggedDemo } from '../../../test/support/gateway/cli-gateways.js';

const TOKEN = 'gateway-test-token-0123456789abcdef';

const bench = new CliGateways();
let dir: string;
let url: URL;

/** The tools/call requests that reached the demo server, in order. */
function reached(): string[] {
  return callLog(dir).map((line) => line.tool);
}

beforeAll(async () => {
  const w = bench.workspace('airlock-gateway-http-', (folder) => ({
    mcpServers: { demo: loggedDemo(folder) },
    permissions: { rules: [{ effect: 'allow', server: 'demo', tool: 'echo' }] },
  }));
  dir = w.dir;
  // The gateway says where it listens once its servers have settled.
  url = await bench.listening(['gateway', '--config', w.config, '--store', w.store, '--user', 'ada'], {
    ...process.env,
    AIRLOCK_GATEWAY_TOKEN: TOKEN,
  });
});

afterAll(() => bench.end());

/** A raw request, so the Host and Origin headers are the test's to set. */
function raw(options: {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((done, fail) => {
    const req = httpRequest(url, { method: options.method ?? 'POST', headers: options.headers ?? {} }, (res) => {
      res.resume();
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', fail);
    req.end(options.body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function textOf(result: unknown): string {
  const { content } = result as { content: { type: string; text?: string }[] };
  return content.map((block) => block.text ?? '').join('\n');
}

describe('airlock gateway --http', () => {
  it('serves a v1 SDK client that presents the token: it lists and calls tools', async () => {
    const client = new V1Client({ name: 'v1', version: '1' });
    const transport = new V1StreamableHTTPClientTransport(url, {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('demo__echo');
      const echo = await client.callTool({ name: 'demo__echo', arguments: { text: 'over http' } });
      expect(textOf(echo)).toContain('over http');
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it("asks a v2 client's person on the call's own stream, and the call runs once", async () => {
    const before = reached().filter((tool) => tool === 'search_notes').length;
    const client = new Client({ name: 'v2', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    let asked = 0;
    client.setRequestHandler('elicitation/create', () => {
      asked += 1;
      return Promise.resolve({ action: 'accept' as const, content: { decision: 'allow_once' } });
    });
    const transport = new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'demo__search_notes', arguments: { query: 'shopping' } });
      expect(result.isError).toBeFalsy();
      expect(asked).toBe(1);
      expect(reached().filter((tool) => tool === 'search_notes').length).toBe(before + 1);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it('answers 401 with a Bearer challenge without the token, or with a wrong one', async () => {
    const missing = await raw({ headers: JSON_HEADERS, body: INITIALIZE });
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
    const wrong = await raw({ headers: { ...JSON_HEADERS, authorization: 'Bearer not-the-token' }, body: INITIALIZE });
    expect(wrong.status).toBe(401);
  });

  it('refuses a foreign Host or Origin with 403, token or not', async () => {
    const auth = { ...JSON_HEADERS, authorization: `Bearer ${TOKEN}` };
    expect((await raw({ headers: { ...auth, host: 'evil.example' }, body: INITIALIZE })).status).toBe(403);
    expect((await raw({ headers: { ...auth, origin: 'https://evil.example' }, body: INITIALIZE })).status).toBe(403);
    expect((await raw({ headers: { ...auth }, body: INITIALIZE })).status).toBe(200);
  });

  it('refuses a 10 MB request with 413', async () => {
    const body = Buffer.alloc(10 * 1024 * 1024, 0x20);
    const answer = await raw({ headers: { ...JSON_HEADERS, authorization: `Bearer ${TOKEN}` }, body });
    expect(answer.status).toBe(413);
  });
});

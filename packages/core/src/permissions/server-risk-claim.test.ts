// A server's own risk in a tool's `_meta["airlock/risk"]` (seed 003 R2): a trusted server's claim sets the tier,
// lower than the spec's worst case included; an untrusted server's claim never lowers it. A real MCP server over HTTP.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import { SCOPE } from '../testing/demo-fixture.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An MCP server listing one tool without annotations whose `_meta` claims `claim` risk. */
async function serverClaiming(claim: string): Promise<string> {
  const mcp = new McpServer({ name: 'claims', version: '1.0.0' }, { capabilities: { tools: {} } });
  mcp.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: 'archive',
        description: 'Archives a note',
        inputSchema: { type: 'object' as const, properties: {} },
        _meta: { 'airlock/risk': claim },
      },
    ],
  }));
  mcp.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text' as const, text: 'archived' }] }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await mcp.connect(transport);
  const http: Server = createServer((req, res) => void transport.handleRequest(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    await mcp.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

async function askedAbout(claim: string, trusted: boolean) {
  const url = await serverClaiming(claim);
  const surface = new ScriptedSurface({ permissions: ['allow_once'] });
  const host: Host = createHost({
    servers: [{ id: 'claims', transport: 'http', url, headers: {}, trusted, disabled: false }],
    surface,
  });
  cleanups.push(() => host.close());
  await host.servers.settled();
  await host.permissions.ready();
  const result = await host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'claims__archive', args: {} });
  expect(result.outcome).toBe('success');
  return surface.requests[0];
}

describe("a server's own risk claim", () => {
  it("sets the tier of a trusted server's tool, lifts the worst case, and says the server rated it", async () => {
    const request = await askedAbout('low', true);
    expect(request).toMatchObject({
      risk: { tier: 'low', destructive: false, ratedBy: 'server' },
      allowAlways: { offered: true },
    });
  });

  it("is ignored when it would lower an untrusted server's risk", async () => {
    const request = await askedAbout('low', false);
    expect(request).toMatchObject({
      risk: { tier: 'high', destructive: true, ratedBy: 'annotations' },
      allowAlways: { offered: false },
    });
  });
});

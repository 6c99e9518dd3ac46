import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import { SCOPE } from '../testing/demo-fixture.js';
import { FakeClock } from '../testing/fake-clock.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';

interface V1Server {
  readonly url: string;
  /** Ends the MCP server and starts a new one behind the same listener: the session is forgotten. */
  restart(description: string): Promise<void>;
  stop(): Promise<void>;
}

/** The v1 SDK's low-level server with one `count` tool, every run of which is recorded in `calls`. */
async function startMcp(calls: string[], description: string) {
  const mcp = new McpServer({ name: 'v1-single', version: '1.0.0' }, { capabilities: { tools: {} } });
  mcp.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'count', description, inputSchema: { type: 'object' as const, properties: {} } }],
  }));
  mcp.setRequestHandler(CallToolRequestSchema, (request) => {
    calls.push(request.params.name);
    return { content: [{ type: 'text' as const, text: `run ${calls.length}` }] };
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await mcp.connect(transport);
  return { mcp, transport };
}

/**
 * A v1 SDK server in single-session mode (one transport with a session id generator). A restart replaces the server
 * and its transport behind the same listener (the process restarted, seen from the client, without the race of a
 * kept-alive socket closing): the new transport knows no session and answers 400 "Server not initialized".
 */
async function startV1Server(calls: string[], description: string): Promise<V1Server> {
  let current = await startMcp(calls, description);
  const http = createServer((req, res) => void current.transport.handleRequest(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const server = {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    restart: async (changed: string) => {
      await current.mcp.close();
      current = await startMcp(calls, changed);
    },
    stop: async () => {
      await current.mcp.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
  running.push(server);
  return server;
}

let host: Host | undefined;
const running: V1Server[] = [];
afterEach(async () => {
  await host?.close();
  host = undefined;
  await Promise.all(running.splice(0).map((server) => server.stop().catch(() => undefined)));
});

function connect(url: string): Host {
  host = createHost({
    servers: { mcpServers: { v1: { type: 'http', url } } },
    surface: new ScriptedSurface('allow_once'),
    limits: { connectTimeoutMs: 10_000, reconnectBaseDelayMs: 50 },
    clock: new FakeClock(),
  });
  return host;
}

function count(on: Host) {
  return on.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'v1__count', args: {} });
}

describe('a v1 single-session HTTP server restarted mid-session', () => {
  it('is a lost session: the host opens a new one and the call runs once', async () => {
    const calls: string[] = [];
    const first = await startV1Server(calls, 'Counts its runs');
    const on = connect(first.url);
    await on.servers.settled();
    expect((await count(on)).outcome).toBe('success');
    await first.restart('Counts its runs');
    const states: { state: string; error?: string }[] = [];
    on.on('server.state', (e) => states.push({ state: e.state, ...(e.error === undefined ? {} : { error: e.error }) }));
    const after = await count(on);
    expect(after.outcome).toBe('success');
    expect(after.text).toContain('run 2');
    expect(states).toEqual([
      { state: 'connecting', error: 'server "v1" no longer knows the session (HTTP 400): starting a new one' },
      { state: 'ready' },
    ]);
    expect(calls).toEqual(['count', 'count']);
  });

  it('does not run the call when the restarted server changed the tool the call was consented to', async () => {
    const calls: string[] = [];
    const first = await startV1Server(calls, 'Counts its runs');
    const on = connect(first.url);
    await on.servers.settled();
    expect((await count(on)).outcome).toBe('success');
    await first.restart('Counts its runs, and sends them somewhere');
    const after = await count(on);
    expect(after.outcome).toBe('transport_error');
    expect(after.error?.code).toBe('server_unavailable');
    expect(after.text).toMatch(/server "v1" restarted, and its tool count is no longer the one this call was for/);
    expect(calls).toEqual(['count']);
  });
});

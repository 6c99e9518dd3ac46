import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { SCOPE } from '../testing/demo-fixture.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';
import { parseServersConfig } from './server-config.js';

/**
 * A legacy server as hosted ones still run: the v1 SDK's SSEServerTransport (2024-11-05) on loopback. GET /sse opens
 * the event stream, POST /messages carries the client's messages; a POST to /sse (a Streamable HTTP initialize) gets
 * 405, as such servers answer it.
 */
async function startLegacyServer(): Promise<{ url: string; posts: number[]; stop: () => Promise<void> }> {
  const sessions = new Map<string, SSEServerTransport>();
  const posts: number[] = [];
  const http: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'GET' && path === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, transport);
      const server = new McpServer({ name: 'legacy', version: '1.0.0' });
      server.registerTool('hello', { description: 'Says hello' }, () => ({
        content: [{ type: 'text', text: 'hello over sse' }],
      }));
      void server.connect(transport);
      return;
    }
    if (req.method === 'POST' && path === '/messages') {
      const id = new URL(req.url ?? '/', 'http://localhost').searchParams.get('sessionId') ?? '';
      void sessions.get(id)?.handlePostMessage(req, res);
      return;
    }
    posts.push(405);
    res.writeHead(405).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    posts,
    stop: async () => {
      for (const transport of sessions.values()) await transport.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

let host: Host | undefined;
let legacy: Awaited<ReturnType<typeof startLegacyServer>> | undefined;
afterEach(async () => {
  await host?.close();
  await legacy?.stop();
  host = legacy = undefined;
});

describe('legacy HTTP+SSE servers', () => {
  it('are reached with type "sse" directly, and from a bare url after a 405 to the Streamable HTTP initialize', async () => {
    legacy = await startLegacyServer();
    const servers = parseServersConfig({
      servers: { named: { type: 'sse', url: legacy.url }, bare: { url: legacy.url } },
    });
    host = createHost({ servers, surface: new ScriptedSurface('allow_once'), store: new MemoryStore() });
    const warnings: string[] = [];
    host.on('server.warning', (e) => warnings.push(`${e.serverId}: ${e.message}`));
    await host.servers.settled();

    expect(host.servers.list().map((s) => [s.id, s.state])).toEqual([
      ['named', 'ready'],
      ['bare', 'ready'],
    ]);
    for (const tool of ['named__hello', 'bare__hello']) {
      const result = await host.invoke({ scope: SCOPE, caller: { kind: 'user' }, tool, args: {} });
      expect(result.outcome).toBe('success');
      expect(result.text).toContain('hello over sse');
    }
    // Only the bare url tried Streamable HTTP first, and the host said which transport it used.
    expect(legacy.posts).toEqual([405]);
    expect(warnings).toEqual([
      'bare: server "bare" answered HTTP 405 to a Streamable HTTP initialize: connected with the legacy HTTP+SSE ' +
        'transport (set "type": "sse" to go straight to it)',
    ]);
  });

  it('fails a type "http" server on the same 405, with no fallback', async () => {
    legacy = await startLegacyServer();
    host = createHost({ servers: parseServersConfig({ servers: { s: { type: 'http', url: legacy.url } } }) });
    await host.servers.settled();
    expect(host.servers.list()[0]).toMatchObject({ state: 'failed' });
    expect(host.servers.list()[0]?.error).toContain('405');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { Scope } from '../scope.js';
import type { Surface } from '../host/surface.js';
import type { PermissionDecision } from '../permissions/permission-request.js';
import { demoServer, nextEvent, scriptServer, SCOPE } from '../testing/demo-fixture.js';

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const allow: Surface = { askPermission: (): Promise<PermissionDecision> => Promise.resolve('allow_once') };

/**
 * A stdio server written by hand (newline-delimited JSON-RPC): a 50 MB text resource, a 2 MB one, and an SVG blob
 * (markup that can carry script: never rendered inline).
 */
const BIG_SERVER = `
const rl = require('node:readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  const reply = (result) => send({ jsonrpc: '2.0', id: m.id, result });
  if (m.method === 'initialize')
    return reply({ protocolVersion: m.params.protocolVersion, capabilities: { resources: {}, tools: {} }, serverInfo: { name: 'big', version: '1' } });
  if (m.method === 'tools/list') return reply({ tools: [] });
  if (m.method === 'resources/list') {
    // Two pages: the host lists every page.
    if (m.params?.cursor !== 'p2') return reply({ resources: [{ uri: 'big://svg', name: 'svg' }], nextCursor: 'p2' });
    reply({ resources: [{ uri: 'big://2mb', name: '2mb' }] });
    // As if the list changed right after: the host tells surfaces to list again.
    return send({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
  }
  if (m.method === 'resources/read') {
    const uri = m.params.uri;
    if (uri === 'big://50mb') return reply({ contents: [{ uri, mimeType: 'text/plain', text: 'x'.repeat(50 * 1024 * 1024) }] });
    if (uri === 'big://2mb') return reply({ contents: [{ uri, mimeType: 'text/plain', text: 'a\\n'.repeat(1024 * 1024) }] });
    if (uri === 'big://svg') return reply({ contents: [{ uri, mimeType: 'image/svg+xml', blob: svg }] });
    return send({ jsonrpc: '2.0', id: m.id, error: { code: -32002, message: 'Resource not found: ' + uri } });
  }
  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
});
`;

describe('bounded reads', () => {
  it('refuses a 50 MB resource past the message cap, naming the server and the URI; the server goes on', async () => {
    host = createHost({
      servers: [scriptServer('big', BIG_SERVER)],
      limits: { connectTimeoutMs: 20_000, maxMessageBytes: 8 * 1024 * 1024 },
    });
    await host.servers.settled();
    await expect(host.resources.read({ scope: SCOPE, serverId: 'big', uri: 'big://50mb' })).rejects.toMatchObject({
      code: 'result_too_large',
      message: expect.stringMatching(/^server "big": the read of resource "big:\/\/50mb" was refused/),
    });
    const read = await host.resources.read({ scope: SCOPE, serverId: 'big', uri: 'big://2mb' });
    expect(read.totalChars).toBeGreaterThan(2 * 1024 * 1024);
    expect(read.model.text.length).toBeLessThanOrEqual(25_000);
    expect(read.handle).toMatch(/^airlock:read\/[0-9a-f-]{36}$/);
    expect(read.model.truncation).toMatchObject({ totalChars: read.totalChars, handle: read.handle });
    expect(read.model.text).toContain('of this result: characters ');
    expect(read.model.text).toContain(`The whole result is kept behind handle ${read.handle}.]`);
    expect(read.screen[0]).toMatchObject({ kind: 'text', totalChars: 2 * 1024 * 1024, truncated: true });
    expect((read.screen[0] as { text: string }).text.length).toBe(100_000);
    expect(read.contents).toBeUndefined();
    // The whole, from the handle: the very read that was cut, not asked of the server again.
    const whole = await host.resources.whole({ scope: SCOPE, handle: read.handle! });
    expect(whole).toMatchObject({ serverId: 'big', uri: 'big://2mb' });
    expect((whole.contents[0] as { text: string }).text).toBe('a\n'.repeat(1024 * 1024));
    const other: Scope = { ...SCOPE, userId: 'someone-else' };
    await expect(host.resources.whole({ scope: other, handle: read.handle! })).rejects.toThrow(
      /no read behind airlock:read/,
    );
  }, 30_000);

  it('describes an SVG blob rather than carrying it, and names an unknown URI', async () => {
    host = createHost({ servers: [scriptServer('big', BIG_SERVER)], limits: { connectTimeoutMs: 20_000 } });
    await host.servers.settled();
    const read = await host.resources.read({ scope: SCOPE, serverId: 'big', uri: 'big://svg' });
    expect(read.screen).toEqual([
      { kind: 'binary', uri: 'big://svg', mimeType: 'image/svg+xml', bytes: 71, render: 'described' },
    ]);
    expect(read.model.text).not.toContain('script');
    await expect(host.resources.read({ scope: SCOPE, serverId: 'big', uri: 'big://none' })).rejects.toMatchObject({
      code: 'not_found',
      message:
        'server "big" answered the read of resource "big://none" with JSON-RPC error -32002: Resource not found: big://none',
    });
    await expect(host.resources.read({ scope: SCOPE, serverId: 'nope', uri: 'big://none' })).rejects.toMatchObject({
      code: 'server_not_found',
    });
    await expect(host.prompts.list({ scope: SCOPE, serverId: 'big' })).resolves.toEqual({ items: [], failures: [] });
    const changed = nextEvent(host, 'resources.changed');
    expect((await host.resources.list({ scope: SCOPE })).items).toEqual([
      { uri: 'big://svg', name: 'svg', serverId: 'big' },
      { uri: 'big://2mb', name: '2mb', serverId: 'big' },
    ]);
    expect(await changed).toEqual({ serverId: 'big' });
  }, 30_000);
});

describe('a disabled server', () => {
  it('is refused by name, and left out of listings over all servers', async () => {
    host = createHost({ servers: [{ ...scriptServer('big', BIG_SERVER), disabled: true }] });
    await expect(host.resources.read({ scope: SCOPE, serverId: 'big', uri: 'big://svg' })).rejects.toMatchObject({
      code: 'server_unavailable',
      message: 'server "big" is disabled; nothing was asked of it',
    });
    await expect(host.resources.list({ scope: SCOPE })).resolves.toEqual({ items: [], failures: [] });
  });
});

describe('resources per user', () => {
  const ana: Scope = { userId: 'ana', workspaceId: 'team', conversationId: 'c-ana' };
  const ben: Scope = { userId: 'ben', workspaceId: 'team', conversationId: 'c-ben' };

  it("reads through each user's own connection: a note ana wrote on hers is not on ben's", async () => {
    const demo = demoServer();
    host = createHost({
      servers: [{ ...demo.config, isolation: 'user' }],
      surface: allow,
      limits: { connectTimeoutMs: 20_000 },
    });
    await host.servers.settled();
    const wrote = await host.invoke({
      scope: ana,
      caller: { kind: 'user' },
      tool: 'demo__write_note',
      args: { id: 'ana-only', text: 'for ana' },
    });
    expect(wrote.outcome).toBe('success');
    const mine = await host.resources.read({ scope: ana, serverId: 'demo', uri: 'demo://notes/ana-only' });
    expect(mine.screen[0]).toMatchObject({ kind: 'text', text: 'for ana' });
    expect((await host.resources.list({ scope: ana })).items.map((r) => r.uri)).toContain('demo://notes/ana-only');
    expect((await host.resources.list({ scope: ben })).items.map((r) => r.uri)).not.toContain('demo://notes/ana-only');
    await expect(
      host.resources.read({ scope: ben, serverId: 'demo', uri: 'demo://notes/ana-only' }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(host.servers.list({ scope: ben })[0]).toMatchObject({ tenantConnection: true });
  }, 30_000);
});

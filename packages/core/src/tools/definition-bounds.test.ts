import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { ServerConfig } from '../servers/server-config.js';
import { parseServersConfig } from '../servers/server-config.js';
import { SCOPE } from '../testing/demo-fixture.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';
import { boundDefinition, DEFAULT_MAX_DEFINITION_CHARS } from './definition-bounds.js';

// A real stdio server (plain JSON-RPC lines, no SDK, so nothing on its side trims what it sends) lists a tool with a
// 50 MB description, a 10 KB title, a schema with a 100 KB property description, and a tool whose schema alone is
// 90 KB; the host keeps each within its bounds, says what it cut, and takes more from a server whose entry says so.
const HOSTILE_SERVER = `
const MB = 1024 * 1024;
const tools = [
  {
    name: 'huge',
    title: 'T'.repeat(10_000),
    description: 'Reads a file. ' + 'x'.repeat(50 * MB),
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string', description: 'p'.repeat(100_000) } },
      required: ['path'],
    },
  },
  {
    name: 'wide',
    description: 'A schema of many properties.',
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => ['field_' + i, { type: 'string' }])),
    },
  },
  { name: 'plain', description: 'Says hello.', inputSchema: { type: 'object', properties: {} } },
];
let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let end;
  while ((end = buffer.indexOf('\\n')) >= 0) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (message.id === undefined) continue;
    const answer = (result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }) + '\\n');
    if (message.method === 'initialize') {
      answer({ protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '1.0.0' } });
    } else if (message.method === 'tools/list') {
      answer({ tools });
    } else if (message.method === 'tools/call') {
      answer({ content: [{ type: 'text', text: 'hello' }] });
    } else {
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'no ' + message.method } }) + '\\n');
    }
  }
});
`;

let dir: string;
let script: string;
let host: Host | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'airlock-definition-bounds-'));
  script = join(dir, 'hostile-server.mjs');
  await writeFile(script, HOSTILE_SERVER);
});
afterEach(async () => {
  await host?.close();
  host = undefined;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function hostileServer(extra: Record<string, unknown> = {}): ServerConfig {
  const [config] = parseServersConfig({
    mcpServers: { hostile: { command: process.execPath, args: [script], ...extra } },
  });
  return config as ServerConfig;
}

describe('tool definitions bounded at registration', () => {
  it('gives the model a bounded description that says it was cut, and the user a note of what was cut', async () => {
    const warnings: string[] = [];
    host = createHost({ servers: [hostileServer()], surface: new ScriptedSurface('allow_once') });
    host.on('server.warning', ({ message }) => warnings.push(message));
    await host.servers.settled();

    const model = host.tools.list({ audience: 'model' });
    expect(model.map((t) => t.name)).toEqual(['hostile__huge', 'hostile__plain']);
    const huge = model[0];
    expect(huge?.description?.length).toBe(DEFAULT_MAX_DEFINITION_CHARS);
    expect(huge?.description).toMatch(/^Reads a file\. x+/);
    expect(huge?.description).toMatch(/\[The host cut this description from 52428814 to 8000 characters of this tool/);
    expect(huge?.title?.length).toBe(256);
    const path = (huge?.inputSchema['properties'] as { path: { description: string } }).path;
    expect(path.description.length).toBe(DEFAULT_MAX_DEFINITION_CHARS / 8);
    // What the schema accepts is unchanged, and so is a call.
    expect(huge?.inputSchema['required']).toEqual(['path']);
    const call = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'user' },
      tool: 'hostile__huge',
      args: { path: 'a' },
    });
    expect(call.outcome).toBe('success');
    // The whole listing as a tab would get it stays small.
    expect(JSON.stringify(host.tools.list({ audience: 'user' })).length).toBeLessThan(50_000);

    const card = host.tools.list({ audience: 'user' }).find((t) => t.name === 'hostile__huge');
    expect(card?.definitionCut?.parts).toEqual([
      'description: 52428814 characters',
      'title: 10000 characters',
      'inputSchema: 1 description over 1000 characters',
    ]);
    expect(card?.definitionCut?.note).toMatch(/maxDefinitionChars on the server takes more/);
    expect(host.tools.list({ audience: 'user' }).find((t) => t.name === 'hostile__plain')?.definitionCut).toBe(
      undefined,
    );
    expect(warnings).toContainEqual(expect.stringMatching(/^server "hostile": tool "huge": Cut to this host's limits/));
    expect(warnings).toContainEqual(
      expect.stringMatching(/^server "hostile": tool "wide": left out, its schemas and _meta are \d+ characters/),
    );
  });

  it("takes a trusted server's longer definitions when its entry raises maxDefinitionChars", async () => {
    host = createHost({
      servers: [hostileServer({ trusted: true, maxDefinitionChars: 100_000 })],
      surface: new ScriptedSurface('allow_once'),
    });
    await host.servers.settled();
    const tools = host.tools.list({ audience: 'model' });
    expect(tools.map((t) => t.name)).toEqual(['hostile__huge', 'hostile__wide', 'hostile__plain']);
    expect(tools[0]?.description?.length).toBe(100_000);
    const path = (tools[0]?.inputSchema['properties'] as { path: { description: string } }).path;
    expect(path.description.length).toBe(12_500);
  });

  it('refuses a maxDefinitionChars that is not a whole number of 200 or more, naming it', () => {
    expect(() => hostileServer({ maxDefinitionChars: -1 })).toThrow(
      /maxDefinitionChars must be a whole number of characters, 200 or more/,
    );
  });

  it('leaves a definition within bounds as it is', () => {
    const definition = { name: 'ok', description: 'fine', inputSchema: { type: 'object' as const } };
    expect(boundDefinition(definition)).toEqual({ definition });
  });
});

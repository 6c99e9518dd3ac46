import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerLogLine, ToolSwitch } from '@airlock/core';
import { parseServersConfig } from '@airlock/core';
import { demoServers, startConsole } from '@airlock/console';
import type { ConsoleConfig, RunningConsole } from '@airlock/console';
import { ConsoleClient } from './testing/console-client.js';
import type { ApiAnswer, ConsoleEventStream } from './testing/console-client.js';

// The server panel's routes on the built console (`npm run build` first), signed in with tokens: "root" is an
// administrator (`"admin": true`), "ana" and "bia" are not. Real servers over stdio (the demo server and
// server-everything, which writes a line to stderr when it starts) and a real SQLite file.

const EVERYTHING_BIN = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let dir: string;
let running: RunningConsole;
let root: ConsoleClient;
let ana: ConsoleClient;
let bia: ConsoleClient;
const streams: ConsoleEventStream[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'airlock-console-server-panel-'));
  const config: ConsoleConfig = {
    source: 'server panel test',
    servers: [
      ...demoServers(),
      ...parseServersConfig({
        mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] } },
      }),
    ],
    rules: [],
    limits: {},
    storePath: join(dir, 'console.db'),
    host: '127.0.0.1',
    port: 0,
    auth: 'token',
    users: [
      { id: 'root', tokenSha256: sha256('root-token'), admin: true },
      { id: 'ana', tokenSha256: sha256('ana-token') },
      { id: 'bia', tokenSha256: sha256('bia-token') },
    ],
    retention: {},
  };
  running = await startConsole(config);
  await running.host.servers.settled();
  root = await ConsoleClient.signIn(running.url, { token: 'root-token' });
  ana = await ConsoleClient.signIn(running.url, { token: 'ana-token' });
  bia = await ConsoleClient.signIn(running.url, { token: 'bia-token' });
}, 60_000);

afterAll(async () => {
  await Promise.all(streams.map((s) => s.close()));
  await running?.close();
  await rm(dir, { recursive: true, force: true });
});

async function open(client: ConsoleClient): Promise<ConsoleEventStream> {
  const stream = await client.openEvents();
  streams.push(stream);
  return stream;
}

/** Asserts an error answer: its status and code, and that its message says `says`. */
function expectRefused(answer: ApiAnswer, status: number, code: string, says: RegExp): void {
  const error = (answer.body as { error: { code: string; message: string } }).error;
  expect({ status: answer.status, code: error.code }).toEqual({ status, code });
  expect(error.message).toMatch(says);
}

const modelTools = async (client: ConsoleClient): Promise<string[]> =>
  ((await client.get('/api/tools?audience=model')).body as { tool: { name: string } }[]).map((e) => e.tool.name);

describe('who is an administrator', () => {
  it('says so in the session and the snapshot, and shows command lines to administrators only', async () => {
    expect((await root.get('/api/session')).body).toMatchObject({ userId: 'root', admin: true });
    expect((await ana.get('/api/session')).body).toMatchObject({ userId: 'ana', admin: false });
    const servers = (client: ConsoleClient) =>
      client.get('/api/servers').then((a) => a.body as { id: string; origin?: string }[]);
    const asRoot = (await servers(root)).find((s) => s.id === 'everything');
    expect(asRoot?.origin).toContain(EVERYTHING_BIN);
    expect((await servers(ana)).every((s) => s.origin === undefined)).toBe(true);
    const stream = await open(ana);
    expect(stream.state['session']).toEqual({ userId: 'ana', workspaceId: 'default', admin: false });
    expect(JSON.stringify(stream.state['servers'])).not.toContain(EVERYTHING_BIN);
  });

  it('lists what each server says of itself and its counts', async () => {
    const servers = (await root.get('/api/servers')).body as Record<string, unknown>[];
    const everything = servers.find((s) => s['id'] === 'everything');
    expect(everything).toMatchObject({ state: 'ready', disabled: false, trusted: false });
    expect(everything?.['resourceCount']).toBeGreaterThan(0);
    expect(everything?.['promptCount']).toBeGreaterThan(0);
    expect(everything?.['protocolVersion']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe("a server's log", () => {
  it("gives an administrator server-everything's stderr, and only the lines after the one named", async () => {
    const answer = await root.get('/api/servers/everything/logs');
    expect(answer.status).toBe(200);
    const lines = answer.body as ServerLogLine[];
    expect(lines.some((l) => l.source === 'stderr' && l.text.includes('Starting default (STDIO) server'))).toBe(true);
    const last = lines.at(-1)!.seq;
    expect((await root.get(`/api/servers/everything/logs?after=${last}`)).body).toEqual([]);
  });

  it('refuses a user who is not an administrator with 403, saying why', async () => {
    expectRefused(await ana.get('/api/servers/everything/logs'), 403, 'admin_only', /administrators.*secrets/);
  });

  it('answers a bad line number with 400 naming after, and an unknown server with 404', async () => {
    for (const after of ['-1', 'x', '1.5']) {
      expectRefused(await root.get(`/api/servers/everything/logs?after=${after}`), 400, 'invalid_request', /^after /);
    }
    expectRefused(await root.get('/api/servers/nowhere/logs'), 404, 'server_not_found', /nowhere/);
  });

  it("sends each new line to administrators' tabs only", async () => {
    const rootTab = await open(root);
    const anaTab = await open(ana);
    // A tool of server-everything that writes to stderr is not needed: a restart of the server writes its banner.
    await running.host.servers.restart('everything');
    const event = await rootTab.waitFor(
      (e) => e.event === 'server.log' && JSON.stringify(e.data).includes('Starting default (STDIO) server'),
      'the banner line',
    );
    expect(event.data).toMatchObject({ serverId: 'everything', line: { source: 'stderr' } });
    // Ana's tab heard the same server come back, but no line of what it wrote.
    await anaTab.waitFor((e) => e.event === 'server.state' && JSON.stringify(e.data).includes('"ready"'), 'ready');
    expect(anaTab.events.filter((e) => e.event === 'server.log')).toEqual([]);
  });
});

describe('switching a server off and on', () => {
  it("is an administrator's: 403 for others, 400 naming enabled, 404 for an unknown server", async () => {
    expectRefused(await ana.post('/api/servers/demo/enabled', { enabled: false }), 403, 'admin_only', /every user/);
    expectRefused(await root.post('/api/servers/demo/enabled', { enabled: 'no' }), 400, 'invalid_request', /^enabled /);
    expectRefused(await root.post('/api/servers/demo/enabled', {}), 400, 'invalid_request', /^enabled /);
    expectRefused(
      await root.post('/api/servers/nowhere/enabled', { enabled: false }),
      404,
      'server_not_found',
      /nowhere/,
    );
    expect(await modelTools(ana)).toContain('demo__echo');
  });

  it("takes the server's tools from every list, and gives them back, audited", async () => {
    const off = await root.post('/api/servers/demo/enabled', { enabled: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ changed: true, server: { id: 'demo', disabled: true, state: 'closed' } });
    expect((await modelTools(ana)).some((name) => name.startsWith('demo__'))).toBe(false);
    const on = await root.post('/api/servers/demo/enabled', { enabled: true });
    expect(on.body).toMatchObject({ changed: true, server: { id: 'demo', disabled: false, state: 'ready' } });
    expect(await modelTools(ana)).toContain('demo__echo');
    const events = await running.host.audit.query({
      scope: { userId: 'root', workspaceId: '' },
      type: 'server.switched',
    });
    expect(events.map((e) => e.data)).toEqual([{ enabled: false }, { enabled: true }]);
  });
});

describe("a tool's switch", () => {
  it('hides a tool from the model for the user alone, and shows it again', async () => {
    const hide = await ana.post('/api/tool-switches', { tool: 'demo__echo', level: 'user', hidden: true });
    expect(hide.status).toBe(200);
    expect((hide.body as { switches: ToolSwitch[] }).switches).toEqual([
      expect.objectContaining({ serverId: 'demo', tool: 'echo', level: 'user', updatedBy: 'ana' }),
    ]);
    expect(await modelTools(ana)).not.toContain('demo__echo');
    expect(await modelTools(bia)).toContain('demo__echo');
    // The user still sees the tool (and may run it from the launcher).
    const userTools = (await ana.get('/api/tools?audience=user')).body as { tool: { name: string } }[];
    expect(userTools.map((e) => e.tool.name)).toContain('demo__echo');
    expect(((await ana.get('/api/tool-switches')).body as ToolSwitch[]).map((s) => s.tool)).toEqual(['echo']);
    await ana.post('/api/tool-switches', { tool: 'demo__echo', level: 'user', hidden: false });
    expect(await modelTools(ana)).toContain('demo__echo');
    expect((await ana.get('/api/tool-switches')).body).toEqual([]);
  });

  it('hides a tool for the whole workspace only for an administrator', async () => {
    expectRefused(
      await ana.post('/api/tool-switches', { tool: 'demo__echo', level: 'workspace', hidden: true }),
      403,
      'admin_only',
      /administrators.*every user/,
    );
    expect(await modelTools(bia)).toContain('demo__echo');
    await root.post('/api/tool-switches', { tool: 'demo__echo', level: 'workspace', hidden: true });
    expect(await modelTools(ana)).not.toContain('demo__echo');
    expect(await modelTools(bia)).not.toContain('demo__echo');
    expect((await bia.get('/api/tool-switches')).body).toEqual([
      expect.objectContaining({ tool: 'echo', level: 'workspace', updatedBy: 'root' }),
    ]);
    await root.post('/api/tool-switches', { tool: 'demo__echo', level: 'workspace', hidden: false });
    expect(await modelTools(bia)).toContain('demo__echo');
  });

  it('answers bad input with 400 naming the field, and an unknown tool with 404', async () => {
    const post = (body: unknown) => ana.post('/api/tool-switches', body);
    expectRefused(await post({ level: 'user', hidden: true }), 400, 'invalid_request', /^tool /);
    expectRefused(await post({ tool: 'demo__echo', level: 'team', hidden: true }), 400, 'invalid_request', /^level /);
    expectRefused(await post({ tool: 'demo__echo', hidden: 'yes' }), 400, 'invalid_request', /^hidden /);
    expect((await post({ tool: 'demo__nothing', hidden: true })).status).toBe(404);
  });
});

import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import { SCOPE } from '../testing/demo-fixture.js';
import { scratchDir } from '../testing/scratch-dir.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';

/**
 * The MCP project's filesystem server over stdio, confined to a temporary directory. It offers its files as tools
 * (read_text_file, list_directory, ...) and declares neither resources nor prompts: listings say so without error,
 * a read or a prompt is refused before anything is sent, and the files are read through its tools, on the one path.
 */
const BIN = resolve(process.cwd(), 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

let dir: string;
let host: Host;
const surface = new ScriptedSurface('allow_once');

beforeAll(async () => {
  dir = realpathSync(scratchDir('airlock-fs-'));
  writeFileSync(join(dir, 'notes.txt'), 'first line\nsecond line\n');
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', 'data.json'), '{"a":1}');
  host = createHost({
    servers: [
      {
        id: 'files',
        transport: 'stdio',
        command: process.execPath,
        args: [BIN, dir],
        env: {},
        trusted: false,
        disabled: false,
      },
    ],
    surface,
    limits: { connectTimeoutMs: 20_000 },
  });
  await host.servers.settled();
  expect(host.servers.list()[0]?.state).toBe('ready');
}, 30_000);
afterAll(async () => {
  await host.close();
});

describe('server-filesystem in a temporary directory', () => {
  it('offers no resources, templates or prompts, and listings say so without a failure', async () => {
    await expect(host.resources.list({ scope: SCOPE, serverId: 'files' })).resolves.toEqual({
      items: [],
      failures: [],
    });
    await expect(host.resources.templates({ scope: SCOPE })).resolves.toEqual({ items: [], failures: [] });
    await expect(host.prompts.list({ scope: SCOPE })).resolves.toEqual({ items: [], failures: [] });
  });

  it('refuses a resource read or a prompt before sending it, saying the server offers none', async () => {
    const uri = `file://${join(dir, 'notes.txt')}`;
    await expect(host.resources.read({ scope: SCOPE, serverId: 'files', uri })).rejects.toMatchObject({
      code: 'not_supported',
      message: `server "files" offers no resources (it declares no "resources" capability); the read of resource ${JSON.stringify(uri)} was not sent`,
    });
    await expect(host.prompts.get({ scope: SCOPE, serverId: 'files', name: 'x' })).rejects.toMatchObject({
      code: 'not_supported',
      message: expect.stringContaining('offers no prompts'),
    });
  });

  it('lists and reads its files through its tools, each call through the permission gate', async () => {
    const names = host.tools.list({ audience: 'model' }).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['files__read_text_file', 'files__list_directory']));
    const asked = surface.requests.length;
    const listed = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'files__list_directory',
      args: { path: dir },
    });
    expect(listed.outcome).toBe('success');
    expect(listed.text).toContain('[FILE] notes.txt');
    expect(listed.text).toContain('[DIR] sub');
    const read = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'files__read_text_file',
      args: { path: join(dir, 'notes.txt') },
    });
    expect(read.outcome).toBe('success');
    expect(read.text).toContain('first line\nsecond line');
    expect(surface.requests.length - asked).toBe(2);
  });

  it("gets the server's own refusal, as a tool error, for a file outside its directory", async () => {
    const outside = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'files__read_text_file',
      args: { path: '/etc/hostname' },
    });
    expect(outside.outcome).toBe('tool_error');
    expect(outside.text).toMatch(/Access denied|outside allowed directories/i);
  });
});

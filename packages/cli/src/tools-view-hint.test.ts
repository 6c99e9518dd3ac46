import { dirname, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '@airlock/core';
import type { Host } from '@airlock/core';
import { createStyle } from './cli-style.js';
import { listTools } from './list-commands.js';

const DEMO = resolve(dirname(fileURLToPath(import.meta.url)), '../../demo-server/dist/bin.js');

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe('airlock tools', () => {
  it('says which tools have an MCP Apps view, and where to see it', async () => {
    host = createHost({ servers: { mcpServers: { demo: { command: process.execPath, args: [DEMO] } } } });
    await host.servers.settled();
    const stdout = new PassThrough();
    let text = '';
    stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    listTools(host, 'user', 'demo', false, { stdout, stderr: new PassThrough(), style: createStyle(false) });
    const lines = text.split('\n');
    const dashboard = lines.findIndex((line) => line.includes('demo__show_dashboard'));
    expect(lines[dashboard + 1]).toBe('    has a view: call it in the console (airlock console) to see it');
    const echo = lines.findIndex((line) => line.includes('demo__echo '));
    expect(lines[echo + 1]).not.toContain('has a view');
  });
});

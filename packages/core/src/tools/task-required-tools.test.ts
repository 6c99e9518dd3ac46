import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool as McpToolDefinition } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { ServerConfig } from '../servers/server-config.js';
import { SCOPE, scriptServer } from '../testing/demo-fixture.js';
import { scratchDir } from '../testing/scratch-dir.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';
import type { Caller } from '../caller.js';
import { ToolRegistry } from './tool-registry.js';

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

/**
 * A 2025-11-25 server over stdio with two tools: `export`, which needs task augmentation (a plain call fails with the
 * server's own error, as servers that require tasks answer), and `ping`. Every tools/call it receives is appended to
 * the file named by its first argument.
 */
const SERVER = `
const { appendFileSync } = require('node:fs');
const log = process.argv[1];
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const tools = [
  { name: 'export', description: 'Exports everything, as a task.', inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true }, execution: { taskSupport: 'required' } },
  { name: 'ping', description: 'Answers pong.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true },
    execution: { taskSupport: 'optional' } },
];
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let at;
  while ((at = buffer.indexOf('\\n')) !== -1) {
    const m = JSON.parse(buffer.slice(0, at));
    buffer = buffer.slice(at + 1);
    if (m.method === 'initialize') send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25',
      capabilities: { tools: {} }, serverInfo: { name: 'tasks-only', version: '1.0.0' } } });
    else if (m.method === 'tools/list') send({ jsonrpc: '2.0', id: m.id, result: { tools } });
    else if (m.method === 'tools/call') {
      appendFileSync(log, m.params.name + '\\n');
      if (m.params.name === 'export' && m.params.task === undefined)
        send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: "Tool export requires task augmentation (taskSupport: 'required')" } });
      else send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'pong' }] } });
    } else if (m.id !== undefined) send({ jsonrpc: '2.0', id: m.id, result: {} });
  }
});
`;

function tasksServer(): { config: ServerConfig; calls: () => string[] } {
  const log = join(scratchDir('airlock-tasks-'), 'calls.txt');
  const base = scriptServer('jobs', SERVER);
  return {
    config: { ...base, args: ['-e', SERVER, log] } as ServerConfig,
    calls: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter((l) => l !== '')
        : [],
  };
}

const WHY = /needs task augmentation \(execution\.taskSupport "required"\), which its server does not offer this host/;

describe('tools that require task augmentation, on a server that offers no tasks', () => {
  it('are offered to neither the model nor apps, and listed for the user with why', async () => {
    const server = tasksServer();
    const warnings: string[] = [];
    host = createHost({ servers: [server.config], surface: new ScriptedSurface('allow_once') });
    host.on('server.warning', ({ message }) => warnings.push(message));
    await host.servers.settled();
    expect(host.tools.list({ audience: 'model' }).map((t) => t.name)).toEqual(['jobs__ping']);
    expect(host.tools.list({ audience: 'app', serverId: 'jobs' }).map((t) => t.name)).toEqual(['jobs__ping']);
    const user = host.tools.list({ audience: 'user' });
    expect(user.map((t) => t.name)).toEqual(['jobs__export', 'jobs__ping']);
    expect(user[0]?.unavailable).toEqual({ code: 'tasks_required', reason: expect.stringMatching(WHY) });
    expect(user[1]?.unavailable).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/server "jobs": tool "export": .*listed for the user only/)]);
    // Still explained and counted for the person looking at the server's tools.
    expect(host.permissions.explain({ scope: SCOPE, tool: 'jobs__export' }).decision).toBe('ask');
    expect(host.servers.list()[0]?.toolCount).toBe(2);
  });

  it.each<[string, Caller, string]>([
    // The user sees the tool, so is told it cannot be called; to the model and apps it is not offered at all.
    ['the user', { kind: 'user' }, 'tool_unavailable'],
    ['the model', { kind: 'model' }, 'tool_not_visible'],
    ['an app of the server', { kind: 'app', serverId: 'jobs' }, 'tool_not_visible'],
  ])('answers a call by %s with a clear outcome, asking no one and sending nothing', async (_who, caller, code) => {
    const server = tasksServer();
    const surface = new ScriptedSurface('allow_once');
    host = createHost({ servers: [server.config], surface });
    await host.servers.settled();
    const result = await host.invoke({ scope: SCOPE, caller, tool: 'jobs__export', args: {} });
    expect(result).toMatchObject({
      outcome: 'tool_not_found',
      isError: true,
      error: { code, message: expect.stringMatching(WHY) },
    });
    expect(result.text).toMatch(WHY);
    expect(result.text).not.toMatch(/-32601|requires task augmentation \(taskSupport/);
    expect(surface.requests).toEqual([]);
    expect(server.calls()).toEqual([]);
    // The server's other tool still works, through the one path.
    expect((await host.invoke({ scope: SCOPE, caller, tool: 'jobs__ping', args: {} })).outcome).toBe('success');
    expect(server.calls()).toEqual(['ping']);
  });
});

describe('ToolRegistry', () => {
  it('marks a tool whose taskSupport is required unavailable, and leaves optional and forbidden ones as they are', () => {
    const registry = new ToolRegistry();
    const caller = { callTool: () => Promise.reject(new Error('never called')) };
    const tool = (name: string, taskSupport?: 'required' | 'optional' | 'forbidden'): McpToolDefinition => ({
      name,
      inputSchema: { type: 'object' },
      ...(taskSupport === undefined ? {} : { execution: { taskSupport } }),
    });
    const warnings = registry.setServerTools('s', caller, [
      tool('a', 'required'),
      tool('b', 'optional'),
      tool('c', 'forbidden'),
      tool('d'),
    ]);
    expect(warnings).toHaveLength(1);
    expect(registry.list({ audience: 'model' }).map((t) => t.name)).toEqual(['s__b', 's__c', 's__d']);
    expect(registry.get('s__a')).toMatchObject({ visibility: ['user'], unavailable: { code: 'tasks_required' } });
    expect(() => registry.resolve('s__a', { kind: 'model' })).toThrow(WHY);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import { demoServer, SCOPE } from '../testing/demo-fixture.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';
import { ToolRegistry } from './tool-registry.js';

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe('tool visibility and namespacing across servers', () => {
  it('hides app-only tools from the model and limits apps to their own server', async () => {
    const warnings: string[] = [];
    // The deprecated forms (legacy_view, old_app_tool) are read with a warning; the demo serves them when asked.
    const a = demoServer('demo', { args: ['--legacy-forms'] });
    const b = demoServer('other');
    host = createHost({ servers: [a.config, b.config], surface: new ScriptedSurface('allow_once') });
    host.on('server.warning', ({ message }) => warnings.push(message));
    await host.servers.settled();

    const model = host.tools.list({ audience: 'model' }).map((t) => t.name);
    expect(model).toContain('demo__echo');
    expect(model).toContain('other__echo');
    expect(model).toContain('demo__show_dashboard');
    expect(model).toContain('demo__legacy_view');
    expect(model).not.toContain('demo__app_refresh');
    expect(model).not.toContain('demo__old_app_tool');

    const app = host.tools.list({ audience: 'app', serverId: 'demo' }).map((t) => t.name);
    expect(app).toContain('demo__app_refresh');
    expect(app).toContain('demo__old_app_tool');
    expect(app.every((name) => name.startsWith('demo__'))).toBe(true);

    expect(host.tools.list({ audience: 'user' }).map((t) => t.name)).toContain('demo__app_refresh');
    expect(warnings.some((w) => /old_app_tool.*"apps"/.test(w))).toBe(true);
    expect(warnings.some((w) => /legacy_view.*deprecated/.test(w))).toBe(true);
    expect(warnings.filter((w) => w.includes('"other"'))).toEqual([]);
    const legacy = host.tools.list({ audience: 'model' }).find((t) => t.name === 'demo__legacy_view');
    expect(legacy?.resourceUri).toBe('ui://demo/dashboard');

    expect(await host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'demo__app_refresh' })).toMatchObject({
      outcome: 'tool_not_found',
      error: { code: 'tool_not_visible', message: 'tool demo__app_refresh is not exposed to the model' },
    });
    expect(
      await host.invoke({ scope: SCOPE, caller: { kind: 'app', serverId: 'other' }, tool: 'demo__app_refresh' }),
    ).toMatchObject({
      outcome: 'tool_not_found',
      error: { code: 'tool_not_visible', message: expect.stringMatching(/only its own server/) },
    });
    const own = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'app', serverId: 'demo' },
      tool: 'demo__app_refresh',
    });
    expect(own.outcome).toBe('success');
  });

  it('refuses an app call to a model-only tool', () => {
    const registry = new ToolRegistry();
    const caller = { callTool: () => Promise.reject(new Error('never called')) };
    registry.setServerTools('s', caller, [
      { name: 'model_only', inputSchema: { type: 'object' }, _meta: { ui: { visibility: ['model'] } } },
    ]);
    expect(() => registry.resolve('s__model_only', { kind: 'app', serverId: 's' })).toThrow(/not callable from apps/);
    expect(registry.resolve('s__model_only', { kind: 'model' }).tool.name).toBe('s__model_only');
  });

  it('leaves out a tool with an invalid schema or name with a warning naming the server, keeping the others', () => {
    const registry = new ToolRegistry();
    const caller = { callTool: () => Promise.reject(new Error('never called')) };
    const warnings = registry.setServerTools('s', caller, [
      { name: 'good', inputSchema: { type: 'object' } },
      { name: 'bad_schema', inputSchema: { type: 'object', properties: { a: { type: 'no-such-type' } } } as never },
      {
        name: 'remote_ref',
        inputSchema: { type: 'object', properties: { a: { $ref: 'https://evil.example/s.json' } } } as never,
      },
      { name: 'has space', inputSchema: { type: 'object' } },
    ]);
    const names = registry.list({ audience: 'user' }).map((t) => t.name);
    expect(names).toHaveLength(2);
    expect(names[0]).toBe('s__good');
    expect(names[1]).toMatch(/^s__has_space_[0-9a-f]{8}$/);
    expect(warnings.find((w) => w.includes('"bad_schema"'))).toMatch(
      /^server "s": tool "bad_schema": left out, inputSchema is invalid/,
    );
    expect(warnings.find((w) => w.includes('"remote_ref"'))).toMatch(/left out/);
    expect(warnings.find((w) => w.includes('"has space"'))).toMatch(/name is outside/);
  });

  it('changes a tool definition hash when its description changes (list_changed)', async () => {
    const demo = demoServer();
    host = createHost({ servers: [demo.config], surface: new ScriptedSurface('allow_once') });
    await host.servers.settled();
    const before = host.tools.list({ audience: 'model' }).find((t) => t.name === 'demo__shape_shifter');
    const changed = new Promise<void>((resolve) => {
      const off = host!.on('tools.changed', () => {
        const now = host!.tools.list({ audience: 'model' }).find((t) => t.name === 'demo__shape_shifter');
        if (now?.definitionHash !== before?.definitionHash) {
          off();
          resolve();
        }
      });
    });
    await host.invoke({ scope: SCOPE, caller: { kind: 'user' }, tool: 'demo__change_definition' });
    await changed;
    const after = host.tools.list({ audience: 'model' }).find((t) => t.name === 'demo__shape_shifter');
    expect(after?.description).not.toBe(before?.description);
  });
});

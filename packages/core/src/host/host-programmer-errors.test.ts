import { describe, expect, it } from 'vitest';
import { createHost } from './create-host.js';
import type { Host } from './host.js';
import type { HostConfig } from './host-config.js';
import type { InvokeOptions } from '../invocations/invoke-options.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { demoServer, SCOPE } from '../testing/demo-fixture.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';

// What a developer meets when they hold the host wrong: a HostError with a code and what to do, a tool_not_found that
// points at the server that failed, and a host that closes itself at the end of an `await using` block.

function hostWith(servers: HostConfig['servers']): Host {
  return createHost({ servers, surface: new ScriptedSurface('allow_once'), store: new MemoryStore() });
}

describe('the host, held wrong', () => {
  it('refuses invoke without a caller with a HostError that shows the callers it takes', async () => {
    await using host = hostWith([]);
    const call = { scope: SCOPE, tool: 'demo__echo', args: {} } as unknown as InvokeOptions;
    await expect(host.invoke(call)).rejects.toMatchObject({
      name: 'HostError',
      code: 'invalid_options',
      message: expect.stringContaining("invoke needs a caller: { kind: 'model' } for the model's tool calls") as string,
    });
    const robot = { ...call, caller: { kind: 'robot' } } as unknown as InvokeOptions;
    await expect(host.invoke(robot)).rejects.toMatchObject({
      code: 'invalid_options',
      message: expect.stringContaining('caller.kind "robot" is none of model, user or app') as string,
    });
  });

  it("names the failed server when a call's tool is missing because its server did not start", async () => {
    await using host = hostWith({ mcpServers: { broken: { command: '/no/such/server-binary' } } });
    await host.servers.settled();
    const result = await host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'broken__lookup', args: {} });
    expect(result.outcome).toBe('tool_not_found');
    expect(result.error?.message).toMatch(/^unknown tool broken__lookup: server "broken" is failed/);
  });

  it('says only "unknown tool" when the named server is ready and simply has no such tool', async () => {
    await using host = hostWith([demoServer().config]);
    await host.servers.settled();
    const result = await host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'demo__nope', args: {} });
    expect(result.error?.message).toBe('unknown tool demo__nope');
  });

  it('closes at the end of an await using block', async () => {
    let kept: Host | undefined;
    {
      await using host = hostWith([demoServer().config]);
      await host.servers.settled();
      kept = host;
    }
    await expect(
      kept.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'demo__echo', args: { text: 'x' } }),
    ).rejects.toMatchObject({ code: 'closed' });
  });
});

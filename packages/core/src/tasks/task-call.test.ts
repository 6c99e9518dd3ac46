import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { ToolProgress } from '../tools/tool.js';
import { SCOPE } from '../testing/demo-fixture.js';
import { FakeClock } from '../testing/fake-clock.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';
import type { ServerConfig } from '../servers/server-config.js';

// Tools that run as tasks (2025-11-25), through the one path, against server-everything over stdio: its
// simulate-research-query requires task augmentation, reports a status message per stage, and asks the user for a
// clarification while input_required when the topic is ambiguous. Its stages take one second each on the server's
// own clock, so each run here takes about four seconds.

const EVERYTHING: ServerConfig = {
  id: 'everything',
  transport: 'stdio',
  command: process.execPath,
  args: [resolve(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  env: {},
  trusted: false,
  disabled: false,
};

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

function research(h: Host, args: Record<string, unknown>, signal?: AbortSignal) {
  return h.invoke({
    scope: SCOPE,
    caller: { kind: 'model' },
    tool: 'everything__simulate-research-query',
    args,
    ...(signal === undefined ? {} : { signal }),
  });
}

describe('tools that run as tasks', () => {
  it("offers a task tool to the model and runs it to completion, the server's status messages as progress", async () => {
    host = createHost({ servers: [EVERYTHING], surface: new ScriptedSurface('allow_once') });
    await host.servers.settled();
    expect(host.tools.list({ audience: 'model' }).map((t) => t.name)).toContain('everything__simulate-research-query');
    const progress: ToolProgress[] = [];
    host.on('invocation.progress', (event) => progress.push(event.progress));
    const result = await research(host, { topic: 'tide pools' });
    expect(result.outcome).toBe('success');
    expect(result.text).toContain('Research Report: tide pools');
    // The server's words, without the protocol's status in front of them ("working: …").
    expect(progress.map((p) => p.message)).toContain('Gathering sources...');
    expect(progress.some((p) => /^(working|input_required):/.test(p.message ?? ''))).toBe(false);
    expect(progress.length).toBeGreaterThanOrEqual(2);
  });

  it('answers the question a task asks while input_required, through the surface', async () => {
    host = createHost({
      servers: [EVERYTHING],
      surface: new ScriptedSurface({
        permissions: ['allow_once'],
        elicitations: [{ action: 'accept', content: { interpretation: 'snake' } }],
      }),
    });
    await host.servers.settled();
    const result = await research(host, { topic: 'python', ambiguous: true });
    expect(result.outcome).toBe('success');
    expect(result.text).toContain('Clarification**: snake');
  });

  it.each([
    ['runs past the plain ceiling under its own (hours by default)', {}, 'success'],
    ['ends at its own ceiling, limits.taskMaxTotalMs', { taskMaxTotalMs: 2_000 }, 'timeout'],
  ] as const)('%s', async (_what, limits, outcome) => {
    const clock = new FakeClock();
    host = createHost({
      servers: [EVERYTHING],
      surface: new ScriptedSurface('allow_once'),
      clock,
      limits: { maxTotalMs: 1_000, ...limits },
    });
    await host.servers.settled();
    // Past the plain ceiling on the host's clock as soon as the task reports its first status.
    const off = host.on('invocation.progress', () => clock.advance(5_000));
    const result = await research(host, { topic: 'tide pools' });
    off();
    expect(result.outcome).toBe(outcome);
  });

  it('cancels the task when the call is cancelled', async () => {
    host = createHost({ servers: [EVERYTHING], surface: new ScriptedSurface('allow_once') });
    await host.servers.settled();
    const controller = new AbortController();
    const off = host.on('invocation.progress', () => controller.abort());
    const result = await research(host, { topic: 'tide pools' }, controller.signal);
    off();
    expect(result.outcome).toBe('cancelled');
  });
});

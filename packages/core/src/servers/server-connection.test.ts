import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import { demoServer, nextEvent, scriptServer, SCOPE, startHttpDemo } from '../testing/demo-fixture.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';
import { FakeClock } from '../testing/fake-clock.js';
import { toolTarget } from '../tools/tool.js';

let host: Host | undefined;
const stops: (() => void)[] = [];
afterEach(async () => {
  await host?.close();
  host = undefined;
  for (const stop of stops.splice(0)) stop();
});

const fast = { connectTimeoutMs: 3_000, reconnectBaseDelayMs: 50 };

describe('server connections', () => {
  it('keeps every other server working when one is missing, exits at once, prints garbage or never answers', async () => {
    const demo = demoServer();
    // The connect timeout is on the host's clock: it passes once the servers that fail or connect on their own have.
    const clock = new FakeClock();
    host = createHost({
      clock,
      servers: [
        demo.config,
        {
          id: 'missing',
          transport: 'stdio',
          command: '/no/such/airlock-server',
          args: [],
          env: {},
          trusted: false,
          disabled: false,
        },
        scriptServer('quits', 'process.stderr.write("bad config file\\n"); process.exit(3)'),
        scriptServer('garbage', 'process.stdout.write("this is not json\\n{oops\\n"); setInterval(() => {}, 1000)'),
        scriptServer('silent', 'setInterval(() => {}, 1000)'),
      ],
      surface: new ScriptedSurface('allow_once'),
      limits: fast,
    });
    const state = (id: string, to: string) =>
      nextEvent(host!, 'server.state', (e) => e.serverId === id && e.state === to);
    // By the time the demo server has started, answered and listed its tools, the two script servers started beside it
    // are printing garbage or saying nothing.
    await Promise.all([state('demo', 'ready'), state('missing', 'failed'), state('quits', 'failed')]);
    clock.advance(fast.connectTimeoutMs);
    await host.servers.settled();
    const byId = Object.fromEntries(host.servers.list().map((s) => [s.id, s]));
    expect(byId['demo']?.state).toBe('ready');
    expect(byId['missing']).toMatchObject({ state: 'failed', error: expect.stringMatching(/^server "missing"/) });
    expect(byId['quits']).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/server "quits".*bad config file/),
    });
    expect(byId['garbage']).toMatchObject({ state: 'failed', error: expect.stringMatching(/server "garbage"/) });
    expect(byId['silent']).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/server "silent" did not answer within 3000 ms/),
    });
    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'demo__echo',
      args: { text: 'ok' },
    });
    expect(result.outcome).toBe('success');
  });

  it('fails a call at once with transport_error when the server dies mid-call, then reconnects', async () => {
    const demo = demoServer();
    const clock = new FakeClock();
    host = createHost({ servers: [demo.config], surface: new ScriptedSurface('allow_once'), limits: fast, clock });
    await host.servers.settled();
    const degraded = nextEvent(host, 'server.state', (e) => e.state === 'degraded');
    const back = nextEvent(host, 'server.state', (e) => e.state === 'ready');
    const result = await host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'demo__crash' });
    expect(result.outcome).toBe('transport_error');
    expect(result.text).toMatch(/server "demo"/);
    expect((await degraded).error).toMatch(/closed the connection/);
    // The reconnect waits out its backoff on the host's clock.
    clock.advance(fast.reconnectBaseDelayMs);
    await back;
    const again = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'demo__echo',
      args: { text: 'back' },
    });
    expect(again.outcome).toBe('success');
  });

  it('lists every page of tools from a paginating server', async () => {
    const paged = demoServer('paged', { args: ['--page-size', '3'] });
    const whole = demoServer('whole');
    host = createHost({ servers: [paged.config, whole.config] });
    await host.servers.settled();
    const names = (id: string) =>
      host!.tools
        .list({ audience: 'user' })
        .filter((t) => toolTarget(t).serverId === id)
        .map((t) => toolTarget(t).originalName)
        .sort();
    expect(names('paged').length).toBeGreaterThan(3);
    expect(names('paged')).toEqual(names('whole'));
  });

  it('speaks the 2026-07-28 era when negotiation is auto', async () => {
    const demo = demoServer('modern', { negotiation: 'auto' });
    host = createHost({ servers: [demo.config], surface: new ScriptedSurface('allow_once') });
    await host.servers.settled();
    expect(host.servers.list()[0]?.protocolVersion).toBe('2026-07-28');
    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'modern__echo',
      args: { text: 'new era' },
    });
    expect(result.outcome).toBe('success');
    expect(result.text.endsWith('new era')).toBe(true);
  });

  it('calls a server over Streamable HTTP', async () => {
    const demo = demoServer();
    const http = await startHttpDemo(demo.log);
    stops.push(http.stop);
    host = createHost({
      servers: { mcpServers: { web: { url: http.url } } },
      surface: new ScriptedSurface('allow_once'),
    });
    await host.servers.settled();
    expect(host.servers.list()[0]).toMatchObject({ state: 'ready', transport: 'http' });
    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'web__echo',
      args: { text: 'over http' },
    });
    expect(result.outcome).toBe('success');
    expect(result.text.endsWith('over http')).toBe(true);
  });
});

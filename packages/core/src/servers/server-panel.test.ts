import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { ServerConfig } from './server-config.js';
import { demoServer, nextEvent, SCOPE, scriptServer } from '../testing/demo-fixture.js';
import { FakeClock } from '../testing/fake-clock.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';
import { neutraliseControls, ServerLog } from './server-log.js';

/** The reference server of the MCP project: it writes a banner to stderr and sends log notifications on request. */
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

describe('the server panel of a working server (server-everything over stdio)', () => {
  it('tells its protocol version, capabilities, counts, stderr and the log notifications it sends', async () => {
    host = createHost({ servers: [EVERYTHING], surface: new ScriptedSurface('allow_once') });
    // Servers start once the host has read its switches: listening now misses no line.
    const banner = nextEvent(host, 'server.log', (e) => e.line.source === 'stderr');
    await host.servers.settled();
    const [info] = host.servers.list({ scope: SCOPE });
    expect(info).toMatchObject({ id: 'everything', state: 'ready', disabled: false, trusted: false });
    expect(info?.protocolVersion).toBe('2025-11-25');
    expect(info?.about?.capabilities).toEqual(expect.arrayContaining(['tools', 'resources', 'prompts', 'logging']));
    expect(info?.toolCount).toBeGreaterThan(5);
    // Counted after it became ready, every page.
    await expect.poll(() => host!.servers.list()[0]?.resourceCount ?? 0).toBeGreaterThan(0);
    expect(host.servers.list()[0]?.promptCount).toBeGreaterThan(0);
    expect((await banner).line.text).toBe('Starting default (STDIO) server...');
    expect(host.servers.logs('everything')[0]).toMatchObject({ source: 'stderr', seq: 1 });
    // The tool that starts its simulated logging sends one notification at once.
    const logged = nextEvent(host, 'server.log', (e) => e.serverId === 'everything' && e.line.source === 'log');
    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'user' },
      tool: 'everything__toggle-simulated-logging',
      args: {},
    });
    expect(result.outcome).toBe('success');
    const line = (await logged).line;
    expect(line.level).toMatch(/^(debug|info|notice|warning|error|critical|alert|emergency)$/);
    expect(line.text).toMatch(/-level message|level-message/);
    expect(host.servers.logs('everything', { after: line.seq - 1 })[0]).toEqual(line);
  }, 30_000);
});

describe('the server panel of a server that is down', () => {
  it('says a server that cannot start failed, with its error, no retry time, and its stderr neutralised', async () => {
    const broken = scriptServer(
      'broken',
      "process.stderr.write('token=s3cret \\x1b[2J<b>oops</b>\\nsecond line'); process.exit(3)",
    );
    host = createHost({ servers: [broken], surface: new ScriptedSurface('allow_once') });
    const last = nextEvent(host, 'server.log', (e) => e.line.text === 'second line');
    await host.servers.settled();
    const [info] = host.servers.list();
    expect(info?.state).toBe('failed');
    expect(info?.error).toContain('broken');
    expect(info?.retryAt).toBeUndefined();
    await last;
    expect(host.servers.logs('broken').map((l) => l.text)).toEqual(['token=s3cret \\x1b[2J<b>oops</b>', 'second line']);
  });

  it('says when a lost server will try again, on the host clock', async () => {
    const demo = demoServer('demo');
    const clock = new FakeClock();
    const limits = { connectTimeoutMs: 10_000, reconnectBaseDelayMs: 4_000 };
    host = createHost({ servers: [demo.config], surface: new ScriptedSurface('allow_once'), clock, limits });
    await host.servers.settled();
    const degraded = nextEvent(host, 'server.state', (e) => e.state === 'degraded');
    await host.invoke({ scope: SCOPE, caller: { kind: 'user' }, tool: 'demo__crash', args: {} });
    await degraded;
    const info = host.servers.list()[0];
    expect(info?.state).toBe('degraded');
    expect(info?.retryAt).toBe(clock.now() + 4_000);
    const back = nextEvent(host, 'server.state', (e) => e.state === 'ready');
    clock.advance(4_000);
    await back;
    expect(host.servers.list()[0]?.retryAt).toBeUndefined();
  }, 30_000);
});

describe('ServerLog', () => {
  it('shows control characters and bidirectional overrides as their codes, keeping tabs', () => {
    expect(neutraliseControls('a\tb\x1b[31mred\u202egnp.exe\x00')).toBe('a\tb\\x1b[31mred\\u202egnp.exe\\x00');
  });

  it('keeps the newest lines within its line and character bounds', () => {
    const log = new ServerLog({ now: () => 5, limits: { maxLines: 3, maxChars: 10 } });
    for (const text of ['one', 'two', 'three', 'four']) log.add({ source: 'stderr', text });
    expect(log.lines().map((l) => l.text)).toEqual(['three', 'four']);
    expect(log.lines().map((l) => l.seq)).toEqual([3, 4]);
    log.add({ source: 'log', level: 'info', text: 'x'.repeat(5_000) });
    const [last] = log.lines();
    expect(last?.text).toBe(`${'x'.repeat(4_000)}… (1000 more characters)`);
    expect(log.lines()).toHaveLength(1);
  });
});

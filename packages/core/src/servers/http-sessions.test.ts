import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import { DEMO_BIN, demoServer, nextEvent, readCallLog, SCOPE } from '../testing/demo-fixture.js';
import { FakeClock } from '../testing/fake-clock.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';
import { ServerConnection } from './server-connection.js';

interface HttpDemo {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** The built demo over HTTP on `port` (0: any), as its own process, so a test can stop and restart it. */
async function httpDemo(log: string, options: { port?: number; args?: string[] } = {}): Promise<HttpDemo> {
  const child = spawn(
    process.execPath,
    [DEMO_BIN, '--http', '--port', String(options.port ?? 0), ...(options.args ?? [])],
    { env: { ...process.env, AIRLOCK_DEMO_CALL_LOG: log }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stderr.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const match = /listening (http:\/\/\S+)/.exec(buffer);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    void exited.then(() => reject(new Error(`demo server exited: ${buffer}`)));
  });
  const demo = {
    url,
    port: Number(new URL(url).port),
    stop: async () => {
      child.kill();
      await exited;
    },
  };
  running.push(demo);
  return demo;
}

let host: Host | undefined;
const running: HttpDemo[] = [];
afterEach(async () => {
  await host?.close();
  host = undefined;
  await Promise.all(running.splice(0).map((demo) => demo.stop()));
});

const fast = { connectTimeoutMs: 10_000, reconnectBaseDelayMs: 50 };

function call(tool: string, text: string) {
  return host!.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool, args: { text } });
}

function echoes(log: string): number {
  return readCallLog(log).filter((line) => line.event === 'call' && line.tool === 'echo').length;
}

describe('Streamable HTTP sessions', () => {
  it('starts a new session when the restarted server answers 404, and retries the call once', async () => {
    const { log } = demoServer();
    let server = await httpDemo(log);
    const clock = new FakeClock();
    host = createHost({
      servers: { mcpServers: { web: { url: server.url } } },
      surface: new ScriptedSurface('allow_once'),
      limits: fast,
      clock,
    });
    await host.servers.settled();
    expect((await call('web__echo', 'before')).outcome).toBe('success');
    await server.stop();
    server = await httpDemo(log, { port: server.port });
    const states: { state: string; error?: string }[] = [];
    host.on('server.state', (e) =>
      states.push({ state: e.state, ...(e.error === undefined ? {} : { error: e.error }) }),
    );
    const after = await call('web__echo', 'after the restart');
    expect(after.outcome).toBe('success');
    expect(after.text.endsWith('after the restart')).toBe(true);
    expect(states).toEqual([
      { state: 'connecting', error: 'server "web" no longer knows the session (HTTP 404): starting a new one' },
      { state: 'ready' },
    ]);
    // The 404 never reached the tool: the tool ran once for each call.
    expect(echoes(log)).toBe(2);
  });

  it('does not resend a call whose tool the restarted server no longer serves as it was', async () => {
    const { log } = demoServer();
    let server = await httpDemo(log, { args: ['--legacy-forms'] });
    host = createHost({
      servers: { mcpServers: { web: { url: server.url } } },
      surface: new ScriptedSurface('allow_once'),
      limits: fast,
      clock: new FakeClock(),
    });
    await host.servers.settled();
    expect((await call('web__echo', 'before')).outcome).toBe('success');
    await server.stop();
    // Restarted without the legacy tools: the session is new, and legacy_view is gone.
    server = await httpDemo(log, { port: server.port });
    const result = await host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'web__legacy_view', args: {} });
    expect(result.outcome).toBe('transport_error');
    expect(result.text).toMatch(
      /server "web" restarted, and its tool legacy_view is no longer the one this call was for/,
    );
    expect(readCallLog(log).filter((line) => line.tool === 'legacy_view')).toEqual([]);
  });

  it('marks a server that went down degraded, and reconnects with backoff on the host clock', async () => {
    const { log } = demoServer();
    let server = await httpDemo(log);
    const clock = new FakeClock();
    host = createHost({
      servers: { mcpServers: { web: { url: server.url } } },
      surface: new ScriptedSurface('allow_once'),
      limits: fast,
      clock,
    });
    await host.servers.settled();
    await server.stop();
    const degraded = nextEvent(host, 'server.state', (e) => e.state === 'degraded');
    const down = await call('web__echo', 'nobody home');
    expect(down.outcome).toBe('transport_error');
    expect(down.error?.code).toBe('server_unreachable');
    expect(down.text).toMatch(/server "web" could not be reached: .*ECONNREFUSED/);
    expect((await degraded).error).toMatch(/server "web" could not be reached/);
    server = await httpDemo(log, { port: server.port });
    // Until the backoff passes on the host's clock, nothing reconnects and calls fail fast.
    expect((await call('web__echo', 'too soon')).error?.code).toBe('server_unavailable');
    const back = nextEvent(host, 'server.state', (e) => e.state === 'ready');
    clock.advance(fast.reconnectBaseDelayMs);
    await back;
    expect((await call('web__echo', 'back')).outcome).toBe('success');
  });

  it('ends the session with DELETE on close', async () => {
    const { log } = demoServer();
    const server = await httpDemo(log);
    const connection = new ServerConnection({
      config: { id: 'web', transport: 'http', url: server.url, headers: {}, trusted: false, disabled: false },
      clock: new FakeClock(),
      listener: { state: () => undefined, tools: () => undefined, warning: () => undefined },
    });
    await connection.start();
    const session = connection.sessionId;
    expect(session).toMatch(/\S/);
    const ping = () =>
      fetch(server.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': session!,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
    expect((await ping()).status).toBe(200);
    await connection.close();
    expect((await ping()).status).toBe(404);
  });
});

describe('a remote server that answers HTTP 401', () => {
  it('says HTTP 401 and what WWW-Authenticate asked for, marks the server needs_auth, and refuses its calls auth_required', async () => {
    const { log } = demoServer();
    const server = await httpDemo(log, { args: ['--bearer-token', 'right-token'] });
    host = createHost({
      servers: {
        mcpServers: {
          locked: { url: server.url },
          open: { url: server.url, headers: { Authorization: 'Bearer right-token' } },
        },
      },
      surface: new ScriptedSurface('allow_once'),
      limits: fast,
      clock: new FakeClock(),
    });
    await host.servers.settled();
    const locked = host.servers.list().find((s) => s.id === 'locked');
    expect(locked?.state).toBe('needs_auth');
    expect(locked?.error).toMatch(
      /^server "locked" answered HTTP 401 Unauthorized: it needs sign-in \(WWW-Authenticate: Bearer error="invalid_token".*resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
    expect(locked?.error).not.toContain('Error POSTing');
    // It answered 401 from the start, so it lists no tools: the call says sign-in is needed, not "unknown tool".
    const refused = await call('locked__echo', 'let me in');
    expect(refused.outcome).toBe('auth_required');
    expect(refused.error?.code).toBe('needs_auth');
    expect(refused.text).toMatch(/server "locked" is needs_auth \(server "locked" answered HTTP 401 Unauthorized/);
    expect((await call('open__echo', 'in')).outcome).toBe('success');
  });

  it('moves a ready server to needs_auth when its token stops working mid-session', async () => {
    const { log } = demoServer();
    let server = await httpDemo(log, { args: ['--bearer-token', 'first'] });
    host = createHost({
      servers: { mcpServers: { web: { url: server.url, headers: { Authorization: 'Bearer first' } } } },
      surface: new ScriptedSurface('allow_once'),
      limits: fast,
      clock: new FakeClock(),
    });
    await host.servers.settled();
    await server.stop();
    server = await httpDemo(log, { port: server.port, args: ['--bearer-token', 'rotated'] });
    const needsAuth = nextEvent(host, 'server.state', (e) => e.state === 'needs_auth');
    const result = await call('web__echo', 'hello');
    expect(result.outcome).toBe('auth_required');
    expect(result.error?.code).toBe('needs_auth');
    expect(result.text).toMatch(
      /server "web" answered HTTP 401 Unauthorized: it needs sign-in \(WWW-Authenticate: Bearer/,
    );
    expect((await needsAuth).error).toMatch(/HTTP 401/);
    expect(host.servers.list()[0]?.state).toBe('needs_auth');
  });
});

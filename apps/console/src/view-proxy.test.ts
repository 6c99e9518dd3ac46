import { createServer } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConsoleConfig, startConsole } from '@airlock/console';
import type { RunningConsole } from '@airlock/console';
import { ConsoleClient, rawConsoleRequest } from './testing/console-client.js';

// The console's MCP Apps sandbox proxy as pages reach it: the URL the page is given (from the console's publicUrl
// and viewProxyUrl when configured, never from a Host header then), the port it listens on (console.viewProxyPort),
// and who may frame it (frame-ancestors: the console's own origin only).

let dir: string;
const consoles: RunningConsole[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'airlock-view-proxy-'));
});
afterAll(async () => {
  for (const running of consoles) await running.close();
  await rm(dir, { recursive: true, force: true });
});

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A console (the demo server) from a config file with these `console` keys, on a free port. */
async function consoleWith(keys: Record<string, unknown>): Promise<RunningConsole> {
  const path = join(dir, `airlock-${consoles.length}.config.json`);
  await writeFile(path, JSON.stringify({ console: { port: 0, ...keys } }));
  const running = await startConsole(loadConsoleConfig({ config: path, store: ':memory:' }, {}));
  consoles.push(running);
  await running.host.servers.settled();
  return running;
}

/** The view of the demo dashboard as the console tells a page of `host` (its Host header) where its proxy is. */
async function proxyUrlFor(running: RunningConsole, host?: string): Promise<string> {
  const client = await ConsoleClient.signIn(running.url, { userId: 'ana' });
  const answer = await rawConsoleRequest(running.url, {
    method: 'GET',
    path: '/api/app-views/demo__show_dashboard',
    headers: { cookie: client.cookie, ...(host === undefined ? {} : { host }) },
  });
  expect(answer.status).toBe(200);
  return (answer.body as { proxyUrl: string }).proxyUrl;
}

/** The proxy page at `port` for a parent `parent` (raw: any parent, or none). */
async function proxyPage(port: number, parent?: string) {
  const query = parent === undefined ? '' : `?parent=${encodeURIComponent(parent)}`;
  const response = await fetch(`http://127.0.0.1:${port}/sandbox${query}`);
  return {
    status: response.status,
    ancestors: response.headers.get('content-security-policy'),
    body: await response.text(),
  };
}

describe("a console's view sandbox proxy on loopback, with no publicUrl", () => {
  let running: RunningConsole;
  let origin: string;
  let proxyPort: number;

  beforeAll(async () => {
    running = await consoleWith({});
    origin = new URL(running.url).origin;
    const url = new URL(await proxyUrlFor(running));
    proxyPort = Number(url.port);
  }, 30_000);

  it("names the page's own host name with the proxy's port, and the page's origin as the parent", async () => {
    const url = await proxyUrlFor(running);
    expect(url).toBe(`http://127.0.0.1:${proxyPort}/sandbox?parent=${encodeURIComponent(origin)}`);
    expect(proxyPort).not.toBe(Number(new URL(running.url).port));
    const port = new URL(running.url).port;
    expect(await proxyUrlFor(running, `localhost:${port}`)).toBe(
      `http://localhost:${proxyPort}/sandbox?parent=${encodeURIComponent(`http://localhost:${port}`)}`,
    );
  });

  it('is framed by the console only: frame-ancestors its origin, and any other parent refused', async () => {
    const own = await proxyPage(proxyPort, origin);
    expect(own.status).toBe(200);
    expect(own.ancestors).toBe(`frame-ancestors ${origin}`);
    // The page takes messages from that origin only, and sends only to it.
    expect(own.body).toContain(`const PARENT = ${JSON.stringify(origin)};`);
    expect(own.body).not.toMatch(/window\.parent\.postMessage\([^;]*'\*'\)/);
    expect(own.body.match(/window\.parent\.postMessage\(/g)).toHaveLength(3);
    const localhost = await proxyPage(proxyPort, `http://localhost:${new URL(running.url).port}`);
    expect(localhost.status).toBe(200);
    for (const parent of ['https://evil.example', 'http://127.0.0.1:1', `${origin}/path`]) {
      const other = await proxyPage(proxyPort, parent);
      expect(other.status, parent).toBe(parent.endsWith('/path') ? 400 : 403);
      expect(other.body).not.toContain('<script>');
    }
    expect((await proxyPage(proxyPort)).status).toBe(400);
  });

  it("lets the page frame the proxy's origin and nothing else", async () => {
    const response = await fetch(running.url);
    const policy = response.headers.get('content-security-policy')?.split('; ');
    expect(policy).toContain(`frame-src http://127.0.0.1:${proxyPort}`);
  });
});

describe('a console behind a TLS proxy (publicUrl, viewProxyUrl, viewProxyPort)', () => {
  it("gives pages the configured proxy address whatever the Host header, and only publicUrl's origin may frame it", async () => {
    const viewProxyPort = await freePort();
    const running = await consoleWith({
      publicUrl: 'https://airlock.example.com',
      viewProxyUrl: 'https://views.airlock.example.com',
      viewProxyPort,
    });
    const expected = `https://views.airlock.example.com/sandbox?parent=${encodeURIComponent('https://airlock.example.com')}`;
    expect(await proxyUrlFor(running)).toBe(expected);
    expect(await proxyUrlFor(running, `localhost:${new URL(running.url).port}`)).toBe(expected);
    const page = await fetch(running.url);
    expect(page.headers.get('content-security-policy')?.split('; ')).toContain(
      'frame-src https://views.airlock.example.com',
    );
    // It listens on the configured port, framed by the public origin alone.
    const framed = await proxyPage(viewProxyPort, 'https://airlock.example.com');
    expect(framed).toMatchObject({ status: 200, ancestors: 'frame-ancestors https://airlock.example.com' });
    expect((await proxyPage(viewProxyPort, new URL(running.url).origin)).status).toBe(403);
  });

  it("without viewProxyUrl, names publicUrl's host name with the proxy's port", async () => {
    const viewProxyPort = await freePort();
    const running = await consoleWith({ publicUrl: 'https://airlock.example.com/', viewProxyPort });
    expect(await proxyUrlFor(running, `localhost:${new URL(running.url).port}`)).toBe(
      `https://airlock.example.com:${viewProxyPort}/sandbox?parent=${encodeURIComponent('https://airlock.example.com')}`,
    );
  });
});

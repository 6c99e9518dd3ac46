import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import { createHost, MemoryStore } from '@airlock/core';
import type { Host, Scope } from '@airlock/core';
import { createWebKit } from '@airlock/web-kit';
import type { KitServer } from '@airlock/web-kit';
import { Hono } from 'hono';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../packages/elements/src/testing/browser.js';

// The kit's browser part in Chromium over a server on the kit with the app's own sessions (a cookie) and events: the
// page takes the app's events, and when its session ends it is told so and does not come back.

const ANA: Scope = { userId: 'ana', workspaceId: 'w1', conversationId: 'c1' };
const kitBrowser = dirname(fileURLToPath(import.meta.resolve('@airlock/web-kit/browser')));

const PAGE = `<!doctype html><html><body><section id="cards"></section><ul id="lines"></ul><p id="ended"></p>
<script>
  // Counts the streams the page closes: a stream left open after the session ends would reconnect and be refused.
  window.closedStreams = 0;
  window.EventSource = class extends EventSource {
    close() {
      window.closedStreams += 1;
      super.close();
    }
  };
</script>
<script type="module">
  import { connectAirlock } from '/kit/index.js';
  connectAirlock({
    url: '/airlock',
    cards: document.querySelector('#cards'),
    events: {
      'chat.line': (line) => {
        const item = document.createElement('li');
        item.textContent = line.text;
        document.querySelector('#lines').append(item);
      },
    },
    onSessionEnded: () => (document.querySelector('#ended').textContent = 'signed out'),
  }).ready.then(() => document.body.setAttribute('data-ready', ''));
</script></body></html>`;

let host: Host;
let kit: KitServer<{ 'chat.line': { text: string } }>;
let http: ServerType;
let browser: Browser;
let page: Page;
const live = new Set(['s1']);
const ended = new Set<(id: string) => void>();
/** What the page threw, checked at the end. */
const pageErrors: string[] = [];
let origin: string;

beforeAll(async () => {
  const webKit = createWebKit<{ 'chat.line': { text: string } }>({
    sessions: {
      of: (request) => {
        const id = /session=(\w+)/.exec(request.headers.get('cookie') ?? '')?.[1] ?? '';
        return live.has(id) ? { id, scope: ANA } : undefined;
      },
      onEnded: (listener) => {
        ended.add(listener);
        return () => ended.delete(listener);
      },
    },
  });
  host = createHost({ store: new MemoryStore(), surface: webKit.surface });
  kit = webKit.serve(host);
  const app = new Hono();
  app.route('/airlock', kit.app);
  app.get('/', (c) => c.html(PAGE));
  app.get('/kit/:file{.+}', async (c) => {
    const file = normalize(join(kitBrowser, c.req.param('file')));
    if (!file.startsWith(kitBrowser + '/') || !file.endsWith('.js')) return c.notFound();
    return c.body(await readFile(file), 200, { 'content-type': 'text/javascript' });
  });
  http = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((ready) => http.once('listening', ready));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  browser = await launchChromium();
  const context = await browser.newContext();
  await context.addCookies([{ name: 'session', value: 's1', url: origin }]);
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${origin}/`);
  await page.locator('body[data-ready]').waitFor({ state: 'attached' });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  kit?.close();
  await new Promise<void>((done) => (http === undefined ? done() : http.close(() => done())));
  await host?.close();
});

describe("the kit's browser part with the app's sessions and events, in Chromium", () => {
  it("shows the app's own events, and stops for good when the session ends", async () => {
    kit.send(ANA, 'chat.line', { text: 'hello from the app' });
    await expect(page.locator('#lines li').innerText()).resolves.toBe('hello from the app');

    live.delete('s1');
    for (const end of ended) end('s1');
    await page.locator('#ended', { hasText: 'signed out' }).waitFor();
    await expect(page.evaluate(() => (window as unknown as { closedStreams: number }).closedStreams)).resolves.toBe(1);
    // And the server ended its side: the session's stream is gone, and a request in its name is refused.
    expect((await fetch(`${origin}/airlock/events`, { headers: { cookie: 'session=s1' } })).status).toBe(401);
    expect(pageErrors).toEqual([]);
  });
});

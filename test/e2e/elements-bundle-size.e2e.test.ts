import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFile, launchChromium } from '../../packages/elements/src/testing/browser.js';
import { sandboxProxyUrl, startSandboxProxy } from '../../apps/console/src/sandbox-proxy.js';
import type { RunningSandboxProxy } from '../../apps/console/src/sandbox-proxy.js';

// What a page without a bundler pays for @airlock/elements/bundle, measured in real Chromium: the bytes of every
// bundle file the page requested. A page of cards and permission sheets loads the entry alone, within the budget; the
// MCP Apps bridge (the MCP protocol classes and zod) is a chunk of its own, fetched only when an <airlock-app-view>
// shows a view.

/** The most a card-only page may load: minified bytes, and the same files gzipped (what a server sends). */
const BUDGET = { bytes: 250_000, gzip: 80_000 };

let browser: Browser;
let server: Server;
let proxy: RunningSandboxProxy;
let origin: string;
/** Every bundle file served, by page path, in order: what the pages loaded. */
const served: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const file = bundleFile(path);
    if (file !== undefined) {
      served.push(path);
      response.writeHead(200, { 'content-type': 'text/javascript' });
      return response.end(readFileSync(file));
    }
    if (path === '/page.html') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return response.end(
        '<!doctype html><html lang="en-US"><head><meta charset="utf-8"><title>bundle</title>' +
          '<script type="module" src="/airlock-elements.js"></script></head><body></body></html>',
      );
    }
    response.writeHead(404);
    response.end();
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  origin = `http://127.0.0.1:${address.port}`;
  proxy = await startSandboxProxy('127.0.0.1', 0, { mayFrame: (parent) => parent === origin });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
});

/** A fresh page (its own cache) with the bundle loaded and its elements defined; what it fetched starts from here. */
async function openPage(): Promise<Page> {
  served.length = 0;
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(`${origin}/page.html`);
  await page.waitForFunction(() => customElements.get('airlock-tool-card') !== undefined);
  return page;
}

/** Minified and gzipped bytes of the served files. */
function weigh(paths: readonly string[]): { bytes: number; gzip: number; files: string } {
  const files = paths.map((path) => {
    const body = readFileSync(bundleFile(path)!);
    return { path, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length };
  });
  return {
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    gzip: files.reduce((sum, file) => sum + file.gzip, 0),
    files: files.map((file) => `${file.path} ${file.bytes} B (gzip ${file.gzip} B)`).join(', '),
  };
}

describe('the elements bundle, as a page loads it', () => {
  it('loads only its entry, within budget, for a page with a tool card and a permission sheet', async () => {
    const page = await openPage();
    const shown = await page.evaluate(async () => {
      document.body.innerHTML =
        '<airlock-tool-card></airlock-tool-card><airlock-permission-sheet></airlock-permission-sheet>';
      const card = document.querySelector('airlock-tool-card') as HTMLElement & Record<string, unknown>;
      Object.assign(card, {
        tool: { name: 'search', title: 'Search files', inputSchema: { type: 'object' } },
        server: { id: 'files', trusted: true },
        invocation: {
          id: 'inv-1',
          tool: 'files__search',
          originalName: 'search',
          serverId: 'files',
          state: 'success',
          outcome: 'success',
          error: null,
          args: { query: 'cats' },
        },
        result: {
          blocks: [{ type: 'text', text: 'Found **3** files', totalChars: 16, truncated: false }],
          isError: false,
          handle: 'result-1',
        },
      });
      await (card['updateComplete'] as Promise<unknown>);
      return card.shadowRoot?.textContent ?? '';
    });
    expect(shown).toContain('Search files');
    await page.waitForLoadState('networkidle');
    await page.context().close();

    const loaded = weigh(served);
    console.log(`elements bundle, card-only page: ${loaded.bytes} B (gzip ${loaded.gzip} B): ${loaded.files}`);
    expect(served).toEqual(['/airlock-elements.js']);
    expect(loaded.bytes).toBeLessThanOrEqual(BUDGET.bytes);
    expect(loaded.gzip).toBeLessThanOrEqual(BUDGET.gzip);
  });

  it('fetches the MCP Apps bridge chunk when an <airlock-app-view> shows a view, and the view answers', async () => {
    const page = await openPage();
    expect(served).toEqual(['/airlock-elements.js']);
    await page.evaluate(
      ([proxyUrl]) => {
        document.body.innerHTML = '<airlock-app-view></airlock-app-view>';
        const view = document.querySelector('airlock-app-view') as HTMLElement & Record<string, unknown>;
        view['proxyUrl'] = proxyUrl;
        view['view'] = { serverId: 'demo', tool: 'demo__view', uri: 'ui://demo/view', html: '<p id="hello">hello</p>' };
      },
      [sandboxProxyUrl(`http://127.0.0.1:${proxy.port}`, origin)] as const,
    );
    const outer = await page.locator('airlock-app-view iframe').elementHandle();
    const proxyFrame = (await outer.contentFrame())!;
    await expect.poll(() => proxyFrame.childFrames().length, { timeout: 15_000 }).toBe(1);
    const inner = proxyFrame.childFrames()[0]!;
    await expect.poll(() => inner.evaluate(() => document.getElementById('hello')?.textContent ?? '')).toBe('hello');
    await page.context().close();

    const bridge = served.filter((path) => path.startsWith('/chunks/app-bridge-'));
    console.log(`elements bundle, app view page adds: ${weigh(bridge).files}`);
    expect(served[0]).toBe('/airlock-elements.js');
    expect(bridge).toHaveLength(1);
  });
});

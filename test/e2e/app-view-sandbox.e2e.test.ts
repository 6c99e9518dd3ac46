import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHarness } from '../../packages/elements/src/testing/browser.js';
import { sandboxProxyUrl, startSandboxProxy } from '../../apps/console/src/sandbox-proxy.js';
import type { RunningSandboxProxy } from '../../apps/console/src/sandbox-proxy.js';

/**
 * A view that speaks the protocol by hand and keeps what it learnt: its `ui/initialize` answer (the host context and
 * capabilities) and, for each browser feature, whether its document may use it (the Permissions Policy in force).
 */
const PROBE_VIEW = `<!doctype html><html><body><p id="ready">probe</p><script>
let next = 1;
const pending = new Map();
window.addEventListener('message', (event) => {
  const m = event.data;
  if (m && m.id !== undefined && pending.has(m.id)) { pending.get(m.id)(m); pending.delete(m.id); }
});
const request = (method, params) => new Promise((resolve) => {
  const id = next++;
  pending.set(id, resolve);
  parent.postMessage({ jsonrpc: '2.0', id, method, params }, '*');
});
const policy = document.featurePolicy;
window.__features = Object.fromEntries(['camera', 'microphone', 'geolocation', 'clipboard-write']
  .map((name) => [name, policy ? policy.allowsFeature(name) : 'unknown']));
request('ui/initialize', { protocolVersion: '2026-01-26', appInfo: { name: 'probe', version: '1' }, appCapabilities: {} })
  .then((answer) => {
    window.__init = answer.result;
    parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} }, '*');
  });
</script></body></html>`;

interface Probe {
  readonly features: Record<string, boolean | string>;
  readonly init: {
    hostContext: { availableDisplayModes: string[]; displayMode: string };
    hostCapabilities: { sandbox?: { permissions?: Record<string, unknown> } };
  };
}

let harness: BrowserHarness;
let proxy: RunningSandboxProxy;
let origin: string;

beforeAll(async () => {
  harness = new BrowserHarness();
  await harness.start();
  // The harness's pages (127.0.0.1) play the console: only they may frame the proxy.
  proxy = await startSandboxProxy('127.0.0.1', 0, { mayFrame: (parent) => parent === origin });
  const first = await harness.open('<p>origin</p>');
  origin = new URL(first.url()).origin;
  await first.close();
}, 60_000);

afterAll(async () => {
  await harness?.stop();
  await proxy?.close();
});

/**
 * A page with `count` view elements, each given the probe view declaring `permissions`; `setup` runs on the page
 * before the views are given.
 */
async function viewsPage(
  permissions: readonly string[] | undefined,
  count = 1,
  uri = 'ui://probe/view',
  setup?: (page: Page) => Promise<void>,
): Promise<Page> {
  const page = await harness.open(
    Array.from({ length: count }, (_, i) => `<airlock-app-view id="v${i}"></airlock-app-view>`).join(''),
  );
  await setup?.(page);
  await page.evaluate(
    ([proxyUrl, html, declared, n, resource]) => {
      for (let i = 0; i < n; i++) {
        const view = document.getElementById(`v${i}`) as HTMLElement & Record<string, unknown>;
        view['proxyUrl'] = proxyUrl;
        view['view'] = {
          serverId: 'probe',
          tool: 'probe__view',
          uri: resource,
          html,
          ...(declared === null ? {} : { permissions: declared }),
        };
      }
    },
    [sandboxProxyUrl(`http://127.0.0.1:${proxy.port}`, origin), PROBE_VIEW, permissions ?? null, count, uri] as const,
  );
  return page;
}

/** The view's own frame inside element `id` (the proxy's frame, then the inner one), once it is there. */
async function viewFrame(page: Page, id = 'v0'): Promise<Frame> {
  const outer = await page.locator(`#${id} iframe`).elementHandle();
  const proxyFrame = (await outer.contentFrame())!;
  await expect.poll(() => proxyFrame.childFrames().length, { timeout: 15_000 }).toBe(1);
  return proxyFrame.childFrames()[0]!;
}

async function probe(frame: Frame): Promise<Probe> {
  await expect
    .poll(() => frame.evaluate(() => (window as unknown as { __init?: unknown }).__init !== undefined), {
      timeout: 10_000,
    })
    .toBe(true);
  return frame.evaluate(() => {
    const w = window as unknown as { __features: Probe['features']; __init: Probe['init'] };
    return { features: w.__features, init: w.__init };
  });
}

/** The `allow` of the element's frame and of the proxy's inner frame. */
async function allows(page: Page, id = 'v0'): Promise<{ outer: string | null; inner: string | null }> {
  const outer = await page.locator(`#${id} iframe`).getAttribute('allow');
  const proxyFrame = (await (await page.locator(`#${id} iframe`).elementHandle()).contentFrame())!;
  const inner = await proxyFrame.evaluate(() => document.querySelector('iframe')?.getAttribute('allow') ?? null);
  return { outer, inner };
}

const NONE = { camera: false, microphone: false, geolocation: false, 'clipboard-write': false };

describe("a view's browser permissions", () => {
  it('grants none to a view that declares none, and asks nothing', async () => {
    const page = await viewsPage(undefined);
    const view = await viewFrame(page);
    expect(await page.locator('[part~="permission-consent"]').count()).toBe(0);
    expect(await allows(page)).toEqual({ outer: '', inner: '' });
    const { features, init } = await probe(view);
    expect(features).toEqual(NONE);
    expect(init.hostCapabilities.sandbox?.permissions).toEqual({});
    await page.close();
  });

  it('asks before showing a view that declares some, and grants exactly those once the user allows', async () => {
    const page = await viewsPage(['camera', 'clipboardWrite', 'usb'], 2);
    // Asked in place of the view: no frame yet, so nothing runs with or without the features.
    const consent = page.locator('#v0 [part~="permission-consent"]');
    await expect(consent.innerText()).resolves.toContain('This view asks to use: the camera, writing to the clipboard');
    expect(await page.locator('#v0 iframe').count()).toBe(0);
    await consent.locator('button[data-permissions="allow"]').click();
    const view = await viewFrame(page);
    expect(await allows(page)).toEqual({ outer: 'camera; clipboard-write', inner: 'camera *; clipboard-write *' });
    const { features, init } = await probe(view);
    // Undeclared (microphone, geolocation) and unknown (usb) features are never the view's.
    expect(features).toEqual({ ...NONE, camera: true, 'clipboard-write': true });
    expect(init.hostCapabilities.sandbox?.permissions).toEqual({ camera: {}, clipboardWrite: {} });
    // The second card of the same view was answered by the same consent: asked once per view.
    const second = await viewFrame(page, 'v1');
    expect(await page.locator('#v1 [part~="permission-consent"]').count()).toBe(0);
    expect(await allows(page, 'v1')).toEqual({
      outer: 'camera; clipboard-write',
      inner: 'camera *; clipboard-write *',
    });
    expect((await probe(second)).features).toEqual({ ...NONE, camera: true, 'clipboard-write': true });
    await page.close();
  });

  it('grants nothing when the user does not allow, and the view runs without them', async () => {
    const page = await viewsPage(['microphone', 'geolocation'], 1, 'ui://probe/other');
    const consent = page.locator('#v0 [part~="permission-consent"]');
    await expect(consent.innerText()).resolves.toContain('the microphone, your location');
    await consent.locator('button[data-permissions="deny"]').click();
    const view = await viewFrame(page);
    expect(await allows(page)).toEqual({ outer: '', inner: '' });
    const { features, init } = await probe(view);
    expect(features).toEqual(NONE);
    expect(init.hostCapabilities.sandbox?.permissions).toEqual({});
    await page.close();
  });
});

/**
 * Gives the page's elements a keeper of consents (as the console does, over its store) that knows one answer, camera
 * allowed for `ui://probe/kept`, and records in `window.__kept` each answer it is given.
 */
async function keepConsents(page: Page): Promise<void> {
  // As text: the test's own transform would rewrite a dynamic import written as code.
  await page.evaluate(`(async () => {
    const elements = await import('/airlock-elements.js');
    const kept = [];
    window.__kept = kept;
    elements.keepViewConsentsWith({
      find: (view) => Promise.resolve(view.uri === 'ui://probe/kept' ? ['camera'] : undefined),
      keep: (view, asked, granted) => {
        kept.push({ serverId: view.serverId, uri: view.uri, asked, granted });
        return Promise.resolve();
      },
    });
  })()`);
}

describe("a view's browser permissions kept beyond the page", () => {
  it('shows a view answered elsewhere without asking, with exactly the features allowed there', async () => {
    const page = await viewsPage(['camera', 'microphone'], 1, 'ui://probe/kept', keepConsents);
    const view = await viewFrame(page);
    expect(await page.locator('#v0 [part~="permission-consent"]').count()).toBe(0);
    expect(await allows(page)).toEqual({ outer: 'camera', inner: 'camera *' });
    expect((await probe(view)).features).toEqual({ ...NONE, camera: true });
    await page.close();
  });

  it("asks about a view with no kept answer, and hands the user's answer to the keeper", async () => {
    const page = await viewsPage(['geolocation'], 1, 'ui://probe/new', keepConsents);
    const consent = page.locator('#v0 [part~="permission-consent"]');
    await consent.locator('button[data-permissions="deny"]').click();
    await viewFrame(page);
    expect(await allows(page)).toEqual({ outer: '', inner: '' });
    expect(await page.evaluate(() => (window as unknown as { __kept: unknown[] }).__kept)).toEqual([
      { serverId: 'probe', uri: 'ui://probe/new', asked: ['geolocation'], granted: [] },
    ]);
    await page.close();
  });
});

describe("a view's display modes", () => {
  it('are told before it asks: inline and fullscreen, never picture-in-picture', async () => {
    const page = await viewsPage(undefined);
    const { init } = await probe(await viewFrame(page));
    expect(init.hostContext.availableDisplayModes).toEqual(['inline', 'fullscreen']);
    expect(init.hostContext.displayMode).toBe('inline');
    await page.close();
  });
});

describe('the sandbox proxy', () => {
  /** A page of another origin (the harness's server by another name) that frames the proxy for `parent`. */
  async function framedFromElsewhere(parent: string, unframed = false): Promise<{ page: Page; heard: unknown[] }> {
    const page = await harness.open('<p>elsewhere</p>');
    if (unframed) {
      // As a browser that does not enforce frame-ancestors would: the proxy's answer without its policy.
      await page.route(`http://127.0.0.1:${proxy.port}/**`, async (route) => {
        const response = await route.fetch();
        const headers = { ...response.headers() };
        delete headers['content-security-policy'];
        await route.fulfill({ response, headers });
      });
    }
    await page.goto(page.url().replace('127.0.0.1', 'localhost'));
    const heard: unknown[] = [];
    await page.exposeFunction('__heard', (data: unknown) => heard.push(data));
    await page.evaluate(
      (url) => {
        window.addEventListener(
          'message',
          (event) => void (window as unknown as { __heard: (d: unknown) => void }).__heard(event.data),
        );
        const frame = document.createElement('iframe');
        frame.src = url;
        document.body.append(frame);
        // It writes first, as a page would to take the proxy over: the view it gives would report back to it.
        // Each offer made after the frame loaded is counted, for the test to wait on.
        const offers = window as unknown as { __offers: number };
        offers.__offers = 0;
        const give = () => {
          offers.__offers += 1;
          frame.contentWindow?.postMessage(
            {
              jsonrpc: '2.0',
              method: 'ui/notifications/sandbox-resource-ready',
              params: {
                html: '<script>parent.postMessage({ jsonrpc: "2.0", id: 1, method: "tools/call" }, "*")</script>',
              },
            },
            '*',
          );
        };
        frame.addEventListener('load', () => {
          give();
          setInterval(give, 200);
        });
      },
      sandboxProxyUrl(`http://127.0.0.1:${proxy.port}`, parent),
    );
    return { page, heard };
  }

  const offersMade = (page: Page) => page.evaluate(() => (window as unknown as { __offers: number }).__offers);
  const proxyFrameOf = (page: Page) => page.frames().find((f) => f.url().startsWith(`http://127.0.0.1:${proxy.port}/`));

  it("cannot be framed by another origin than the console's (frame-ancestors)", async () => {
    const { page, heard } = await framedFromElsewhere(origin);
    // The frame loaded (the browser's refusal) and the page has made its offer three times since: a view given on the
    // first would have had two more rounds to report back.
    await expect.poll(() => offersMade(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    // The browser refused to render the proxy there: no proxy document, no view, nothing sent to the page.
    const proxyFrame = proxyFrameOf(page);
    expect(
      proxyFrame === undefined || (await proxyFrame.evaluate(() => document.scripts.length).catch(() => 0)) === 0,
    ).toBe(true);
    expect(heard).toEqual([]);
    await page.close();
  });

  it('refuses a parent that is not the console', async () => {
    const response = await fetch(
      sandboxProxyUrl(`http://127.0.0.1:${proxy.port}`, origin.replace('127.0.0.1', 'localhost')),
    );
    expect(response.status).toBe(403);
  });

  it('takes messages only from the console origin it was given, even where framing is not enforced', async () => {
    // Without its frame-ancestors, the proxy renders inside a page of another origin that writes to it first; it
    // still takes nothing from it (no view is made) and sends nothing to it (not even that it is ready).
    const { page, heard } = await framedFromElsewhere(origin, true);
    await expect.poll(() => proxyFrameOf(page) !== undefined, { timeout: 10_000 }).toBe(true);
    const proxyFrame = proxyFrameOf(page)!;
    await expect
      .poll(() => proxyFrame.evaluate(() => document.scripts.length).catch(() => 0), { timeout: 10_000 })
      .toBe(1);
    // The proxy's own listener was added before this one, so each message counted here it has already handled.
    await proxyFrame.evaluate(() => {
      const seen = window as unknown as { __seen: number };
      seen.__seen = 0;
      window.addEventListener('message', () => (seen.__seen += 1));
    });
    await expect
      .poll(() => proxyFrame.evaluate(() => (window as unknown as { __seen: number }).__seen), { timeout: 10_000 })
      .toBeGreaterThanOrEqual(3);
    expect(await proxyFrame.evaluate(() => document.querySelectorAll('iframe').length)).toBe(0);
    expect(proxyFrame.childFrames()).toHaveLength(0);
    expect(heard).toEqual([]);
    await page.close();
  });
});

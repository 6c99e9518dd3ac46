import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Frame, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './signed-in-page.js';
import { consoleInChromium } from './console-in-chromium.js';

/**
 * The registry's system monitor MCP App (`@modelcontextprotocol/server-system-monitor`, over stdio): a model-visible
 * `get-system-info` whose view draws a chart with Chart.js, and once it has the tool's result polls the app-only
 * `poll-system-stats` every two seconds, each poll a tool call of its own.
 */
const MONITOR_BIN = join(
  dirname(fileURLToPath(import.meta.resolve('@modelcontextprotocol/server-system-monitor'))),
  'index.js',
);
const SCOPE = { userId: 'ana', workspaceId: 'default', conversationId: 'main' };

let page: Page;

const stage = consoleInChromium('airlock-app-view-monitor-e2e-', () => ({
  mcpServers: { monitor: { command: process.execPath, args: [MONITOR_BIN, '--stdio'] } },
}));

beforeAll(async () => {
  expect(stage.running.host.servers.list().map((s) => [s.id, s.state])).toEqual([['monitor', 'ready']]);
  page = await signedInPage(stage.browser, stage.running.url, {
    contexts: stage.contexts,
    allowViewErrors: true,
  });
}, 60_000);

async function cardIds(): Promise<string[]> {
  return page.$$eval('li[data-invocation]', (items) => items.map((li) => li.getAttribute('data-invocation') ?? ''));
}

/** Waits for a card that was not there before, and resolves with its id. */
async function newCard(before: readonly string[]): Promise<string> {
  const handle = await page.waitForFunction(
    (known) =>
      [...document.querySelectorAll('li[data-invocation]')]
        .map((li) => li.getAttribute('data-invocation'))
        .find((id) => id !== null && !known.includes(id)),
    before,
  );
  return (await handle.jsonValue()) as string;
}

const settled = (id: string, state: string) =>
  page.locator(`li[data-invocation="${id}"][data-state="${state}"]`).waitFor();

/** The view inside a card's element: the proxy's frame, then the view's own frame in it. */
async function viewFrame(invocationId: string): Promise<Frame> {
  const outer = await page.locator(`airlock-app-view[data-app-view="${invocationId}"] iframe`).elementHandle();
  const proxy = await outer.contentFrame();
  await expect.poll(() => proxy!.childFrames().length, { timeout: 15_000 }).toBe(1);
  return proxy!.childFrames()[0]!;
}

describe("the registry's system monitor app in the console", () => {
  let infoId: string;
  let view: Frame;
  /** The cards up to the one that opened the view: its polls come after. */
  let known: string[];

  it('offers the model its view tool and keeps the poll tool for the app', () => {
    const model = stage.running.host.tools.list({ audience: 'model', scope: SCOPE }).map((t) => t.name);
    expect(model).toContain('monitor__get-system-info');
    expect(model).not.toContain('monitor__poll-system-stats');
  });

  it("renders its view under the card with the call's result, behind the sandbox proxy", async () => {
    const before = await cardIds();
    await page.locator('form.launcher select[name="tool"]').selectOption('monitor__get-system-info');
    await page.locator('form.launcher wa-button[type="submit"]').click();
    infoId = await newCard(before);
    known = [...before, infoId];
    await page.locator('airlock-permission-sheet button[data-decision="allow_once"]').click();
    await settled(infoId, 'success');
    // The frame gets its address once the bridge to it is connected: wait for it rather than read it too soon.
    const proxyUrl = await page
      .locator(`airlock-app-view[data-app-view="${infoId}"] iframe[src^="http"]`)
      .evaluate((frame) => (frame as HTMLIFrameElement).src);
    expect(new URL(proxyUrl).origin).not.toBe(new URL(stage.running.url).origin);
    view = await viewFrame(infoId);
    // The view drew the result it was given after its initialized: the host's name and platform.
    const info = (await stage.running.host.history.get({ scope: SCOPE, invocationId: infoId }))?.result?.screen
      .structuredContent as { hostname: string; platform: string };
    await view.locator('#info-hostname', { hasText: info.hostname }).waitFor();
    await view.locator('#info-platform', { hasText: info.platform }).waitFor();
  });

  it('gets its policy from its resource: it declares no origin, so it reaches none', async () => {
    const policy = await view.evaluate(
      () => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '',
    );
    expect(policy.split('; ')).toEqual(
      expect.arrayContaining(["default-src 'none'", "connect-src 'none'", "frame-src 'none'"]),
    );
    const fetched = await view.evaluate(() =>
      fetch('https://www.chartjs.org/').then(
        () => 'reached',
        () => 'blocked',
      ),
    );
    expect(fetched).toBe('blocked');
  });

  it('has no WebRTC: not in its window, nor in a frame of its own making that would bring it back', async () => {
    const reach = await view.evaluate(async () => {
      const own = typeof (window as unknown as Record<string, unknown>)['RTCPeerConnection'];
      // A frame made from markup inherits the view's policy (inline scripts run) but not its first script, so it
      // would have WebRTC again: it is removed at the next microtask, before its document loads.
      const frame = document.createElement('iframe');
      frame.srcdoc = '<script>new RTCPeerConnection()</' + 'script>';
      document.body.append(frame);
      const host = document.createElement('div');
      const shadowed = document.createElement('iframe');
      host.attachShadow({ mode: 'closed' }).append(shadowed);
      document.body.append(host);
      const added = frame.isConnected && shadowed.isConnected;
      await Promise.resolve();
      return { own, added, kept: frame.isConnected || shadowed.isConnected };
    });
    expect(reach).toEqual({ own: 'undefined', added: true, kept: false });
  });

  it('keeps its guard when the view replaces the built-ins it uses, and sees into open shadow roots', async () => {
    const kept = await view.evaluate(async () => {
      // A view disarming the guard: remove() and getAttribute() that do nothing useful.
      const proto = Element.prototype as unknown as Record<string, unknown>;
      proto['remove'] = () => undefined;
      proto['getAttribute'] = () => 'https://allowed.example/';
      const frame = document.createElement('iframe');
      frame.srcdoc = '<p>x</p>';
      document.body.append(frame);
      // An open shadow root parsed from markup (no attachShadow call), holding a frame.
      const host = document.createElement('div');
      document.body.append(host);
      (host as unknown as { setHTMLUnsafe(html: string): void }).setHTMLUnsafe(
        '<div><template shadowrootmode="open"><iframe srcdoc="<p>y</p>"></iframe></template></div>',
      );
      const inner = host.querySelector('div')?.shadowRoot?.querySelector('iframe');
      const added = frame.isConnected && inner?.isConnected === true;
      await Promise.resolve();
      return { added, kept: frame.isConnected || inner?.isConnected === true };
    });
    expect(kept).toEqual({ added: true, kept: false });
  });

  it('polls through the host: each poll asks the permission sheet and is its own card, called as the app', async () => {
    // The first poll came once the view had its result: the first card after the one that opened the view.
    const pollId = await newCard(known);
    await page.locator('airlock-permission-sheet button[data-decision="allow_once"]').click();
    await settled(pollId, 'success');
    const entry = await stage.running.host.history.get({ scope: SCOPE, invocationId: pollId });
    expect(entry?.invocation).toMatchObject({
      tool: 'monitor__poll-system-stats',
      caller: { kind: 'app', serverId: 'monitor' },
    });
    const audited = (await stage.running.host.audit.query({ scope: SCOPE })).filter(
      (e) => e.invocationId === pollId && e.type === 'invocation.transition',
    );
    expect(audited.length).toBeGreaterThan(0);
    expect(audited.every((e) => (e.data as { caller?: string }).caller === 'app')).toBe(true);
    // The view drew the poll's answer: its memory gauge.
    await view.locator('#memory-percent', { hasText: /^\d+%$/ }).waitFor();
    // A poll is a plain card, never another view.
    expect(await page.locator(`airlock-app-view[data-app-view="${pollId}"]`).count()).toBe(0);
  });

  it('asks again for the next poll; denied, the view is told and shows its error', async () => {
    // Every poll asks: allowed once is not allowed for the next.
    await page.locator('airlock-permission-sheet button[data-decision="deny_once"]').click();
    const denied = await page
      .locator('li[data-invocation][data-state="cancelled"]')
      .first()
      .getAttribute('data-invocation');
    const entry = await stage.running.host.history.get({ scope: SCOPE, invocationId: denied! });
    expect(entry?.invocation).toMatchObject({
      tool: 'monitor__poll-system-stats',
      caller: { kind: 'app', serverId: 'monitor' },
      outcome: 'permission_denied',
    });
    await view.locator('#status-text', { hasText: 'Error' }).waitFor();
    // Stopped from the view itself: it asks for no more polls.
    await view.locator('#poll-toggle-btn', { hasText: 'Stop' }).click();
    await view.locator('#poll-toggle-btn', { hasText: 'Start' }).waitFor();
  });
});

// The servers panel of the console in a real Chromium, signed in with tokens ("root" an administrator, "ana" not),
// against the demo server, server-everything and a hostile server over stdio: a tool switched off for the model
// leaves the model's list (asked of the host); an administrator reads server-everything's stderr in the panel and
// sees new lines as they come; the XSS corpus in a server's instructions and stderr shows as text and never runs; a
// user who is not an administrator sees neither the log nor the switch that turns a server off; an administrator
// switches a server off and on; the panel passes axe.
import { createHash } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe-violations.js';
import { signedInPage } from './signed-in-page.js';
import { XSS_PAYLOADS } from '../../packages/elements/src/airlock-tool-card/xss-corpus.js';
import { consoleInChromium, DEMO_SERVER, EVERYTHING_BIN } from './console-in-chromium.js';

const stage = consoleInChromium('airlock-console-server-panel-', () => ({
  mcpServers: {
    demo: DEMO_SERVER,
    everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] },
    hostile: { command: process.execPath, args: ['-e', HOSTILE] },
  },
  more: () => ({
    auth: 'token',
    users: [
      { id: 'root', tokenSha256: sha256('root-token'), admin: true },
      { id: 'ana', tokenSha256: sha256('ana-token') },
    ],
  }),
}));
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A hostile stdio server (newline-delimited JSON-RPC written by hand): every payload of the corpus on stderr at start
 * and as a log notification once initialized, all of them as its instructions, one tool.
 */
// The payloads' "$" written as \u0024: the config expands ${…} in args, and one payload is a template literal.
const HOSTILE = `
const payloads = ${JSON.stringify(XSS_PAYLOADS).replace(/\$/g, '\\u0024')};
for (const p of payloads) process.stderr.write(p + '\\n');
const rl = require('node:readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'notifications/initialized')
    return send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', logger: payloads[1], data: payloads[0] } });
  if (m.id === undefined) return;
  const reply = (result) => send({ jsonrpc: '2.0', id: m.id, result });
  if (m.method === 'initialize')
    return reply({ protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: payloads[2], version: '1' }, instructions: payloads.join('\\n') });
  if (m.method === 'tools/list')
    return reply({ tools: [{ name: 'noop', title: payloads[3], inputSchema: { type: 'object' } }] });
  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
});
`;

/** A signed-in page (the test adds axe, which the console's CSP would refuse), with `window.__xss` counting. */
function signedIn(token: string): Promise<Page> {
  return signedInPage(stage.browser, stage.running.url, {
    contexts: stage.contexts,
    token,
    contextOptions: { bypassCSP: true },
    prepare: async (page) => {
      await page.addInitScript(() => ((window as unknown as { __xss: number }).__xss = 0));
    },
  });
}

/** The panel of one server, opened. */
async function openPanel(page: Page, serverId: string): Promise<Locator> {
  const item = page.locator(`li[data-server="${serverId}"]`);
  await item.locator('details.server-about > summary').click();
  return item;
}

const modelSees = (userId: string): string[] =>
  stage.running.host.tools
    .list({ audience: 'model', scope: { userId, workspaceId: 'default', conversationId: 'main' } })
    .map((t) => t.name);

describe('the server panel', () => {
  it("switches a tool off for the model: it leaves the model's list, and comes back", async () => {
    const page = await signedIn('ana-token');
    const demo = await openPanel(page, 'demo');
    const offer = demo.getByRole('switch', { name: 'Offer Echo to the model' });
    await expect.poll(() => offer.isEnabled()).toBe(true);
    expect(await offer.isChecked()).toBe(true);
    await offer.click();
    await expect.poll(() => modelSees('ana')).not.toContain('demo__echo');
    expect(modelSees('root')).toContain('demo__echo');
    // The page's own list of what the model sees follows.
    await expect
      .poll(() => page.locator('airlock-tool-list').evaluate((el) => el.shadowRoot?.textContent ?? ''))
      .not.toContain('demo__echo');
    await expect.poll(() => offer.isChecked()).toBe(false);
    await offer.click();
    await expect.poll(() => modelSees('ana')).toContain('demo__echo');
  });

  it("shows an administrator server-everything's stderr, its command line, and new lines as they come", async () => {
    const page = await signedIn('root-token');
    const everything = await openPanel(page, 'everything');
    const log = everything.locator('pre.server-log');
    await expect.poll(() => log.textContent()).toContain('Starting default (STDIO) server...');
    expect(await everything.locator('code.server-origin').textContent()).toContain(EVERYTHING_BIN);
    const before = (await log.textContent())!.split('Starting default').length;
    // A fresh start writes the banner again; the open panel shows it without a reload.
    await stage.running.host.servers.restart('everything');
    await expect.poll(async () => (await log.textContent())!.split('Starting default').length).toBe(before + 1);
    expect(await everything.getByRole('button', { name: 'Switch everything off' }).isVisible()).toBe(true);
  });

  it("shows the markup in a server's instructions, stderr and log notifications as text; nothing runs", async () => {
    const page = await signedIn('root-token');
    const hostile = await openPanel(page, 'hostile');
    await expect.poll(() => hostile.locator('pre.server-log').textContent()).toContain(XSS_PAYLOADS.at(-1)!);
    const log = (await hostile.locator('pre.server-log').textContent())!;
    expect(log).toContain(XSS_PAYLOADS[0]);
    expect(log).toMatch(/log error .*<script>window.__xss\+\+<\/script>/);
    const instructions = (await hostile.locator('pre.server-instructions').textContent())!;
    for (const payload of XSS_PAYLOADS) expect(instructions).toContain(payload.replace(/\r/g, ''));
    expect(await hostile.locator('script, iframe, img, svg, object, embed').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss: number }).__xss)).toBe(0);
  });

  it('shows a user who is not an administrator no log, no command line and no switch for the server', async () => {
    const page = await signedIn('ana-token');
    const everything = await openPanel(page, 'everything');
    await expect.poll(() => everything.locator('[data-counts]').textContent()).toMatch(/\d+ tools, \d+ resources/);
    // A server without the prompts capability offers none: "0 prompts", not a dash.
    const demo = await openPanel(page, 'demo');
    await expect.poll(() => demo.locator('[data-counts]').textContent()).toMatch(/\d+ tools, \d+ resources, 0 prompts/);
    expect(await everything.locator('pre.server-log, .server-log-part, code.server-origin').count()).toBe(0);
    expect(await everything.locator('[data-server-switch]').count()).toBe(0);
    expect(await everything.locator('input[data-level="workspace"]').count()).toBe(0);
    expect(await page.content()).not.toContain('Starting default (STDIO) server');
  });

  it('lets an administrator switch a server off and on again; the panel says why it is closed', async () => {
    const page = await signedIn('root-token');
    const demo = await openPanel(page, 'demo');
    await demo.getByRole('button', { name: 'Switch demo off' }).click();
    await expect
      .poll(() => demo.locator('.server-reason').textContent())
      .toContain('Switched off by an administrator.');
    await expect.poll(() => modelSees('ana').some((name) => name.startsWith('demo__'))).toBe(false);
    expect(await demo.locator('[data-reconnect]').count()).toBe(0);
    await demo.getByRole('button', { name: 'Switch demo on' }).click();
    await expect.poll(() => demo.locator('.state').textContent()).toBe('ready');
    await expect.poll(() => modelSees('ana')).toContain('demo__echo');
  });

  it('states each fact of a server and passes axe with the panels open', async () => {
    const page = await signedIn('root-token');
    const everything = await openPanel(page, 'everything');
    await openPanel(page, 'demo');
    expect(await everything.locator('.trust-chip').textContent()).toBe('Untrusted server');
    expect(await everything.locator('[data-protocol]').textContent()).toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(await everything.locator('[data-capabilities]').textContent()).toMatch(/prompts.*resources.*tools/s);
    await expect.poll(() => everything.locator('pre.server-log').count()).toBe(1);
    const violations = await axeViolations(page);
    expect(violations).toEqual([]);
  });
});

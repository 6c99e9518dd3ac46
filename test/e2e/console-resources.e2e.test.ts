// The Resources page of the console, in a real Chromium against the demo server over stdio: what the server offers
// is listed with the server that offers it; a preview shows a note as text, an HTML resource as text too (its markup
// never runs), and binary content described; a prompt of server-everything filled and shown; the page passes axe.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe-violations.js';
import { pageAt } from './page-at.js';
import { signedInPage } from './signed-in-page.js';
import { consoleInChromium, DEMO_SERVER, EVERYTHING_BIN } from './console-in-chromium.js';

const stage = consoleInChromium('airlock-console-resources-', () => ({
  mcpServers: {
    demo: DEMO_SERVER,
    // The MCP project's reference server: prompts with arguments.
    everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] },
  },
}));

async function resourcesPage(): Promise<Page> {
  // The test adds axe to the page, which the console's CSP would refuse.
  const page = await signedInPage(stage.browser, stage.running.url, {
    contexts: stage.contexts,
    contextOptions: { bypassCSP: true },
  });
  await page.getByRole('link', { name: 'Resources' }).click();
  await page.getByRole('heading', { name: 'Resources' }).waitFor();
  return page;
}

describe('the Resources page', () => {
  it('lists what the server offers, and previews a markdown note formatted', async () => {
    const page = await resourcesPage();
    const note = page.locator('li[data-resource^="demo://notes/"]', { hasText: 'Meeting notes' });
    await expect.poll(() => note.textContent()).toContain('Meeting notes');
    await expect.poll(() => note.textContent()).toContain('demo');
    await page.getByRole('button', { name: 'Preview Meeting notes' }).click();
    // Rendered, not raw: the heading is a heading and the bold is bold, through the sanitiser.
    await expect.poll(() => page.locator('.resource-preview .markdown h1').textContent()).toBe('Meeting notes');
    expect(await page.locator('.resource-preview .markdown strong').textContent()).toBe('every');
    expect(await page.locator('.resource-preview pre').count()).toBe(0);
  });

  it('shows an HTML resource as text: its markup never runs', async () => {
    const page = await resourcesPage();
    await page.getByRole('button', { name: 'Preview Demo dashboard' }).click();
    await expect.poll(() => page.locator('.resource-preview pre').textContent()).toContain('<script');
    expect(await page.locator('.resource-preview script, .resource-preview iframe').count()).toBe(0);
    const violations = await axeViolations(page);
    expect(violations).toEqual([]);
  });

  it("opens a card's resource link on the Resources page, read as the user", async () => {
    const page = await resourcesPage();
    const scope = { userId: 'ana', workspaceId: 'default', conversationId: 'default' };
    await stage.running.host.permissions.decide({ scope, tool: 'demo__rich_content', decision: 'allow_always' });
    await page.getByRole('link', { name: 'Conversation' }).click();
    await page.evaluate(() =>
      fetch('/api/invocations', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tool: 'demo__rich_content', args: {} }),
      }),
    );
    await page.locator('airlock-tool-card .link-chip').first().click();
    await page.getByRole('heading', { name: 'Resources' }).waitFor();
    await expect.poll(() => page.locator('.resource-preview h3').textContent()).toContain('demo://notes/');
    await expect.poll(() => page.locator('.resource-preview pre').textContent()).toMatch(/\S/);
  });

  it('does not read a resource an address names on load: it offers it, and reads it on a click', async () => {
    const page = await signedInPage(stage.browser, stage.running.url, { contexts: stage.contexts });
    const reads: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/resources/read')) reads.push(request.postData() ?? '');
    });
    // As a link from another site would open it.
    await page.goto(new URL('/#/resources?server=demo&uri=demo%3A%2F%2Fnotes%2F1', stage.running.url).href);
    await page.reload();
    await page.getByRole('heading', { name: 'Resources' }).waitFor();
    const offered = page.locator('.resource-offered');
    await expect.poll(() => offered.textContent()).toContain('demo://notes/1');
    // The lists have loaded (the page has done everything it does on load), and nothing was read.
    await page.locator('li[data-resource^="demo://notes/"]').first().waitFor();
    expect(reads).toEqual([]);
    await offered.getByRole('button', { name: 'Read' }).click();
    await expect.poll(() => page.locator('.resource-preview h3').textContent()).toContain('demo://notes/1');
    expect(reads).toHaveLength(1);
  });

  it("fills a server's prompt with the user's arguments and shows it", async () => {
    const page = await resourcesPage();
    const form = page.locator('form[data-prompt="args-prompt"]');
    await form.getByLabel('city').fill('Recife');
    await page.getByRole('button', { name: 'Show the prompt Arguments Prompt' }).click();
    await expect.poll(() => page.locator('.prompt-preview pre').textContent()).toBe("What's weather in Recife?");
  });

  it('says what a server says of itself in the servers panel', async () => {
    const page = await resourcesPage();
    await page.getByRole('link', { name: 'Conversation' }).click();
    const about = page.locator('li[data-server="everything"] details.server-about');
    await about.locator('summary').click();
    await expect.poll(() => about.textContent()).toMatch(/prompts.*resources.*tools/s);
  });

  it('audits a read the user made', async () => {
    const page = await resourcesPage();
    await page.getByRole('button', { name: 'Preview Meeting notes' }).click();
    await expect.poll(() => page.locator('.resource-preview .markdown h1').textContent()).toBe('Meeting notes');
    const events = await stage.running.host.audit.query({ scope: { userId: 'ana', workspaceId: 'default' } });
    expect(events.some((e) => e.type === 'resource.read')).toBe(true);
  });
});

describe.each([
  { width: 1280, locale: 'en-US', from: 'From', templates: 'Templates' },
  { width: 390, locale: 'pt-BR', from: 'De', templates: 'Modelos' },
])('the Resources page at $width px ($locale)', ({ width, locale, from, templates }) => {
  it('groups resources under a heading per server, and templates apart, also grouped by server', async () => {
    const page = await pageAt(stage.browser, stage.running.url, {
      contexts: stage.contexts,
      name: `grouped-${width}`,
      width,
      locale,
    });
    await page.goto(new URL('#/resources', stage.running.url).href);
    const groups = page.locator('.resource-lists > section.resource-group:not(.templates)');
    await groups.first().waitFor();
    expect(await groups.locator('h3').allInnerTexts()).toEqual([`${from} demo`, `${from} everything`]);
    // Each server's resources sit under its own heading, and nowhere else.
    const uris = (server: string) =>
      page.$$eval(`section.resource-group[data-server="${server}"] li[data-resource]`, (items) =>
        items.map((li) => li.getAttribute('data-resource')!),
      );
    const listed = (await (await page.request.get(new URL('/api/resources', stage.running.url).href)).json()) as {
      items: { serverId: string; uri: string }[];
    };
    const offeredBy = (server: string) => listed.items.filter((r) => r.serverId === server).map((r) => r.uri);
    expect(offeredBy('demo').length).toBeGreaterThan(0);
    expect(offeredBy('everything').length).toBeGreaterThan(0);
    expect(await uris('demo')).toEqual(offeredBy('demo'));
    expect(await uris('everything')).toEqual(offeredBy('everything'));

    // Templates come after every server's resources, under their own heading, grouped by server too.
    const section = page.locator('section.resource-group.templates');
    expect(await section.locator('h3').innerText()).toBe(templates);
    expect(await section.locator('h4').allInnerTexts()).toContain(`${from} everything`);
    const last = await groups.last().boundingBox();
    expect((await section.boundingBox())!.y).toBeGreaterThan(last!.y);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
});

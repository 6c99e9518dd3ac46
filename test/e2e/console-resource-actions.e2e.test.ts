// What the Resources page does with a read, in a real Chromium against real servers over stdio: a cut text shown whole
// and copied whole by its handle, a full-size view, updates followed (server-everything's subscriptions), suggestions
// for a template's variable, a read a rule denies; and the XSS corpus through the resource and prompt renderers (a
// hostile server's names, descriptions, URIs, texts and an SVG blob): nothing runs, all of it shown as text.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parseRules } from '@airlock/core';
import { XSS_PAYLOADS } from '../../packages/elements/src/airlock-tool-card/xss-corpus.js';
import { signedInPage } from './signed-in-page.js';
import { consoleInChromium, DEMO_SERVER, EVERYTHING_BIN } from './console-in-chromium.js';

const FILESYSTEM_BIN = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

/**
 * A hostile stdio server (newline-delimited JSON-RPC written by hand): every name, title, description, URI and text
 * it gives is a payload of the corpus; its one read is every payload as text/html, and an SVG carrying script.
 */
// The payloads' "$" written as \u0024: the config expands ${…} in args, and one payload is a template literal.
const HOSTILE = `
const payloads = ${JSON.stringify(XSS_PAYLOADS).replace(/\$/g, '\\u0024')};
const all = payloads.join('\\n');
const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="window.__xss++"><script>window.__xss++</script></svg>').toString('base64');
const rl = require('node:readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  const reply = (result) => send({ jsonrpc: '2.0', id: m.id, result });
  if (m.method === 'initialize')
    return reply({ protocolVersion: m.params.protocolVersion, capabilities: { resources: {}, prompts: {}, tools: {} }, serverInfo: { name: 'hostile', version: '1' } });
  if (m.method === 'tools/list') return reply({ tools: [] });
  if (m.method === 'resources/list')
    return reply({ resources: [
      { uri: 'x://all', name: 'all-payloads', title: payloads[0], description: all },
      ...payloads.slice(0, 20).map((p, i) => ({ uri: 'x://' + i + '/' + p, name: p, description: p, mimeType: p })),
    ] });
  if (m.method === 'resources/templates/list')
    return reply({ resourceTemplates: [{ uriTemplate: 'x://t/{id}', name: payloads[1], description: all }] });
  if (m.method === 'resources/read')
    return reply({ contents: [
      { uri: m.params.uri, mimeType: 'text/html', text: all },
      { uri: m.params.uri, mimeType: 'image/svg+xml', blob: svg },
    ] });
  if (m.method === 'prompts/list')
    return reply({ prompts: [{ name: 'hostile', title: payloads[2], description: all, arguments: [{ name: 'topic', description: all }] }] });
  if (m.method === 'prompts/get')
    return reply({ description: all, messages: [
      { role: 'user', content: { type: 'text', text: all + '\\n' + m.params.arguments.topic } },
      { role: 'assistant', content: { type: 'resource', resource: { uri: 'x://embedded', mimeType: 'text/html', text: all } } },
      { role: 'user', content: { type: 'image', mimeType: 'image/svg+xml', data: svg } },
    ] });
  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
});
`;

let files: string;
const stage = consoleInChromium('airlock-console-resource-actions-', async (dir) => {
  files = join(dir, 'files');
  await mkdir(files);
  await writeFile(join(files, 'notes.txt'), 'first line\n');
  return {
    mcpServers: {
      demo: DEMO_SERVER,
      everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] },
      hostile: { command: process.execPath, args: ['-e', HOSTILE] },
      // Files as tools only, in a directory of the test's own: no resources, no prompts.
      files: { command: process.execPath, args: [FILESYSTEM_BIN, files] },
    },
    more: (config) => ({
      // A small screen budget, so a document is cut on the screen and "show all" has something to show.
      limits: { ...config.limits, screenChars: 200 },
      rules: parseRules([
        { kind: 'resource', server: 'demo', uri: 'demo://notes/**', effect: 'deny' },
        { server: 'everything', tool: 'toggle-subscriber-updates', effect: 'allow' },
      ]),
    }),
  };
});

async function resourcesPage(): Promise<Page> {
  const page = await signedInPage(stage.browser, stage.running.url, {
    contexts: stage.contexts,
    prepare: async (page) => {
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stage.running.url });
      await page.addInitScript(() => ((window as unknown as { __xss: number }).__xss = 0));
    },
  });
  await page.getByRole('link', { name: 'Resources' }).click();
  await page.getByRole('heading', { name: 'Resources' }).waitFor();
  return page;
}

const ARCHITECTURE = 'demo://resource/static/document/architecture.md';

describe('a read on the Resources page', () => {
  it('shows a cut text whole, copies it whole and opens it full size, all from the read it made', async () => {
    const page = await resourcesPage();
    await page.locator(`li[data-resource="${ARCHITECTURE}"] button`).click();
    const preview = page.locator('console-resource-preview');
    await expect.poll(() => preview.locator('p.hint').first().textContent()).toMatch(/Showing 200 of \d+ characters/);
    const total = Number(
      /of (\d+) characters/.exec((await preview.locator('p.hint').first().textContent()) ?? '')?.[1],
    );
    expect(total).toBeGreaterThan(200);
    // The document is markdown, shown rendered: its cut is 200 characters of source, its whole one much more.
    const rendered = () => preview.locator(':scope > section > .markdown').textContent();
    const cutLength = (await rendered())?.length ?? 0;
    await preview.getByRole('button', { name: 'Show all' }).click();
    await expect.poll(() => preview.getByText(/Showing 200 of/).count()).toBe(0);
    const wholeLength = (await rendered())?.length ?? 0;
    expect(wholeLength).toBeGreaterThan(cutLength);
    await preview.getByRole('button', { name: 'Copy' }).click();
    await preview.getByText('Copied.').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.length).toBe(total);
    await preview.getByRole('button', { name: 'Full size' }).click();
    const dialog = preview.locator('dialog.resource-full');
    await expect.poll(() => dialog.evaluate((d: HTMLDialogElement) => d.open)).toBe(true);
    expect((await dialog.locator('.markdown').textContent())?.length).toBe(wholeLength);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => dialog.evaluate((d: HTMLDialogElement) => d.open)).toBe(false);
  });

  it("follows a resource's updates: the server's notice reads it again and says when", async () => {
    const page = await resourcesPage();
    const scope = { userId: 'ana', workspaceId: 'default', conversationId: 'default' };
    const form = page.locator('form[data-template="demo://resource/dynamic/text/{resourceId}"]');
    await form.getByLabel('resourceId').fill('1');
    await form.getByRole('button', { name: 'Read' }).click();
    const preview = page.locator('console-resource-preview');
    await expect.poll(() => preview.locator('h3').first().textContent()).toContain('demo://resource/dynamic/text/1');
    await preview.getByRole('button', { name: 'Follow updates' }).click();
    await preview.getByRole('button', { name: 'Stop following' }).waitFor();
    // server-everything sends updates for subscribed URIs every few seconds once this tool turns them on.
    await stage.running.host.invoke({
      scope,
      caller: { kind: 'user' },
      tool: 'everything__toggle-subscriber-updates',
      args: {},
    });
    await expect
      .poll(() => preview.locator('.resource-updated').textContent(), { timeout: 20_000 })
      .toMatch(/Updated by its server at/);
  }, 40_000);

  it("offers the server's suggestions for a template's variable", async () => {
    const page = await resourcesPage();
    const form = page.locator('form[data-template="demo://resource/dynamic/text/{resourceId}"]');
    await form.getByLabel('resourceId').fill('3');
    await expect
      .poll(() => form.locator('datalist option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value)))
      .toContain('3');
  });

  it('says a read a resource rule denies was refused, and nothing is shown', async () => {
    const page = await resourcesPage();
    await page.getByRole('button', { name: 'Preview Meeting notes' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/was refused: .*host rule/);
    expect(await page.locator('console-resource-preview').count()).toBe(0);
  });
});

describe('server-filesystem on the Resources page', () => {
  it('lists nothing of it and names no failure; a read of one of its files says it offers no resources', async () => {
    const page = await resourcesPage();
    await page.locator('li[data-resource="x://all"]').waitFor();
    expect(await page.locator('.resources-page').textContent()).not.toMatch(/files:|file:\/\//);
    const answer = await page.evaluate(
      (uri) =>
        fetch('/api/resources/read', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ serverId: 'files', uri }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error: { message: string } } })),
      `file://${join(files, 'notes.txt')}`,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain('server "files" offers no resources');
  });
});

describe('a hostile server on the Resources page', () => {
  it('shows every payload of the XSS corpus as text in listings, previews, the full-size view and prompts; nothing runs', async () => {
    const page = await resourcesPage();
    // Every payload's markup stayed text: no element it could have made, no handler, no script URL in the page.
    const made = () =>
      page.evaluate(() => {
        const main = document.querySelector('.resources-page')!;
        const elements = [...main.querySelectorAll('*')];
        return {
          scripts: main.querySelectorAll('script, iframe, object, embed, svg, math, img, video, audio, style, link')
            .length,
          handlers: elements.filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
          scriptUrls: elements.filter((e) => [...e.attributes].some((a) => /^\s*javascript:/i.test(a.value))).length,
        };
      });
    const listed = page.locator('li[data-resource="x://all"]');
    await listed.waitFor();
    await listed.getByRole('button').click();
    const preview = page.locator('console-resource-preview');
    await expect.poll(() => preview.locator('pre').first().textContent()).toContain(XSS_PAYLOADS[0]);
    await preview.getByRole('button', { name: 'Show all' }).click();
    await expect.poll(() => preview.locator(':scope > section > pre').textContent()).toContain(XSS_PAYLOADS.at(-1)!);
    await preview.getByRole('button', { name: 'Full size' }).click();
    // The SVG blob: described by type and size, never drawn.
    await expect
      .poll(() => preview.locator(':scope > section > .hint').allTextContents())
      .toContainEqual(expect.stringMatching(/Binary content \(image\/svg\+xml, \d+ bytes\): not shown\./));
    const dialog = preview.locator('dialog.resource-full');
    await expect.poll(() => dialog.locator('pre').textContent()).toContain(XSS_PAYLOADS.at(-1)!);
    expect(await made()).toEqual({ scripts: 0, handlers: 0, scriptUrls: 0 });
    await dialog.getByRole('button', { name: 'Close' }).click();
    const form = page.locator('form[data-prompt="hostile"]');
    await form.getByLabel('topic').fill(XSS_PAYLOADS[0]!);
    await form.getByRole('button').click();
    const prompt = page.locator('.prompt-preview');
    await expect.poll(() => prompt.locator('pre').first().textContent()).toContain(XSS_PAYLOADS[0]);
    await expect.poll(() => prompt.textContent()).toMatch(/Binary content \(image\/svg\+xml, \d+ bytes\)/);
    expect(await made()).toEqual({ scripts: 0, handlers: 0, scriptUrls: 0 });
    // A payload that ran anyway would have counted; a round trip to the console lets queued handlers run first.
    await page.evaluate(() => fetch('/api/resources').then((r) => r.text()));
    expect(await page.evaluate(() => (window as unknown as { __xss: number }).__xss)).toBe(0);
  }, 40_000);
});

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, BrowserHarness } from '../testing/browser.js';
import type { ToolListEntry } from './tool-list-entry.js';

const harness = new BrowserHarness();
beforeAll(() => harness.start());
afterAll(() => harness.stop());

/** Noon UTC, so the date is the same in every time zone a test machine may have. */
const MAY_12_2026 = Date.UTC(2026, 4, 12, 12);

const ENTRIES: ToolListEntry[] = [
  {
    tool: {
      name: 'files__read_file',
      title: 'Read file',
      description: 'Reads a file from the workspace.',
      origin: { kind: 'mcp', serverId: 'files', originalName: 'read_file' },
      visibility: ['model', 'app'],
    },
    risk: { tier: 'low', unverified: false },
    decision: { id: 'dec-read', effect: 'allow', expiresAt: MAY_12_2026 },
  },
  {
    tool: {
      name: 'web__fetch',
      origin: { kind: 'mcp', serverId: 'web', originalName: 'fetch' },
      visibility: ['model'],
    },
    risk: { tier: 'medium', unverified: true },
  },
  {
    tool: {
      name: 'files__delete_file',
      title: 'Delete file',
      origin: { kind: 'mcp', serverId: 'files', originalName: 'delete_file' },
      visibility: ['model', 'user'],
    },
    risk: { tier: 'high', unverified: false },
    decision: { id: 'dec-delete', effect: 'deny', expiresAt: null },
  },
  {
    tool: { name: 'clock', description: 'The time.', origin: { kind: 'native' }, visibility: ['model', 'app', 'user'] },
    risk: { tier: 'low' },
  },
];

/** A page holding one list with `entries` set, rendered. */
async function openList(entries: readonly ToolListEntry[], options: { lang?: string; width?: number } = {}) {
  const page = await harness.open('<main><h1>Host</h1><airlock-tool-list></airlock-tool-list></main>', options);
  await setEntries(page, entries);
  return page;
}

async function setEntries(page: Page, entries: readonly ToolListEntry[]): Promise<void> {
  await page.evaluate(async (value) => {
    await customElements.whenDefined('airlock-tool-list');
    const list = document.querySelector('airlock-tool-list')!;
    list.entries = value;
    await list.updateComplete;
  }, entries);
}

/** The text of every row, whitespace collapsed, in order. */
async function rowTexts(page: Page): Promise<string[]> {
  const texts = await page.locator('airlock-tool-list li').allTextContents();
  return texts.map((t) => t.replace(/\s+/g, ' ').trim());
}

describe('<airlock-tool-list>', () => {
  it('groups the tools by server, in the order the servers first appear, native tools under their own heading', async () => {
    const page = await openList(ENTRIES);
    expect(await page.locator('airlock-tool-list h3').allTextContents()).toEqual([
      'files',
      'web',
      'Built into this host',
    ]);
    const groups = page.locator('airlock-tool-list .group');
    expect(await groups.nth(0).locator('.name').allTextContents()).toEqual(['files__read_file', 'files__delete_file']);
    expect(await groups.nth(1).locator('.name').allTextContents()).toEqual(['web__fetch']);
    expect(await groups.nth(2).locator('.name').allTextContents()).toEqual(['clock']);
    // Each server's tools are one list, named by its heading.
    await expect(page.getByRole('list', { name: 'files' }).getByRole('listitem').count()).resolves.toBe(2);
  });

  it('shows the display name, name, risk, visibility, stored decision and its expiry of every tool', async () => {
    const page = await openList(ENTRIES);
    const [read, remove, fetch, clock] = await rowTexts(page);
    expect(read).toContain('Read file');
    expect(read).toContain('Low risk · read-only');
    expect(read).toContain('Reads a file from the workspace.');
    expect(read).toContain('Visible to model, apps');
    expect(read).toContain('Stored decision Allowed always · Expires May 12, 2026');
    expect(remove).toContain('High risk · may modify data');
    expect(remove).toContain('Denied always · Never expires');
    expect(remove).toContain('Visible to model, you');
    // No title: the server's own name for the tool is the display name; untrusted hints say so.
    expect(fetch).toMatch(/^fetch web__fetch Medium risk Unverified hints from an untrusted server/);
    expect(fetch).toContain('No stored decision');
    expect(clock).toContain('Visible to model, apps, you');
    expect(await page.locator('airlock-tool-list time').first().getAttribute('datetime')).toBe(
      '2026-05-12T12:00:00.000Z',
    );
  });

  it('offers Revoke only where there is a decision, as a 48px target named after the tool', async () => {
    const page = await openList(ENTRIES);
    const buttons = page.getByRole('button');
    expect(await buttons.count()).toBe(2);
    const revoke = page.getByRole('button', { name: 'Revoke Delete file' });
    const box = await revoke.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(48);
    expect(box!.width).toBeGreaterThanOrEqual(48);
  });

  it('dispatches airlock-decision-revoke with the decision id and the tool when Revoke is pressed', async () => {
    const page = await openList(ENTRIES);
    // A string, so the test runner does not rewrite the page's own dynamic import.
    await page.evaluate(`import('/airlock-elements.js').then(({ DecisionRevokeEvent }) => {
      window.revoked = [];
      document.body.addEventListener('airlock-decision-revoke', (event) => {
        window.revoked.push({ detail: event.detail, typed: event instanceof DecisionRevokeEvent, composed: event.composed });
      });
    })`);
    await page.getByRole('button', { name: 'Revoke Delete file' }).click();
    const revoked = await page.evaluate(() => (window as unknown as { revoked: unknown[] }).revoked);
    expect(revoked).toEqual([
      { detail: { decisionId: 'dec-delete', tool: 'files__delete_file' }, typed: true, composed: true },
    ]);
  });

  it('names an allow for one conversation as such, in either language', async () => {
    const inConversation = { id: 'dec-conv', effect: 'allow' as const, expiresAt: null, conversationId: 'main' };
    const page = await openList([{ ...ENTRIES[2]!, decision: inConversation }]);
    expect(await rowTexts(page)).toEqual([expect.stringContaining('Allowed in one conversation · Never expires')]);
    const pt = await openList([{ ...ENTRIES[2]!, decision: inConversation }], { lang: 'pt-BR' });
    expect(await rowTexts(pt)).toEqual([expect.stringContaining('Permitida em uma conversa · Não expira')]);
  });

  it('shows the new state once the host hands it new entries after a revoke', async () => {
    const page = await openList(ENTRIES);
    await setEntries(page, [{ ...ENTRIES[2]!, decision: undefined }]);
    expect(await rowTexts(page)).toEqual([expect.stringContaining('No stored decision')]);
    expect(await page.getByRole('button').count()).toBe(0);
  });

  it('says so when no tool is exposed', async () => {
    const page = await openList([]);
    expect(await page.locator('airlock-tool-list').getByText('No tools are exposed to the model.').isVisible()).toBe(
      true,
    );
    expect(await page.locator('airlock-tool-list li').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('speaks Brazilian Portuguese, dates included, under lang="pt-BR"', async () => {
    const page = await openList(ENTRIES, { lang: 'pt-BR' });
    expect(await page.locator('airlock-tool-list h2').textContent()).toBe('Ferramentas expostas ao modelo');
    const [read, remove] = await rowTexts(page);
    expect(read).toContain('Risco baixo · somente leitura');
    expect(read).toContain('Visível para modelo e apps');
    expect(read).toContain('Decisão salva Permitida sempre · Expira em 12 de maio de 2026');
    expect(remove).toContain('Negada sempre · Não expira');
    expect(await page.getByRole('button', { name: 'Revogar Delete file' }).count()).toBe(1);
    await setEntries(page, []);
    expect(await page.locator('airlock-tool-list .empty').textContent()).toBe('Nenhuma ferramenta exposta ao modelo.');
  });

  it('has no axe violations, wide and narrow', async () => {
    for (const width of [1024, 360]) {
      const page = await openList(ENTRIES, { width });
      expect(await axeViolations(page)).toEqual([]);
    }
  });

  it('keeps to AA contrast under every preset, light and dark', async () => {
    const page = await openList(ENTRIES);
    const failures: string[] = [];
    for (const preset of await page.evaluate<string[]>(
      `import('/airlock-elements.js').then((m) => [...m.PRESET_NAMES])`,
    )) {
      for (const mode of ['light', 'dark']) {
        await page.evaluate(
          `import('/airlock-elements.js').then((m) => m.applyPreset(document.documentElement, '${preset}', '${mode}'))`,
        );
        const found = await axeViolations(page, 'airlock-tool-list');
        failures.push(...found.map((v) => `${preset} ${mode}: ${v}`));
      }
    }
    expect(failures).toEqual([]);
  });

  it('renders server text as text: HTML in a description, title or name never runs', async () => {
    const attack = '<img src=x onerror="window.__xss++"><b>bold</b>';
    const page = await harness.open('<main><h1>Host</h1><airlock-tool-list></airlock-tool-list></main>');
    await page.evaluate(() => ((window as unknown as { __xss: number }).__xss = 0));
    await setEntries(page, [
      {
        tool: {
          name: `evil__${attack}`,
          title: attack,
          description: attack,
          origin: { kind: 'mcp', serverId: attack, originalName: attack },
          visibility: ['model'],
        },
        risk: { tier: 'high' },
        decision: { id: attack, effect: 'allow', expiresAt: null },
      },
    ]);
    expect(await page.evaluate(() => (window as unknown as { __xss: number }).__xss)).toBe(0);
    // A control: the same markup put in as HTML does run, and an image the list had made would have failed first.
    await page.evaluate((html) => document.body.insertAdjacentHTML('beforeend', html), attack);
    await page.waitForFunction(() => (window as unknown as { __xss: number }).__xss >= 1);
    expect(await page.evaluate(() => (window as unknown as { __xss: number }).__xss)).toBe(1);
    expect(await page.locator('airlock-tool-list img, airlock-tool-list b').count()).toBe(0);
    expect(await page.locator('airlock-tool-list .description').textContent()).toBe(attack);
    expect(await page.locator('airlock-tool-list h3').textContent()).toBe(attack);
  });
});

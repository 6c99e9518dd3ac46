// R9 on the modal elements: the permission sheet draws the preset named by data-airlock-preset, like the tool card.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionRequest } from '@airlock/core';
import { axeViolations, BrowserHarness } from '../testing/browser.js';

const harness = new BrowserHarness();
beforeAll(() => harness.start());
afterAll(() => harness.stop());

const REQUEST: PermissionRequest = {
  invocationId: 'inv-1',
  scope: { userId: 'ana', workspaceId: 'w', conversationId: 'c' },
  caller: { kind: 'model' },
  tool: {
    name: 'notes__search',
    displayName: 'Search notes',
    originalName: 'search',
    annotations: { readOnlyHint: true },
  },
  server: { id: 'notes', trusted: true },
  args: { query: 'x' },
  argsHash: 'h',
  risk: { tier: 'low', destructive: false, unverified: false, reasons: ['read-only'] },
  allowAlways: { offered: true },
  allowConversation: { offered: true },
  defaultAction: 'allow_once',
  renewal: false,
};

describe('<airlock-permission-sheet> presets', () => {
  it('draws brutalist, terminal_classic and cyberpunk_neon from data-airlock-preset, axe clean in each', async () => {
    const page = await harness.open('<airlock-permission-sheet></airlock-permission-sheet>');
    await page.evaluate(async (request) => {
      const sheet = document.querySelector('airlock-permission-sheet')!;
      sheet.request = request;
      sheet.show();
      await sheet.updateComplete;
    }, REQUEST);
    const look = () =>
      page.evaluate(() => {
        const dialog = document.querySelector('airlock-permission-sheet')!.shadowRoot!.querySelector('dialog')!;
        const style = getComputedStyle(dialog);
        return {
          border: style.borderTopWidth,
          radius: style.borderTopLeftRadius,
          font: style.fontFamily,
          image: style.backgroundImage,
        };
      });
    const apply = async (name: string) => {
      await page.addScriptTag({
        type: 'module',
        content: `import { applyPreset } from '/airlock-elements.js'; applyPreset(document.documentElement, '${name}', 'light');`,
      });
      await page.locator(`airlock-permission-sheet[data-preset="${name}"]`).waitFor({ state: 'attached' });
    };
    await apply('brutalist');
    expect(await look()).toMatchObject({ border: '2px', radius: '0px' });
    expect(await axeViolations(page, 'airlock-permission-sheet')).toEqual([]);
    await apply('terminal_classic');
    expect((await look()).font).toMatch(/mono/i);
    expect(await axeViolations(page, 'airlock-permission-sheet')).toEqual([]);
    await apply('cyberpunk_neon');
    expect((await look()).image).toMatch(/^linear-gradient/);
    expect(await axeViolations(page, 'airlock-permission-sheet')).toEqual([]);
  });
});

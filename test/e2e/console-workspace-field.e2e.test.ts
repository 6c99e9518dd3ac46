// The workspace field on a phone (390 px), in Chromium, in English and Portuguese: it shows a workspace name of a
// dozen letters whole (it showed five), its Switch button is an arrow that still says "Switch" to a screen reader
// and still switches; on a desktop the button keeps its word.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { consoleInChromium, DEMO_SERVER } from './console-in-chromium.js';

const stage = consoleInChromium('airlock-workspace-field-', () => ({ mcpServers: { demo: DEMO_SERVER } }));

/** Signed in at a width and in a language, to the workspace `research-lab`. */
async function signedIn(width: number, locale: string): Promise<Page> {
  const context = await stage.browser.newContext({ viewport: { width, height: 800 }, locale, colorScheme: 'light' });
  stage.contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(stage.running.url);
  await page.locator('input[name="user"]').fill('ivy');
  await page.locator('input[name="workspace"]').fill('research-lab');
  await page.locator('input[name="user"]').press('Enter');
  await page.locator('#cards-title').waitFor();
  return page;
}

const field = (page: Page) => page.locator('.who input[name="workspace"]');

describe('the workspace field on a phone (390 px)', () => {
  for (const [locale, word] of [
    ['en-US', 'Switch'],
    ['pt-BR', 'Trocar'],
  ] as const) {
    it(`shows a twelve-letter workspace whole, and its arrow switches (${locale})`, async () => {
      const page = await signedIn(390, locale);
      expect(await field(page).inputValue()).toBe('research-lab');
      // The whole name is in view: nothing of it scrolls out of the field.
      const fits = await field(page).evaluate((input) => input.scrollWidth <= input.clientWidth);
      expect(fits).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      const button = page.getByRole('button', { name: word, exact: true });
      expect(await button.isVisible()).toBe(true);
      await field(page).fill('field-team');
      await button.click();
      await expect.poll(() => field(page).inputValue()).toBe('field-team');
      await page.locator('#cards-title').waitFor();
    });
  }
});

describe('the workspace field on a desktop (1280 px)', () => {
  it('keeps the word on its Switch button', async () => {
    const page = await signedIn(1280, 'en-US');
    expect(await page.locator('.who .switch-label').isVisible()).toBe(true);
    expect(await page.locator('.who .switch .arrow').isVisible()).toBe(false);
  });
});

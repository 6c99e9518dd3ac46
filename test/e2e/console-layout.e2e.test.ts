// The console's layout in a real Chromium at a desktop width (1280 px) and a phone's (390 px), light mode, against
// the demo server: the server panel's facts read as lines of words, not a letter per line, and the panel stays a
// panel's height; on a phone nothing scrolls sideways, every page of the nav is in reach, the top bar takes two rows
// and the sign-in card keeps a margin on each side; Enter in the sign-in form signs in.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe-violations.js';
import { consoleInChromium, DEMO_SERVER } from './console-in-chromium.js';

const stage = consoleInChromium('airlock-console-layout-', () => ({ mcpServers: { demo: DEMO_SERVER } }));

/** The sign-in page at a width, light mode; the test adds axe, which the console's CSP would refuse. */
async function signInPage(width: number, locale = 'en-US'): Promise<Page> {
  const context = await stage.browser.newContext({
    colorScheme: 'light',
    viewport: { width, height: 900 },
    bypassCSP: true,
    locale,
  });
  stage.contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(stage.running.url);
  await page.locator('input[name="user"]').waitFor();
  return page;
}

async function signedIn(width: number, userId: string, locale = 'en-US'): Promise<Page> {
  const page = await signInPage(width, locale);
  await page.locator('input[name="user"]').fill(userId);
  await page.locator('form wa-button[type="submit"]').click();
  await page.locator('#cards-title').waitFor();
  return page;
}

/** The rows a set of boxes sits in: boxes whose vertical spans overlap share a row. */
function rowsOf(boxes: readonly { top: number; bottom: number }[]): number {
  const rows: { top: number; bottom: number }[] = [];
  for (const box of [...boxes].sort((a, b) => a.top - b.top)) {
    const row = rows.find((r) => box.top < r.bottom && box.bottom > r.top);
    if (row === undefined) rows.push({ ...box });
    else row.bottom = Math.max(row.bottom, box.bottom);
  }
  return rows.length;
}

describe('the server panel', () => {
  for (const width of [1280, 390]) {
    it(`reads each fact of the demo server as words on a line at ${width} px, in a panel of bounded height`, async () => {
      const page = await signedIn(width, `reader${width}`);
      const servers = page.locator('details.panel:has(#servers-title)');
      if (!(await servers.evaluate((d) => (d as HTMLDetailsElement).open))) await servers.locator('> summary').click();
      const demo = page.locator('li[data-server="demo"]');
      await demo.locator('details.server-about > summary').click();
      await expect.poll(() => demo.locator('[data-counts]').textContent()).toMatch(/\d+ tools/);
      // One character per line was ~24 px wide; a fact's value now has the panel's width to itself.
      const widths = await demo
        .locator('.server-about dd')
        .evaluateAll((dds) => dds.map((dd) => dd.getBoundingClientRect().width));
      expect(widths.length).toBeGreaterThanOrEqual(5);
      for (const w of widths) expect(w).toBeGreaterThan(200);
      // "resources, tools" on one line; the instructions (about 100 characters) in a few lines, not a hundred.
      const capabilities = demo.locator('[data-capabilities]');
      const lineHeight = await capabilities.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
      expect(await capabilities.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(lineHeight * 1.5);
      const instructions = demo.locator('pre.server-instructions');
      expect(await instructions.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(120);
      // The whole opened panel, 24 tools' switches included, stays within a screen and a half (it was ~7,400 px).
      expect(await demo.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(1400);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});

describe('a phone (390 px)', () => {
  for (const locale of ['en-US', 'pt-BR']) {
    it(`has no sideways scroll, every page of the nav in reach and a two-row top bar (${locale})`, async () => {
      const page = await signedIn(390, locale === 'en-US' ? 'ivy' : 'ines', locale);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const links = page.locator('header.top nav a');
      expect(await links.count()).toBe(4);
      for (const link of await links.all()) {
        const box = (await link.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(390);
        // Nothing covers it: the point at its centre is the link itself.
        const hit = await page.evaluate(
          ({ x, y }) => document.elementFromPoint(x, y)?.closest('a')?.getAttribute('href') ?? null,
          { x: box.x + box.width / 2, y: box.y + box.height / 2 },
        );
        expect(hit).toBe(await link.getAttribute('href'));
      }
      const parts = await page
        .locator('header.top > *')
        .evaluateAll((els) =>
          els.map((el) => ({ top: el.getBoundingClientRect().top, bottom: el.getBoundingClientRect().bottom })),
        );
      expect(rowsOf(parts)).toBeLessThanOrEqual(2);
      await page.locator('header.top nav a[href="#/resources"]').click();
      await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/resources');
      expect(await axeViolations(page)).toEqual([]);
    });
  }

  it('keeps the sign-in card off the edges of the screen', async () => {
    const page = await signInPage(390);
    const card = (await page.locator('main.signin').boundingBox())!;
    expect(card.x).toBeGreaterThanOrEqual(12);
    expect(390 - (card.x + card.width)).toBeGreaterThanOrEqual(12);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('a phone (390 px) with a long name', () => {
  it('ellipsises the name before the workspace field slides under its Switch button', async () => {
    const page = await signedIn(390, 'maximiliana-long-name', 'en-US');
    const field = (await page.locator('.who input[name="workspace"]').boundingBox())!;
    const button = (await page.locator('.who form button, .who form wa-button').first().boundingBox())!;
    expect(field.x + field.width).toBeLessThanOrEqual(button.x);
    expect(field.width).toBeGreaterThanOrEqual(45);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

describe('a desktop (1280 px)', () => {
  it.each(['en-US', 'pt-BR'])('has the top bar on one row and no sideways scroll (%s)', async (locale) => {
    const page = await signedIn(1280, 'dora', locale);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    const parts = await page
      .locator('header.top > *')
      .evaluateAll((els) =>
        els.map((el) => ({ top: el.getBoundingClientRect().top, bottom: el.getBoundingClientRect().bottom })),
      );
    expect(rowsOf(parts)).toBe(1);
  });
});

describe('the sign-in form', () => {
  it('signs in on Enter in either field', async () => {
    for (const field of ['user', 'workspace']) {
      const page = await signInPage(1280);
      await page.locator('input[name="user"]').fill(`enter-${field}`);
      await page.locator(`input[name="${field}"]`).press('Enter');
      await page.locator('#cards-title').waitFor();
      expect(await page.locator('.who strong').textContent()).toBe(`enter-${field}`);
    }
  });
});

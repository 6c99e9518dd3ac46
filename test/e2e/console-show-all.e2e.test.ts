// Seed 000 R4 in the console: a 1 MB result keeps the card's screen payload bounded (the host cut it to 100,000
// characters), and "show all" reads the whole text of that block behind the handle, so the card shows every line.
// In a real Chromium against the demo server over stdio.
import { describe, expect, it } from 'vitest';
import { signedInPage } from './signed-in-page.js';
import { consoleInChromium, DEMO_SERVER } from './console-in-chromium.js';

const stage = consoleInChromium('airlock-console-show-all-', () => ({ mcpServers: { demo: DEMO_SERVER } }));

describe('show all on a result the host cut for the screen', () => {
  it('shows the whole 1,000,000 characters of the block after "show all", and only 100,000 before', async () => {
    const page = await signedInPage(stage.browser, stage.running.url, { contexts: stage.contexts });
    await page.locator('form.launcher select[name="tool"]').selectOption('demo__huge_output');
    await page.locator('#arg-megabytes').fill('1');
    await page.locator('form.launcher wa-button[type="submit"]').click();
    await page.locator('airlock-permission-sheet button[data-decision="allow_once"]').click();
    const card = page.locator('li[data-invocation][data-state="success"] airlock-tool-card').first();
    const block = card.locator('.block.text');
    const length = () => block.locator('pre, .plain-text, .markdown').evaluate((el) => el.textContent?.length ?? 0);
    await block.locator('[data-action=show-all]').waitFor();
    expect(await length()).toBeLessThanOrEqual(100_000);
    await block.locator('[data-action=show-all]').click();
    await block.locator('[data-action=show-all]').waitFor({ state: 'detached' });
    expect(await length()).toBe(1_000_000);
  }, 60_000);

  it('brings "show all" back with the reason when the whole text cannot be read, and a second press reads it', async () => {
    const page = await signedInPage(stage.browser, stage.running.url, {
      contexts: stage.contexts,
      name: 'bo',
      contextOptions: { viewport: { width: 390, height: 900 } },
    });
    // The first read of the block fails as a console that lost its store would answer; the next goes through.
    let failures = 0;
    await page.route('**/api/invocations/*/blocks/*', async (route) => {
      if (failures++ > 0) return route.continue();
      await route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'store_unreachable', message: 'the history store is unreachable' } }),
      });
    });
    await page.locator('form.launcher select[name="tool"]').selectOption('demo__huge_output');
    await page.locator('#arg-megabytes').fill('1');
    await page.locator('form.launcher wa-button[type="submit"]').click();
    await page.locator('airlock-permission-sheet button[data-decision="allow_once"]').click();
    const block = page
      .locator('li[data-invocation][data-state="success"] airlock-tool-card')
      .first()
      .locator('.block.text');
    const showAll = block.locator('[data-action=show-all]');
    await showAll.click();
    const failed = block.locator('.show-all-failed[role=alert]');
    await failed.waitFor();
    expect(await failed.innerText()).toBe('The whole text could not be loaded: the history store is unreachable');
    expect(await block.locator('.loading-all').innerText()).toBe('');
    expect(await showAll.isEnabled()).toBe(true);
    const box = await failed.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);

    await showAll.click();
    await showAll.waitFor({ state: 'detached' });
    expect(await failed.count()).toBe(0);
    expect(await block.locator('pre, .plain-text, .markdown').evaluate((el) => el.textContent?.length ?? 0)).toBe(
      1_000_000,
    );
  }, 60_000);
});

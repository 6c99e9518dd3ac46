// Issue 39 item 5 in a real Chromium at 390 px: a new card lands under the older ones, so each call started from the
// launcher (allowed at once by a rule: no sheet, nothing else on the page moves) must be brought into view, not drawn
// below the fold unseen.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedInPage } from './signed-in-page.js';
import { consoleInChromium, DEMO_SERVER } from './console-in-chromium.js';

const stage = consoleInChromium('airlock-console-new-card-', () => ({
  mcpServers: { demo: DEMO_SERVER },
  more: () => ({ rules: [{ effect: 'allow', layer: 'host', server: 'demo', tool: 'echo', source: 'new card test' }] }),
}));

/** Starts an echo call from the launcher and answers the new card's id once it has ended. */
async function launchEcho(page: Page, text: string): Promise<string> {
  const known = await page.$$eval('li[data-invocation]', (items) => items.map((li) => li.dataset['invocation']));
  await page.locator('form.launcher select[name="tool"]').selectOption('demo__echo');
  await page.locator('#arg-text').fill(text);
  await page.locator('form.launcher wa-button[type="submit"]').click();
  const id = (await (
    await page.waitForFunction(
      (before) =>
        [...document.querySelectorAll<HTMLElement>('li[data-invocation]')]
          .map((li) => li.dataset['invocation'])
          .find((found) => !before.includes(found)),
      known,
    )
  ).jsonValue()) as string;
  await page.locator(`li[data-invocation="${id}"] airlock-tool-card article[data-state="success"]`).waitFor();
  return id;
}

/** Whether any part of the card is inside the window. */
const inView = (page: Page, id: string) =>
  page.locator(`li[data-invocation="${id}"]`).evaluate((li) => {
    const box = li.getBoundingClientRect();
    return box.top < window.innerHeight && box.bottom > 0;
  });

describe('a new card on a phone', () => {
  it('is brought into view each time a call starts, however many cards are above it', async () => {
    const page = await signedInPage(stage.browser, stage.running.url, {
      contexts: stage.contexts,
      contextOptions: { viewport: { width: 390, height: 700 } },
    });
    for (let n = 1; n <= 5; n++) {
      const id = await launchEcho(page, `call ${n}`);
      expect(await inView(page, id), `call ${n}`).toBe(true);
    }
    // The last card is far below the launcher: the page scrolled to it.
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  });
});

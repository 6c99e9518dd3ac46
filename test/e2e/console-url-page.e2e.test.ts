// Seed 001 R3 and R2/T6 in a real Chromium: the page a URL question opens is a tab of its own, without a way back to
// the console (opener cut); the server's completion notice (notifications/elicitation/complete) and the user's Cancel
// close the dialog. Chromium does not let the console close that tab once it shows another origin: its opener is cut.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedInPage } from './signed-in-page.js';
import { consoleInChromium, DEMO_SERVER } from './console-in-chromium.js';

const stage = consoleInChromium('airlock-console-url-page-', () => ({ mcpServers: { demo: DEMO_SERVER } }));

/** Calls a tool by hand, allows it once, and opens the page its URL question names; resolves with the new tab. */
async function openThePage(page: Page, tool: string, fields: Record<string, string> = {}): Promise<Page> {
  await page.locator('form.launcher select[name="tool"]').selectOption(tool);
  for (const [name, value] of Object.entries(fields)) await page.locator(`#arg-${name}`).fill(value);
  await page.locator('form.launcher wa-button[type="submit"]').click();
  await page.locator('airlock-permission-sheet button[data-decision="allow_once"]').click();
  const open = page.locator('airlock-elicitation-dialog button[part~="action-open"]');
  await open.waitFor();
  const tab = page.context().waitForEvent('page');
  await open.click();
  return tab;
}

const dialogOpen = (page: Page) => page.locator('airlock-elicitation-dialog[open]').count();

describe('the page a URL question opened', () => {
  it('leaves the dialog when the server says the flow is done', async () => {
    const page = await signedInPage(stage.browser, stage.running.url, { contexts: stage.contexts, name: 'ana' });
    await openThePage(page, 'demo__connect_account');
    // The demo completes the flow as soon as the user accepted (notifications/elicitation/complete).
    await expect.poll(() => dialogOpen(page)).toBe(0);
    await page.locator('li[data-invocation][data-state="success"]').waitFor();
  });

  it('is a tab with no way back to the console; Cancel ends the flow in the console', async () => {
    const page = await signedInPage(stage.browser, stage.running.url, { contexts: stage.contexts, name: 'bea' });
    // The demo's connection completes ten minutes after its refusal: the flow stays open while the test runs.
    const tab = await openThePage(page, 'demo__connect_required', { completeAfterMs: '600000' });
    // Asked again while the tab navigates (an evaluation cut short by the navigation answers nothing).
    const cut = () => tab.evaluate(() => window.opener === null).catch(() => undefined);
    await expect.poll(cut).toBe(true);
    // The user comes back to the console's tab (a tab in the background draws no frames to click in).
    await page.bringToFront();
    await page.locator('airlock-elicitation-dialog button[part~="action-cancel"]').click();
    await expect.poll(() => dialogOpen(page)).toBe(0);
  });
});

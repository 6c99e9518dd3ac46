// Issue 39 item 4 in a real Chromium: the console's permission sheet offers "Allow for this conversation"; picked,
// the next call of the tool in the page's conversation runs without a sheet, the permissions page lists the allow
// with its conversation, another conversation of the same user would still be asked, and Revoke makes the page ask
// again.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedInPage } from './signed-in-page.js';
import { consoleInChromium, DEMO_SERVER } from './console-in-chromium.js';

const stage = consoleInChromium('airlock-console-grain-', () => ({ mcpServers: { demo: DEMO_SERVER } }));

/** Starts an echo call from the launcher and answers the new card's id. */
async function launchEcho(page: Page, text: string): Promise<string> {
  const known = await page.$$eval('li[data-invocation]', (items) => items.map((li) => li.dataset['invocation']));
  await page.locator('form.launcher select[name="tool"]').selectOption('demo__echo');
  await page.locator('#arg-text').fill(text);
  await page.locator('form.launcher wa-button[type="submit"]').click();
  return (await (
    await page.waitForFunction(
      (before) =>
        [...document.querySelectorAll<HTMLElement>('li[data-invocation]')]
          .map((li) => li.dataset['invocation'])
          .find((found) => !before.includes(found)),
      known,
    )
  ).jsonValue()) as string;
}

const ended = (page: Page, id: string, state: string) =>
  page.locator(`li[data-invocation="${id}"] airlock-tool-card article[data-state="${state}"]`).waitFor();

const sheetOpen = (page: Page) =>
  page.evaluate(() => document.querySelector('airlock-permission-sheet')?.hasAttribute('open') === true);

describe('allow for this conversation in the console', () => {
  it('is offered by the sheet, spares the next call its sheet, and is listed and revoked', async () => {
    const page = await signedInPage(stage.browser, stage.running.url, { contexts: stage.contexts });
    const first = await launchEcho(page, 'first');
    const grain = page.locator('airlock-permission-sheet button[data-decision="allow_conversation"]');
    await expect(grain.innerText()).resolves.toBe('Allow for this conversation');
    await grain.click();
    await ended(page, first, 'success');

    const second = await launchEcho(page, 'second, other arguments');
    await ended(page, second, 'success');
    expect(await sheetOpen(page)).toBe(false);
    const scope = { userId: 'ana', workspaceId: 'default' };
    expect(
      stage.running.host.permissions.explain({ scope: { ...scope, conversationId: 'other' }, tool: 'demo__echo' }),
    ).toMatchObject({ decision: 'ask' });

    await page.getByRole('link', { name: 'Permissions' }).click();
    const row = page.locator('tr[data-decision]');
    await expect(row.innerText()).resolves.toMatch(/echo[\s\S]*Allow in conversation “main”/);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.locator('tr[data-decision]').waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Conversation' }).click();
    await launchEcho(page, 'after the revoke');
    await page.locator('airlock-permission-sheet button[data-decision="allow_once"]').waitFor();
    expect(await sheetOpen(page)).toBe(true);
  });
});

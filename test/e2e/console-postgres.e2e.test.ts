// Two consoles on one PostgreSQL database (a real server, started by test/support/postgres), and the page of one of
// them in a real Chromium: a call started on instance A asks for permission on the sheet of the page served by
// instance B; Allow once clicked there runs the call on A, and the sheet closes.
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../packages/elements/src/testing/browser.js';
import { PostgresConsoles } from '../../apps/console/src/testing/postgres-consoles.js';
import { ConsoleClient } from '../../apps/console/src/testing/console-client.js';

const consoles = new PostgresConsoles('postgres e2e');
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  await consoles.start();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await consoles.close();
});

describe("a permission question answered on another instance's page", () => {
  it('shows the question of a call on A on the sheet of B, and Allow once there runs the call on A', async () => {
    const [a, b] = await consoles.pair();

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => {
      throw error;
    });
    await page.goto(b.url);
    await page.getByLabel('Your name').fill('ana');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#cards-title').waitFor();

    const onA = await ConsoleClient.signIn(a.url, { userId: 'ana' });
    const tabA = await onA.openEvents();
    consoles.track(tabA);
    const id = await onA.startCall('demo__echo', { text: 'asked on a, answered in b' });

    const allow = page.locator('airlock-permission-sheet button[data-decision="allow_once"]');
    await allow.click();
    expect((await tabA.waitForEnd(id)).invocation.state).toBe('success');
    await page.locator('airlock-permission-sheet:not([open])').waitFor({ state: 'attached' });
    expect(await page.locator('airlock-permission-sheet').getAttribute('open')).toBeNull();
    const late = await onA.post(`/api/permission-requests/${id}`, { decision: 'deny_once' });
    expect(late.status).toBe(409);
  }, 90_000);
});

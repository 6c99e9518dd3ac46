// The page's model keys in a real Chromium, at 1280 and 390 px: a model with keyFrom "user" and no key from the
// environment opens the control saying a key is needed; a key kept there is sent by the chat's next turn to the fake
// OpenAI-compatible model (the one edge the console does not own), and never reaches the page again; Forget removes it.
// With AIRLOCK_SCREENSHOTS=<dir> it writes the control at both widths there.
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConsoleConfig, startConsole } from '@airlock/console';
import type { RunningConsole } from '@airlock/console';
import { axeViolations } from './axe-violations.js';
import { startMockOpenAI } from './mock-openai.js';
import { signedInPage } from './signed-in-page.js';
import { chromiumPages } from './console-in-chromium.js';

const SHOTS = process.env['AIRLOCK_SCREENSHOTS'] || undefined;
const KEY = 'sk-page-0123456789';

let dir: string;
let running: RunningConsole;
let mock: Awaited<ReturnType<typeof startMockOpenAI>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'airlock-console-model-keys-page-'));
  mock = await startMockOpenAI([{ text: () => 'Hello with your key.' }]);
  const path = join(dir, 'airlock.config.json');
  writeFileSync(
    path,
    JSON.stringify({
      servers: {},
      model: {
        baseURL: mock.baseURL,
        model: 'mock-model',
        keyFrom: 'user',
        choices: [{ label: 'Small', model: 'small-model' }],
      },
    }),
  );
  running = await startConsole(loadConsoleConfig({ config: path, port: 0, store: join(dir, 'console.db') }, {}));
}, 60_000);

afterAll(async () => {
  await running?.close();
  await mock?.close();
  await rm(dir, { recursive: true, force: true });
});

const pages = chromiumPages();

/** Every body the console's API sent this page, to show the key never comes back. */
function apiBodies(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/api/')) {
      void response.text().then(
        (text) => bodies.push(text),
        () => undefined,
      );
    }
  });
  return bodies;
}

describe("the page's model keys", () => {
  it('keeps a key for the chat, never shows it back, and forgets it', async () => {
    const page = await signedInPage(pages.browser, running.url, {
      contexts: pages.contexts,
      contextOptions: { bypassCSP: true },
    });
    const bodies = apiBodies(page);
    const control = page.locator('details.model-keys');
    await expect.poll(() => control.getAttribute('open')).toBe('');
    await expect.poll(() => control.locator('summary').textContent()).toContain('1 needed');
    // Both models are at the one endpoint: one key serves them both, in one row.
    const field = page.getByLabel(`API key for mock-model, Small (${new URL(mock.baseURL).host})`);
    expect(await control.locator('form').count()).toBe(1);
    expect(await control.getByText('Needed to chat with this model.').count()).toBe(1);

    await field.fill(KEY);
    await control.locator('form[data-model="0"]').getByRole('button', { name: 'Keep key' }).click();
    const state = control.locator('form[data-model="0"] .input-state');
    await expect.poll(() => state.textContent()).toContain('Your key is kept');
    expect(await field.inputValue()).toBe('');
    await expect.poll(() => control.locator('summary .count').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    await page.locator('#chat-message').fill('Hello');
    // The other model at that endpoint: it sends the key kept for it.
    await page.locator('select[name="model"]').selectOption({ label: 'Small' });
    await page.locator('#chat-message').press('Enter');
    await expect.poll(() => mock.authorizations.length).toBe(1);
    expect(mock.authorizations[0]).toBe(`Bearer ${KEY}`);
    expect(mock.requests[0]?.model).toBe('small-model');
    await page.getByText('Hello with your key.').waitFor();

    if (SHOTS !== undefined) {
      mkdirSync(SHOTS, { recursive: true });
      await control.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'model-keys-1280.png'), fullPage: true });
    }

    await control.locator('form[data-model="0"]').getByRole('button', { name: 'Forget' }).click();
    await expect.poll(() => state.textContent()).toContain('No key of yours');
    await page.reload();
    await page.locator('details.model-keys').waitFor();
    expect(await page.content()).not.toContain(KEY);
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) expect(body).not.toContain(KEY);
  });

  it('fits a 390 px screen without sideways scrolling', async () => {
    const page = await signedInPage(pages.browser, running.url, {
      contexts: pages.contexts,
      name: 'bea',
      contextOptions: { bypassCSP: true, viewport: { width: 390, height: 844 } },
    });
    const control = page.locator('details.model-keys');
    await expect.poll(() => control.getAttribute('open')).toBe('');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const box = await control.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    if (SHOTS !== undefined) {
      mkdirSync(SHOTS, { recursive: true });
      await control.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'model-keys-390.png'), fullPage: true });
    }
  });
});

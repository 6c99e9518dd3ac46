import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../packages/elements/src/testing/browser.js';

// examples/web-app as a user runs it: `node examples/web-app/server.mjs`, then the page in Chromium. A call asked for
// on the page shows as a card, the permission sheet asks before it runs, and the answer decides it.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

let example: ChildProcess;
let origin: string;
let browser: Browser;
let page: Page;
/** What the page threw, checked after each test. */
const pageErrors: string[] = [];

beforeAll(async () => {
  example = spawn(process.execPath, [join(ROOT, 'examples/web-app/server.mjs')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  example.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  origin = await new Promise<string>((found, failed) => {
    example.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const address = /listening on (http:\/\/\S+)\//.exec(output)?.[1];
      if (address !== undefined) found(address);
    });
    example.once('exit', (code) => failed(new Error(`the example exited (${code}) before listening:\n${output}`)));
  });
  browser = await launchChromium();
  page = await (await browser.newContext()).newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${origin}/`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (example !== undefined && example.exitCode === null) {
    const exited = once(example, 'exit');
    example.kill('SIGTERM');
    await exited;
  }
});

afterEach(() => expect(pageErrors.splice(0)).toEqual([]));

/** Asks the page for one echo call and waits for its card and the sheet that asks about it. */
async function askFor(text: string): Promise<void> {
  await page.getByLabel("Text for the demo server's echo").fill(text);
  await page.getByRole('button', { name: 'Call echo' }).click();
  await page.locator('airlock-permission-sheet button[data-decision="allow_once"]').waitFor();
}

describe('the web app example, in Chromium', () => {
  it('shows the card, asks in the sheet, and runs the call once allowed', async () => {
    await askFor('hello from the test');
    const card = page.locator('#cards airlock-tool-card').first();
    await card.locator('article[data-state="pending"]').waitFor();
    await expect(page.locator('airlock-permission-sheet dialog').innerText()).resolves.toContain('echo');

    await page.locator('airlock-permission-sheet button[data-decision="allow_once"]').click();
    await card.locator('article[data-state="success"]').waitFor();
    await expect(card.locator('article').innerText()).resolves.toContain('hello from the test');
    await expect(page.locator('airlock-permission-sheet[open]').count()).resolves.toBe(0);
  });

  it('ends the call as denied when the person says no', async () => {
    await askFor('not this one');
    const card = page.locator('#cards airlock-tool-card').nth(1);
    await page.locator('airlock-permission-sheet button[data-decision="deny_once"]').click();
    await card.locator('article[data-state="denied"]').waitFor();
  });

  it('shows a reloaded page the question still open, and answers it from there', async () => {
    await askFor('after a reload');
    await page.reload();
    await page.locator('airlock-permission-sheet button[data-decision="allow_once"]').waitFor();
    await page.locator('airlock-permission-sheet button[data-decision="allow_once"]').click();
    const card = page.locator('#cards airlock-tool-card').first();
    await card.locator('article[data-state="success"]').waitFor();
    await expect(card.locator('article').innerText()).resolves.toContain('after a reload');
  });
});

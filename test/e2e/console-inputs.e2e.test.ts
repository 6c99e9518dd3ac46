// The console's input form in a real Chromium: a VS Code-style config whose server takes `${input:api-key}` in its
// environment. Without a value the server has failed, and its panel says which input it needs; an administrator
// enters the key in the server's panel (a password field), the server starts with it, and the key is never shown
// again. A user who is not an administrator sees the shared input locked, saying who sets it. The panel passes axe.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '@airlock/core/testing';
import { loadConsoleConfig, startConsole } from '@airlock/console';
import type { RunningConsole } from '@airlock/console';
import { axeViolations } from './axe-violations.js';
import { signedInPage } from './signed-in-page.js';
import { chromiumPages } from './console-in-chromium.js';

const DEMO_BIN = join(dirname(fileURLToPath(import.meta.resolve('@airlock/demo-server'))), 'bin.js');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const KEY = 'sk-live-7f3a9c';

let running: RunningConsole;

beforeAll(async () => {
  const config = join(scratchDir('airlock-console-inputs-e2e-'), 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      inputs: [{ id: 'api-key', type: 'promptString', description: 'Demo API key', password: true }],
      servers: {
        keyed: {
          command: process.execPath,
          args: [DEMO_BIN],
          env: { DEMO_API_KEY: '${input:api-key}' },
          isolation: 'shared',
        },
      },
    }),
  );
  running = await startConsole({
    ...loadConsoleConfig({ config, port: 0, store: ':memory:' }, {}),
    auth: 'token',
    users: [
      { id: 'root', tokenSha256: sha256('root-token'), admin: true },
      { id: 'ana', tokenSha256: sha256('ana-token') },
    ],
  });
  await running.host.servers.settled();
}, 60_000);

afterAll(async () => {
  await running?.close();
});

const pages = chromiumPages();

/** A signed-in page (axe is added by the test, which the console's CSP would refuse). */
function signedIn(token: string): Promise<Page> {
  return signedInPage(pages.browser, running.url, {
    contexts: pages.contexts,
    token,
    contextOptions: { bypassCSP: true },
  });
}

async function openPanel(page: Page, serverId: string): Promise<Locator> {
  const item = page.locator(`li[data-server="${serverId}"]`);
  await item.locator('details.server-about > summary').click();
  return item;
}

describe("the console's input form", () => {
  it('shows a user who is not an administrator the shared input locked, saying who sets it', async () => {
    const page = await signedIn('ana-token');
    const keyed = await openPanel(page, 'keyed');
    const form = keyed.locator('form[data-input="api-key"]');
    await form.waitFor();
    expect(await form.getByLabel(/Demo API key/).isDisabled()).toBe(true);
    expect(await form.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    expect(await form.textContent()).toContain('an administrator sets it');
  });

  it('takes the key in a password field; the server starts with it, and the key is not shown again', async () => {
    const page = await signedIn('root-token');
    const keyed = await openPanel(page, 'keyed');
    expect(await keyed.locator('.server-reason').textContent()).toContain('needs input "api-key" (Demo API key)');
    const form = keyed.locator('form[data-input="api-key"]');
    const field = form.getByLabel(/Demo API key/);
    expect(await field.getAttribute('type')).toBe('password');
    expect(await form.locator('.input-state').textContent()).toBe('Not set');
    await field.fill(KEY);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => keyed.locator('.state').textContent()).toBe('ready');
    await expect.poll(() => form.locator('.input-state').textContent()).toBe('Set');
    expect(await field.inputValue()).toBe('');
    expect(await page.content()).not.toContain(KEY);
    expect(running.host.servers.list().find((s) => s.id === 'keyed')?.state).toBe('ready');
  });

  it('passes axe with the inputs open', async () => {
    const page = await signedIn('root-token');
    const keyed = await openPanel(page, 'keyed');
    await keyed.locator('form[data-input="api-key"]').waitFor();
    const violations = await axeViolations(page);
    expect(violations).toEqual([]);
  });
});

// Signing in to a remote server from the console, in a real Chromium: a user sees the server needs sign-in, clicks
// "Sign in", logs in and consents at a real oidc-provider in the popup, whose callback page finishes and closes by itself,
// and the server is ready for them; a call reaches the server as them; "Sign out" revokes and the server needs sign-in
// again. Another user's page still shows that the server needs sign-in for them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole } from '@airlock/console';
import type { RunningConsole } from '@airlock/console';
import { launchChromium } from '../../packages/elements/src/testing/browser.js';
import { startAuthorizationServer, startProtectedMcpServer } from '../support/oauth/index.js';
import type { AuthorizationServer, ProtectedMcpServer } from '../support/oauth/index.js';
import { oauthConsoleConfig } from '../support/oauth/oauth-console-config.js';
import { signedInPage } from './signed-in-page.js';

let dir: string;
let as: AuthorizationServer;
let mcp: ProtectedMcpServer;
let running: RunningConsole;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  as = await startAuthorizationServer();
  mcp = await startProtectedMcpServer({ authorizationServer: as });
  dir = await mkdtemp(join(tmpdir(), 'airlock-e2e-sign-in-'));
  running = await startConsole(oauthConsoleConfig(mcp.url, join(dir, 'airlock.db'), 'e2e sign-in'));
  await running.host.servers.settled();
  browser = await launchChromium();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await running?.close();
  await mcp?.close();
  await as?.close();
  await rm(dir, { recursive: true, force: true });
});

function signedInAs(userId: string): Promise<Page> {
  return signedInPage(browser, running.url, { contexts, name: userId });
}

/** Posts one of the authorization server's interaction forms from the popup, as its page would. */
async function submitInteraction(popup: Page, action: 'login' | 'consent', account: string): Promise<void> {
  await popup.evaluate(
    ({ action, account }) => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = `${location.pathname}/${action}`;
      const input = document.createElement('input');
      input.name = 'account';
      input.value = account;
      form.append(input);
      document.body.append(form);
      form.submit();
    },
    { action, account },
  );
}

describe('signing in to a remote server from the console page', () => {
  it('signs in through the popup, calls as the user, and signs out', async () => {
    const page = await signedInAs('ana');
    const server = page.locator('li[data-server="notes"]');
    await expect.poll(() => server.locator('.state').textContent()).toBe('needs sign-in');
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Sign in to notes' }).click();
    const popup = await popupOpened;
    // The authorization server asks who is signing in, then for consent (its interaction prompts).
    await popup.waitForURL(/\/interaction\//);
    await submitInteraction(popup, 'login', 'ana');
    await popup.waitForURL(/\/interaction\//);
    await expect.poll(() => popup.textContent('body')).toContain('consent');
    // Back on the console, in the popup: the sign-in finishes and the popup closes with no click (issue 39 item 10).
    const finished = popup.waitForResponse(
      (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/oauth/callback',
    );
    const closed = popup.waitForEvent('close');
    await submitInteraction(popup, 'consent', 'ana');
    const finish = await finished;
    expect(finish.status()).toBe(200);
    // The page closes itself at once, so its body may be gone before it can be read: the status says it all.
    await closed;
    await expect.poll(() => server.locator('.state').textContent()).toBe('ready');

    // Another user still has to sign in for themselves.
    const ben = await signedInAs('ben');
    await expect.poll(() => ben.locator('li[data-server="notes"] .state').textContent()).toBe('needs sign-in');

    const result = await running.host.invoke({
      scope: { userId: 'ana', workspaceId: 'default', conversationId: 'c1' },
      caller: { kind: 'user' },
      tool: 'notes__whoami',
      args: {},
    });
    expect(result.text).toMatch(/account "?ana"?/);

    await page.getByRole('button', { name: 'Sign out of notes' }).click();
    await expect.poll(() => server.locator('.state').textContent()).toBe('needs sign-in');
    expect(as.log.revocation.length).toBeGreaterThan(0);
  });
});

// Two consoles on one PostgreSQL database (a real server, started by test/support/postgres), and the page of one of
// them in a real Chromium: a call started on instance A asks for permission on the sheet of the page served by
// instance B; Allow once clicked there runs the call on A, and the sheet closes.
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole } from '@airlock/console';
import type { ConsoleConfig, RunningConsole } from '@airlock/console';
import { launchChromium } from '../../packages/elements/src/testing/browser.js';
import { postgresConsoleConfig } from '../../apps/console/src/testing/postgres-console-config.js';
import { ConsoleClient } from '../../apps/console/src/testing/console-client.js';
import type { ConsoleEventStream } from '../../apps/console/src/testing/console-client.js';
import { startPostgres } from '../support/postgres/postgres-server.js';
import type { PostgresServer } from '../support/postgres/postgres-server.js';

let server: PostgresServer;
let browser: Browser;
const consoles: RunningConsole[] = [];
const contexts: BrowserContext[] = [];
const streams: ConsoleEventStream[] = [];

function config(storeUrl: string): ConsoleConfig {
  return postgresConsoleConfig(storeUrl, 'postgres e2e');
}

beforeAll(async () => {
  server = await startPostgres();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await Promise.all(streams.map((s) => s.close()));
  for (const context of contexts) await context.close();
  await browser?.close();
  await Promise.all(consoles.map((c) => c.close()));
  await server?.stop();
});

describe("a permission question answered on another instance's page", () => {
  it('shows the question of a call on A on the sheet of B, and Allow once there runs the call on A', async () => {
    const url = await server.createDatabase();
    const a = await startConsole(config(url));
    const b = await startConsole(config(url));
    consoles.push(a, b);
    await Promise.all([a.host.servers.settled(), b.host.servers.settled()]);

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
    await page.getByRole('heading', { name: 'Tool calls' }).waitFor();

    const onA = await ConsoleClient.signIn(a.url, { userId: 'ana' });
    const tabA = await onA.openEvents();
    streams.push(tabA);
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

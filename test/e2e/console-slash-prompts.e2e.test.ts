// Prompts as slash commands in the console's chat box, in a real Chromium against server-everything over stdio: `/`
// lists the servers' prompts, choosing one opens its arguments (with the server's completions), and the filled prompt
// is put in the message box for the user to review; nothing reaches the model until they send it. Without a model,
// the same picker shows the filled prompt as a preview.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServersConfig } from '@airlock/core';
import { loadConsoleConfig, startConsole } from '@airlock/console';
import type { RunningConsole } from '@airlock/console';
import { startMockOpenAI } from './mock-openai.js';
import { signedInPage } from './signed-in-page.js';
import { chromiumPages } from './console-in-chromium.js';

const EVERYTHING_BIN = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let dir: string;
let withModel: RunningConsole;
let withoutModel: RunningConsole;
let mock: Awaited<ReturnType<typeof startMockOpenAI>>;

async function start(store: string, env: Record<string, string>): Promise<RunningConsole> {
  const config = loadConsoleConfig({ port: 0, store: join(dir, store) }, env);
  const running = await startConsole({
    ...config,
    servers: parseServersConfig({
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] } },
    }),
  });
  await running.host.servers.settled();
  return running;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'airlock-console-slash-'));
  mock = await startMockOpenAI([{ text: (request) => `Heard ${request.messages.length} messages.` }]);
  withModel = await start('with.db', { AIRLOCK_MODEL_BASE_URL: mock.baseURL, AIRLOCK_MODEL: 'mock-model' });
  withoutModel = await start('without.db', {});
}, 60_000);

afterAll(async () => {
  await withModel?.close();
  await withoutModel?.close();
  await mock?.close();
  await rm(dir, { recursive: true, force: true });
});

const pages = chromiumPages();

function signedIn(running: RunningConsole): Promise<Page> {
  return signedInPage(pages.browser, running.url, { contexts: pages.contexts });
}

describe('prompts as slash commands', () => {
  it('lists the prompts on /, fills one with a suggested value, and puts it in the message box for review', async () => {
    const page = await signedIn(withModel);
    const box = page.locator('#chat-message');
    await box.pressSequentially('/');
    const list = page.getByRole('list', { name: 'Prompts' });
    await expect.poll(() => list.getByRole('button').allTextContents()).toContain('/everything:completable-prompt');
    await box.pressSequentially('everything:compl');
    await expect.poll(() => list.getByRole('button').allTextContents()).toEqual(['/everything:completable-prompt']);
    await list.getByRole('button', { name: '/everything:completable-prompt' }).click();
    const form = page.getByRole('form', { name: 'Arguments of /everything:completable-prompt' });
    await form.getByLabel('department *').pressSequentially('Sa');
    await expect
      .poll(() => form.locator('datalist option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value)))
      .toContain('Sales');
    await form.getByLabel('department *').fill('Sales');
    await form.getByLabel('name *').fill('Eve');
    await form.getByRole('button', { name: 'Insert' }).click();
    await expect.poll(() => box.inputValue()).toBe('Please promote Eve to the head of the Sales team.');
    await page.getByText('The prompt is in the message box: review it, then send.').waitFor();
    expect(mock.requests).toHaveLength(0);
    await box.fill(`${await box.inputValue()} Thank you.`);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.chat-lines li[data-role="assistant"]').waitFor();
    const sent = mock.requests[0]?.messages.find((m) => m.role === 'user');
    expect(sent?.content).toBe('Please promote Eve to the head of the Sales team. Thank you.');
  });

  it('says when no prompt matches what follows /', async () => {
    const page = await signedIn(withModel);
    await page.locator('#chat-message').pressSequentially('/nothing-like-this');
    await page.getByText('No prompt matches /nothing-like-this.').waitFor();
  });

  it('shows the filled prompt as a preview when no model is configured', async () => {
    const page = await signedIn(withoutModel);
    await page.locator('details.chat-setup summary').click();
    await page.getByLabel('Try a prompt (type / to list them)').pressSequentially('/everything:args');
    await page.getByRole('list', { name: 'Prompts' }).getByRole('button', { name: '/everything:args-prompt' }).click();
    const form = page.getByRole('form', { name: 'Arguments of /everything:args-prompt' });
    await form.getByLabel('city *').fill('Recife');
    await form.getByRole('button', { name: 'Show' }).click();
    const preview = page.locator('console-prompt-picker .prompt-preview');
    await expect.poll(() => preview.locator('pre').textContent()).toBe("What's weather in Recife?");
  });
});

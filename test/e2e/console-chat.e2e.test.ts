// The console's chat as people use one, in a real Chromium against the real demo server over stdio, with a fake
// OpenAI-compatible model that streams (the one edge the console does not own): a turn streams its text, the model's
// call shows as a card inside that turn, the sheet asks, and the reply goes on after the result; Stop ends a turn
// that is still answering and a call that is still running; a second conversation is started, listed, and after a
// restart of the console on the same store, opened again with its lines and continued with its transcript.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServersConfig } from '@airlock/core';
import { loadConsoleConfig, startConsole } from '@airlock/console';
import type { RunningConsole } from '@airlock/console';
import { axeViolations } from './axe-violations.js';
import { startMockOpenAI } from './mock-openai.js';
import type { MockChatRequest } from './mock-openai.js';
import { signedInPage } from './signed-in-page.js';
import { chromiumPages } from './console-in-chromium.js';

const DEMO_BIN = join(dirname(fileURLToPath(import.meta.resolve('@airlock/demo-server'))), 'bin.js');

let dir: string;
let running: RunningConsole | undefined;
let mock: Awaited<ReturnType<typeof startMockOpenAI>>;

/** What the user said last in a request the model received (the console sends a user's message as text). */
const lastUserText = (request: MockChatRequest) =>
  JSON.stringify(request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');

async function start(): Promise<RunningConsole> {
  const config = loadConsoleConfig(
    { port: 0, store: join(dir, 'console.db') },
    { AIRLOCK_MODEL_BASE_URL: mock.baseURL, AIRLOCK_MODEL: 'mock-model' },
  );
  const started = await startConsole({
    ...config,
    modelChoices: [{ label: 'Small and quick', model: 'mock-small', baseURL: mock.baseURL }],
    servers: parseServersConfig({ mcpServers: { demo: { command: process.execPath, args: [DEMO_BIN] } } }),
  });
  await started.host.servers.settled();
  return started;
}

/** The conversation's entries in page order: each line's role, and `card:<state>` for a call's card. */
function entries(page: Page): Promise<string[]> {
  return page.$$eval('ol.chat-lines > li', (items) =>
    items.map((li) =>
      li.hasAttribute('data-invocation') ? `card:${li.getAttribute('data-state')}` : li.getAttribute('data-role')!,
    ),
  );
}

async function send(page: Page, text: string): Promise<void> {
  await page.locator('#chat-message').fill(text);
  await page.locator('#chat-message').press('Enter');
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'airlock-console-chat-'));
  mock = await startMockOpenAI([
    // The first turn: a word, the echo call, then the reply after its result.
    { say: 'Let me echo that for you.', toolCall: { name: 'demo__echo', arguments: { text: 'inline please' } } },
    {
      text: (request) =>
        `The echo said: **${JSON.stringify(request.messages.at(-1)?.content).includes('inline please')}**.`,
    },
    // The second: text that streams, then an answer that never ends.
    { text: () => 'Thinking about it slowly', hang: true },
    // The third: a call that never answers.
    { toolCall: { name: 'demo__hang', arguments: {} } },
    // The new conversation's first turn, and after the restart its second.
    { text: () => 'Noted: the sky is green here.' },
    { text: (request) => `You said before: ${request.messages.length} messages` },
    // A message to the other model.
    { text: (request) => `Answered by ${request.model}.` },
  ]);
  running = await start();
}, 60_000);

afterAll(async () => {
  await running?.close();
  await mock?.close();
  await rm(dir, { recursive: true, force: true });
});

const pages = chromiumPages();

describe('the console chat', () => {
  let page: Page;

  it('streams a turn whose call shows as a card inside it, asks, and goes on after the result', async () => {
    page = await signedInPage(pages.browser, running!.url, {
      contexts: pages.contexts,
      contextOptions: { bypassCSP: true },
    });
    await send(page, 'Echo "inline please".');

    // The model's first words arrive while its call waits on the sheet: text, then the card, inside the turn.
    const allowOnce = page.locator('airlock-permission-sheet button[data-decision="allow_once"]');
    await allowOnce.waitFor();
    await page.locator('.chat-lines li[data-role="assistant"]', { hasText: 'Let me echo that for you.' }).waitFor();
    expect(await entries(page)).toEqual(['user', 'assistant', 'card:pending']);
    expect(await axeViolations(page)).toEqual([]);

    await allowOnce.click();
    const reply = page.locator('.chat-lines li[data-role="assistant"]').nth(1);
    await reply.waitFor();
    // The reply is markdown, rendered: the bold is a <strong>, not asterisks.
    await expect.poll(() => reply.locator('.text strong').innerText()).toBe('true');
    expect(await entries(page)).toEqual(['user', 'assistant', 'card:success', 'assistant']);
    // The model's own call id is the call's, and the card is the call history keeps.
    const [call] = await running!.host.history.list({
      scope: { userId: 'ana', workspaceId: 'default', conversationId: 'main' },
      limit: 1,
    });
    expect(call).toMatchObject({ tool: 'demo__echo', caller: { kind: 'model' }, state: 'success' });
    expect(await page.locator(`li[data-invocation="${call!.id}"]`).count()).toBe(1);
    await expect
      .poll(() =>
        page.locator('.chat-form wa-button[type="submit"]').evaluate((b) => (b as HTMLButtonElement).disabled),
      )
      .toBe(false);
  });

  it('stops a turn that is still answering, and a call that is still running', async () => {
    await send(page, 'Take your time.');
    // The text shows while the answer has not ended: it streamed.
    await page.locator('.chat-lines li[data-role="assistant"]', { hasText: 'Thinking about it slowly' }).waitFor();
    const stop = page.locator('.chat-form wa-button[data-stop]');
    expect(await page.locator('.chat-form [role="status"]').innerText()).toBe('The model is answering…');
    await stop.click();
    await page.locator('.chat-lines li[data-role="stopped"]').waitFor();
    expect(await page.locator('.chat-lines li[data-role="stopped"]').innerText()).toBe('You stopped this reply.');
    await expect.poll(() => stop.count()).toBe(0);
    await expect.poll(() => mock.aborted()).toBe(1);

    await send(page, 'Now wait for the hang tool.');
    await page.locator('airlock-permission-sheet button[data-decision="allow_once"]').click();
    await page.locator('li[data-invocation][data-state="running"]').waitFor();
    await stop.click();
    await page.locator('li[data-invocation][data-state="cancelled"]').waitFor();
    await expect.poll(() => page.locator('.chat-lines li[data-role="stopped"]').count()).toBe(2);
    const [hung] = await running!.host.history.list({
      scope: { userId: 'ana', workspaceId: 'default', conversationId: 'main' },
      limit: 1,
    });
    expect(hung).toMatchObject({ tool: 'demo__hang', state: 'cancelled' });
  });

  it('starts a second conversation, lists it, and resumes it after a restart with its transcript', async () => {
    await page.getByRole('button', { name: 'New chat' }).click();
    await expect.poll(() => entries(page)).toEqual([]);
    expect(await page.locator('#cards-title').innerText()).toBe('New conversation');
    await send(page, 'Remember: the sky is green here.');
    await page.locator('.chat-lines li[data-role="assistant"]', { hasText: 'Noted' }).waitFor();
    // Named after its first message, and listed beside the first conversation.
    await expect.poll(() => page.locator('#cards-title').innerText()).toBe('Remember: the sky is green here.');
    const listed = () => page.$$eval('.conversation-pick option', (o) => o.map((x) => x.textContent?.trim()));
    expect(await listed()).toEqual(['Remember: the sky is green here.', 'Echo "inline please".']);
    const second = new URL(page.url()).hash;
    expect(second).toMatch(/^#\/\?conversation=c-/);

    // The console restarts on the same store; the page opens the second conversation by its address.
    await page.context().close();
    await running!.close();
    running = await start();
    page = await signedInPage(pages.browser, new URL(second, running.url).href, {
      contexts: pages.contexts,
      contextOptions: { bypassCSP: true },
    });
    await page.locator('.chat-lines li[data-role="assistant"]', { hasText: 'Noted' }).waitFor();
    expect(await entries(page)).toEqual(['user', 'assistant']);
    expect(await listed()).toEqual(['Remember: the sky is green here.', 'Echo "inline please".']);

    await send(page, 'What did I say?');
    await page.locator('.chat-lines li[data-role="assistant"]', { hasText: 'You said before' }).waitFor();
    // The model was sent the conversation's transcript, kept across the restart, and nothing of the first one.
    const last = mock.requests.at(-1)!;
    expect(last.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(lastUserText(last)).toBe('"What did I say?"');
    expect(JSON.stringify(last.messages)).toContain('the sky is green here');
    expect(JSON.stringify(last.messages)).not.toContain('inline please');

    // The first conversation is one choice away, with its card inside its first turn.
    await page.locator('.conversation-pick select').selectOption({ label: 'Echo "inline please".' });
    await page.locator('.chat-lines li[data-role="assistant"]', { hasText: 'Let me echo that' }).waitFor();
    expect((await entries(page)).slice(0, 4)).toEqual(['user', 'assistant', 'card:success', 'assistant']);
  });

  it('sends a message to the model chosen in the page, and remembers the choice', async () => {
    const picker = page.locator('.chat-form select[name="model"]');
    expect(await picker.locator('option').allInnerTexts()).toEqual(['mock-model', 'Small and quick']);
    await picker.selectOption({ label: 'Small and quick' });
    await send(page, 'Which model are you?');
    await page.locator('.chat-lines li[data-role="assistant"]', { hasText: 'Answered by mock-small.' }).waitFor();
    expect(mock.requests.slice(0, -1).every((request) => request.model === 'mock-model')).toBe(true);
    await page.reload();
    await page.locator('#cards-title').waitFor();
    expect(await picker.evaluate((select) => (select as HTMLSelectElement).value)).toBe('1');
  });
});

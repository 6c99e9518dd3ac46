// What the console's page shows is written for people; what the model is given keeps its frames. In a real Chromium
// against the demo server (stdio) and the test task server (Streamable HTTP, tasks held until finished): a server's
// JSON-RPC error reads as the server's words, not "[untrusted data: …]" (the model's copy keeps the frame); a cancelled
// call says so once, not "was cancelled cancelled"; a task's progress is the server's status message, not
// "working: …"; a form question is titled by its server and tool, in en-US and pt-BR.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { REPORT_TOOL, startTaskServer } from '../support/tasks/task-server.js';
import type { TaskServer } from '../support/tasks/task-server.js';
import { consoleInChromium, DEMO_SERVER } from './console-in-chromium.js';

let tasks: TaskServer;
const stage = consoleInChromium('airlock-console-human-text-', async () => {
  tasks = await startTaskServer();
  return {
    mcpServers: { demo: DEMO_SERVER, reports: { url: tasks.url } },
    stops: [() => tasks.close()],
  };
});

async function signedIn(userId: string, locale = 'en-US'): Promise<Page> {
  const context = await stage.browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
  stage.contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(stage.running.url);
  await page.locator('input[name="user"]').fill(userId);
  await page.locator('input[name="user"]').press('Enter');
  await page.locator('#cards-title').waitFor();
  return page;
}

/** Calls a tool through the launcher, allows it once when the sheet asks, and resolves with its card's id. */
async function launch(page: Page, tool: string, fields: Record<string, string> = {}): Promise<string> {
  const known = await page.$$eval('li[data-invocation]', (items) => items.map((li) => li.dataset['invocation']));
  await page.locator('form.launcher select[name="tool"]').selectOption(tool);
  for (const [name, value] of Object.entries(fields)) await page.locator(`#arg-${name}`).fill(value);
  await page.locator('form.launcher wa-button[type="submit"]').click();
  await page.locator('airlock-permission-sheet button[data-decision="allow_once"]').click();
  const handle = await page.waitForFunction(
    (before) =>
      [...document.querySelectorAll<HTMLElement>('li[data-invocation]')]
        .map((li) => li.dataset['invocation'])
        .find((id) => !before.includes(id)),
    known,
  );
  return (await handle.jsonValue()) as string;
}

const card = (page: Page, id: string) => page.locator(`li[data-invocation="${id}"] airlock-tool-card`);
const cardText = (page: Page, id: string) =>
  card(page, id).evaluate((el) => (el.shadowRoot?.textContent ?? '').replace(/\s+/g, ' '));

describe('the words the page shows', () => {
  it("shows a server's JSON-RPC error in the server's words; the model's copy keeps its frame", async () => {
    const page = await signedIn('ana');
    const id = await launch(page, 'demo__protocol_error');
    await card(page, id).locator('[part=badge][data-state="error"]').waitFor();
    const reason = await card(page, id).locator('[part=reason] .reason-text').textContent();
    expect(reason).toMatch(/^protocol_error refuses every call/);
    // The message names its code (-32602) already, so the code is not printed again beside it.
    expect(await card(page, id).locator('[part=reason] .reason-code').count()).toBe(0);
    const text = await cardText(page, id);
    expect(text).not.toContain('[untrusted data');
    expect(text).not.toContain('not as instructions');
    expect(text).not.toContain('[protocol_error');
    const scope = { userId: 'ana', workspaceId: 'default', conversationId: 'main' };
    const entry = await stage.running.host.history.get({ scope, invocationId: id });
    expect(entry?.result?.model.text).toContain('[untrusted data: error message from server "demo"');
  });

  it('says a cancelled call was cancelled once', async () => {
    const page = await signedIn('bia');
    const id = await launch(page, 'demo__hang');
    await card(page, id).locator('[part=badge][data-state="running"]').waitFor();
    await card(page, id).locator('[part=cancel]').click();
    await card(page, id).locator('[part=badge][data-state="cancelled"]').waitFor();
    expect(await card(page, id).locator('[part=reason]').innerText()).toBe(
      'The call was cancelled before it finished.',
    );
    expect(await cardText(page, id)).not.toMatch(/cancelled\s+cancelled/);
  });

  it("shows a task's progress as the server's status message, without the protocol's status word", async () => {
    const page = await signedIn('caio');
    const id = await launch(page, `reports__${REPORT_TOOL}`, { topic: 'tide pools' });
    await card(page, id).locator('[part=badge][data-state="working"]').waitFor();
    await expect.poll(() => card(page, id).locator('[part=progress] .note').textContent()).toBe('Gathering sources');
    expect(await cardText(page, id)).not.toMatch(/working:|input_required:/);
    await card(page, id).locator('[part=cancel]').click();
    await card(page, id).locator('[part=badge][data-state="cancelled"]').waitFor();
  });

  for (const [locale, title] of [
    ['en-US', 'The server demo asks (tool “Ask the user”):'],
    ['pt-BR', 'O servidor demo pergunta (ferramenta “Ask the user”):'],
  ] as const) {
    it(`titles a form question by its server and its tool (${locale})`, async () => {
      const page = await signedIn(`dara-${locale}`, locale);
      const id = await launch(page, 'demo__ask_user');
      const heading = page.locator('airlock-elicitation-dialog h2');
      await heading.waitFor();
      expect(await heading.innerText()).toBe(title);
      await page.locator('airlock-elicitation-dialog [part~="action-cancel"]').click();
      await card(page, id).locator('[part=badge]:not([data-state="running"]):not([data-state="pending"])').waitFor();
    });
  }
});

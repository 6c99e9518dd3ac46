import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAI } from './mock-openai.js';
import { consoleInChromium, DEMO_BIN } from './console-in-chromium.js';

/** Records, in the page, every state each card showed, every sheet opening, and what "copy" copied. */
const RECORDER = `
  window.__states = {};
  window.__sheetOpens = 0;
  window.__copied = [];
  const push = (id, state) => {
    if (!id || !state) return;
    const list = (window.__states[id] ??= []);
    if (list[list.length - 1] !== state) list.push(state);
  };
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes' && r.attributeName === 'data-state' && r.target.matches('li[data-invocation]')) {
        push(r.target.dataset.invocation, r.oldValue);
        push(r.target.dataset.invocation, r.target.dataset.state);
      } else if (r.type === 'attributes' && r.attributeName === 'open' && r.target.localName === 'airlock-permission-sheet') {
        if (r.target.hasAttribute('open')) window.__sheetOpens += 1;
      } else if (r.type === 'childList') {
        for (const node of r.addedNodes) {
          if (node.nodeType === 1 && node.matches('li[data-invocation]')) push(node.dataset.invocation, node.dataset.state);
        }
      }
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeOldValue: true, attributeFilter: ['data-state', 'open'] });
  document.addEventListener('airlock-tool-copy', (event) => {
    window.__copied.push(event.detail.text.length);
    event.preventDefault();
  });
`;

let callLog: string;
let mock: Awaited<ReturnType<typeof startMockOpenAI>>;
let ana: Page;

const stage = consoleInChromium('airlock-console-e2e-', async (dir) => {
  callLog = join(dir, 'calls.ndjson');
  mock = await startMockOpenAI([
    { toolCall: { name: 'demo__echo', arguments: { text: 'from the model' } } },
    {
      text: (request) => {
        const tool = request.messages.find((m) => m.role === 'tool');
        return `The echo tool answered (${String(tool?.content).length} characters).`;
      },
    },
  ]);
  return {
    mcpServers: { demo: { command: process.execPath, args: [DEMO_BIN], env: { AIRLOCK_DEMO_CALL_LOG: callLog } } },
    env: { AIRLOCK_MODEL_BASE_URL: mock.baseURL, AIRLOCK_MODEL: 'mock-model' },
    stops: [() => mock.close()],
  };
});

beforeAll(async () => {
  ana = await signedInPage('ana');
}, 60_000);

function calls(): { event: string; tool: string; args?: Record<string, unknown> }[] {
  if (!existsSync(callLog)) return [];
  return readFileSync(callLog, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { event: string; tool: string; args?: Record<string, unknown> });
}

async function signedInPage(userId: string, init?: string): Promise<Page> {
  const context = await stage.browser.newContext({ viewport: { width: 1280, height: 900 } });
  stage.contexts.push(context);
  await context.addInitScript(RECORDER);
  if (init !== undefined) await context.addInitScript(init);
  const page = await context.newPage();
  // A step that cannot happen fails with the step named, well inside the test's own timeout.
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(stage.running.url);
  await page.getByLabel('Your name').fill(userId);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#cards-title').waitFor();
  return page;
}

/** Calls a tool through the launcher and resolves with the id of the card that appears for it. */
async function launch(page: Page, tool: string, fields: Record<string, string> = {}): Promise<string> {
  await page.locator('#cards-title').waitFor();
  const known = await page.$$eval('li[data-invocation]', (items) =>
    items.map((li) => li.getAttribute('data-invocation')),
  );
  await page.locator('form.launcher select[name="tool"]').selectOption(tool);
  for (const [name, value] of Object.entries(fields)) await page.locator(`#arg-${name}`).fill(value);
  await page.locator('form.launcher wa-button[type="submit"]').click();
  const handle = await page.waitForFunction(
    (before) =>
      [...document.querySelectorAll('li[data-invocation]')]
        .map((li) => li.getAttribute('data-invocation'))
        .find((id) => !before.includes(id)),
    known,
  );
  return (await handle.jsonValue()) as string;
}

const card = (page: Page, id: string) => page.locator(`li[data-invocation="${id}"]`);

async function settled(page: Page, id: string, state: string): Promise<void> {
  await card(page, id)
    .and(page.locator(`[data-state="${state}"]`))
    .waitFor();
}

async function decide(page: Page, decision: string): Promise<void> {
  await page.locator(`airlock-permission-sheet button[data-decision="${decision}"]`).click();
}

const statesOf = (page: Page, id: string) =>
  page.evaluate((invocation) => (window as unknown as { __states: Record<string, string[]> }).__states[invocation], id);

describe('the console in Chromium', () => {
  it('calls a tool by hand and shows pending, running, then success', async () => {
    const id = await launch(ana, 'demo__echo', { text: 'hello from the launcher' });
    await decide(ana, 'allow_once');
    await settled(ana, id, 'success');
    expect(await statesOf(ana, id)).toEqual(['pending', 'running', 'success']);
    await expect(card(ana, id).locator('[part="result"]').innerText()).resolves.toContain('hello from the launcher');
    expect(calls().filter((c) => c.tool === 'echo' && c.args?.['text'] === 'hello from the launcher')).toHaveLength(1);
  });

  it('denies once and the server is never called', async () => {
    const id = await launch(ana, 'demo__echo', { text: 'deny me' });
    await decide(ana, 'deny_once');
    await settled(ana, id, 'cancelled');
    expect(calls().filter((c) => c.args?.['text'] === 'deny me')).toEqual([]);
  });

  it('allows always and does not ask a second time', async () => {
    const first = await launch(ana, 'demo__slow_task', { steps: '1', stepMs: '1' });
    await decide(ana, 'allow_always');
    await settled(ana, first, 'success');
    const opens = await ana.evaluate(() => (window as unknown as { __sheetOpens: number }).__sheetOpens);
    const second = await launch(ana, 'demo__slow_task', { steps: '2', stepMs: '1' });
    await settled(ana, second, 'success');
    expect(await ana.evaluate(() => (window as unknown as { __sheetOpens: number }).__sheetOpens)).toBe(opens);
    await ana.getByRole('link', { name: 'Permissions' }).click();
    await expect(ana.locator('tr[data-decision]').innerText()).resolves.toContain('slow_task');
    await ana.getByRole('link', { name: 'Conversation' }).click();
  });

  it('answers an elicitation form', async () => {
    const id = await launch(ana, 'demo__ask_user');
    await decide(ana, 'allow_once');
    const dialog = ana.locator('airlock-elicitation-dialog');
    await dialog.getByLabel('Name').fill('Ana Lima');
    await dialog.getByLabel('Age').fill('34');
    await dialog.locator('button[part~="action-accept"]').click();
    await settled(ana, id, 'success');
    const text = await card(ana, id).locator('[part="result"]').innerText();
    expect(text).toContain('Ana Lima');
    expect(text).toContain('accept');
  });

  it('shows a URL-mode elicitation whole and completes it', async () => {
    const id = await launch(ana, 'demo__connect_account');
    await decide(ana, 'allow_once');
    const dialog = ana.locator('airlock-elicitation-dialog');
    await dialog.locator('button[part~="action-open"]').waitFor();
    const url = stage.running.host.elicitations.pending({
      scope: { userId: 'ana', workspaceId: 'default', conversationId: 'main' },
    })[0]?.url?.url;
    expect(url).toMatch(/^https:\/\//);
    await expect(dialog.locator('.body').innerText()).resolves.toContain(url);
    const popup = ana.context().waitForEvent('page');
    await dialog.locator('button[part~="action-open"]').click();
    await (await popup).close();
    await settled(ana, id, 'success');
    await expect(card(ana, id).locator('[part="result"]').innerText()).resolves.toContain('accept');
  });

  it('cancels a slow tool, and the server is told', async () => {
    // A user of its own, so no stored decision from another test lets the call skip its question.
    const dee = await signedInPage('dee');
    const id = await launch(dee, 'demo__slow_task', { steps: '500', stepMs: '100' });
    await decide(dee, 'allow_once');
    await settled(dee, id, 'running');
    // Dee's own demo process starts on her first call: cancelled once the server has the call.
    const slow = () =>
      calls().filter((c) => c.event === 'call' && c.tool === 'slow_task' && Number(c.args?.['steps']) === 500);
    await expect.poll(slow, { timeout: 10_000 }).toHaveLength(1);
    await card(dee, id).getByRole('button', { name: 'Cancel call' }).click();
    await settled(dee, id, 'cancelled');
    await expect.poll(() => calls().filter((c) => c.event === 'cancelled' && c.tool === 'slow_task')).toHaveLength(1);
  });

  it('bounds a 5 MB result on screen and copies it whole', async () => {
    const id = await launch(ana, 'demo__huge_output', { megabytes: '5' });
    await decide(ana, 'allow_once');
    await settled(ana, id, 'success');
    const cardElement = card(ana, id).locator('airlock-tool-card');
    await cardElement.locator('.block.text .note').first().waitFor();
    const shown = await cardElement.locator('.block.text').innerText();
    expect(shown.length).toBeLessThan(200_000);
    // The page fetches the whole text behind the handle; "copy" then copies all of it.
    await ana.waitForFunction(
      (invocation) =>
        (
          document.querySelector(`li[data-invocation="${invocation}"] airlock-tool-card`) as {
            fullText?: string;
          } | null
        )?.fullText !== undefined,
      id,
    );
    await cardElement.locator('button[data-copy="result"]').click();
    const copied = await ana.evaluate(() => (window as unknown as { __copied: number[] }).__copied.at(-1));
    expect(copied).toBeGreaterThanOrEqual(5_000_000);
  });

  it('verifies the audit chain on the audit page', async () => {
    await ana.getByRole('link', { name: 'Audit' }).click();
    await ana.locator('.audit-event').first().waitFor();
    await ana.locator('[data-action="verify"]').click();
    await expect(ana.locator('[data-verified]').getAttribute('data-verified')).resolves.toBe('true');
    await expect(ana.locator('[data-verified]').innerText()).resolves.toContain('The chain is intact');
    await ana.getByRole('link', { name: 'Conversation' }).click();
  });

  it('answers 404 to a second user asking for the first user’s invocation', async () => {
    const [mine] = await stage.running.host.history.list({
      scope: { userId: 'ana', workspaceId: 'default', conversationId: 'main' },
      limit: 1,
    });
    expect(mine).toBeDefined();
    const bo = await signedInPage('bo');
    expect(await bo.locator('li[data-invocation]').count()).toBe(0);
    const foreign = await bo.request.get(`${stage.running.url}api/invocations/${mine!.id}?conversation=main`);
    expect(foreign.status()).toBe(404);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe('not_found');
    const own = await ana.request.get(`${stage.running.url}api/invocations/${mine!.id}?conversation=main`);
    expect(own.status()).toBe(200);
  });

  it('notifies when a question waits in a background tab', async () => {
    const page = await signedInPage(
      'cy',
      `Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
       window.__notes = [];
       window.Notification = class { static permission = 'granted';
         static requestPermission() { return Promise.resolve('granted'); }
         constructor(title) { window.__notes.push(title); } };`,
    );
    const id = await launch(page, 'demo__echo', { text: 'while away' });
    await page.locator('airlock-permission-sheet button[data-decision="deny_once"]').waitFor();
    const notes = await page.evaluate(() => (window as unknown as { __notes: string[] }).__notes);
    expect(notes).toEqual(['Airlock: Echo wants to run']);
    await decide(page, 'deny_once');
    await settled(page, id, 'cancelled');
  });

  it('speaks Brazilian Portuguese to a browser that prefers it, elements included', async () => {
    const context = await stage.browser.newContext({ locale: 'pt-BR' });
    stage.contexts.push(context);
    const page = await context.newPage();
    await page.goto(stage.running.url);
    await page.getByLabel('Seu nome').fill('eva');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.locator('#cards-title').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('pt-BR');
    await page.getByRole('link', { name: 'Permissões' }).waitFor();
    await page.locator('form.launcher select[name="tool"]').selectOption('demo__echo');
    await page.locator('#arg-text').fill('olá');
    await page.getByRole('button', { name: 'Chamar demo__echo' }).click();
    await page.locator('airlock-permission-sheet button[data-decision="deny_once"]').waitFor();
    await expect(page.locator('airlock-permission-sheet button[data-decision="deny_once"]').innerText()).resolves.toBe(
      'Negar uma vez',
    );
    await page.locator('airlock-permission-sheet button[data-decision="deny_once"]').click();
    await page.locator('li[data-invocation][data-state="cancelled"]').waitFor();
  });

  it('drives one chat turn whose tool call goes through the permission sheet', async () => {
    await ana.locator('#chat-message').fill('Please echo something.');
    await ana.getByRole('button', { name: 'Send' }).click();
    await decide(ana, 'allow_once');
    await ana.locator('.chat-lines li[data-role="assistant"]').waitFor();
    expect(await ana.locator('.chat-lines li[data-role="assistant"] .text').innerText()).toMatch(
      /^The echo tool answered \(\d+ characters\)\.$/,
    );
    const offered = (mock.requests[0]?.tools ?? []).map((t) => t.function.name);
    expect(offered).toContain('demo__echo');
    expect(offered).not.toContain('demo__app_refresh');
    const toolMessage = mock.requests[1]?.messages.find((m) => m.role === 'tool');
    expect(String(toolMessage?.content)).toContain('from the model');
    const [latest] = await stage.running.host.history.list({
      scope: { userId: 'ana', workspaceId: 'default', conversationId: 'main' },
      limit: 1,
    });
    expect(latest).toMatchObject({ tool: 'demo__echo', caller: { kind: 'model' }, state: 'success' });
    expect(calls().filter((c) => c.args?.['text'] === 'from the model')).toHaveLength(1);
  });
});

// Deleting a conversation in the console, in a real Chromium with a fake OpenAI-compatible model (the one edge the
// console does not own): Delete asks first, in place; confirmed, the conversation leaves the list and the store and
// the page moves to the most recent other one. Another user's id answers 404 and deletes nothing. At 1280 and 390 px,
// in en-US and pt-BR.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startMockOpenAI } from './mock-openai.js';
import { pageAt } from './page-at.js';
import { consoleInChromium } from './console-in-chromium.js';

let mock: Awaited<ReturnType<typeof startMockOpenAI>>;
const stage = consoleInChromium('airlock-console-chat-delete-', async () => {
  // Seven quick replies for the first tests, then one that never ends (the busy case last).
  mock = await startMockOpenAI([
    ...Array.from({ length: 7 }, (_, i) => ({ text: () => `Reply ${i + 1}.` })),
    { text: () => 'Still thinking', hang: true },
  ]);
  return {
    env: { AIRLOCK_MODEL_BASE_URL: mock.baseURL, AIRLOCK_MODEL: 'mock-model' },
    stops: [() => mock.close()],
  };
});

const listed = (page: Page) => page.$$eval('.conversation-pick option', (o) => o.map((x) => x.textContent?.trim()));

/** Starts a new conversation whose first message (and so its title) is `text`, and waits for the reply. */
async function converse(page: Page, text: string): Promise<void> {
  await page.locator('[data-new-chat]').click();
  await page.locator('#chat-message').fill(text);
  await page.locator('#chat-message').press('Enter');
  await expect.poll(() => page.locator('#cards-title').innerText()).toBe(text);
  await page.locator('.chat-lines li[data-role="assistant"]').waitFor();
}

describe.each([
  {
    width: 1280,
    locale: 'en-US',
    name: 'ana',
    del: 'Delete',
    yes: 'Delete conversation',
    no: 'Keep it',
    fresh: 'New conversation',
  },
  {
    width: 390,
    locale: 'pt-BR',
    name: 'bia',
    del: 'Excluir',
    yes: 'Excluir conversa',
    no: 'Manter',
    fresh: 'Nova conversa',
  },
])('deleting a conversation at $width px in $locale', ({ width, locale, name, del, yes, no, fresh }) => {
  it('asks in place, then removes it from the list and the store and shows the most recent other one', async () => {
    const page = await pageAt(stage.browser, stage.running.url, { contexts: stage.contexts, name, width, locale });
    await converse(page, 'Plan the trip');
    await converse(page, 'Pick a hotel');
    await converse(page, 'Throw this away');
    expect(await listed(page)).toEqual(['Throw this away', 'Pick a hotel', 'Plan the trip']);
    const doomed = new URL(page.url()).hash;

    // The first press only asks, naming the conversation; "keep" closes the question and deletes nothing.
    await page.locator('.conversation-delete summary', { hasText: del }).click();
    const confirm = page.locator('.conversation-delete .confirm');
    expect(await confirm.locator('p').innerText()).toContain('“Throw this away”');
    const box = await confirm.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(width);
    await confirm.getByRole('button', { name: no }).click();
    await expect.poll(() => confirm.isVisible()).toBe(false);
    expect(await listed(page)).toHaveLength(3);

    await page.locator('.conversation-delete summary').click();
    await confirm.getByRole('button', { name: yes }).click();
    await expect.poll(() => page.locator('#cards-title').innerText()).toBe('Pick a hotel');
    expect(await listed(page)).toEqual(['Pick a hotel', 'Plan the trip']);
    expect(new URL(page.url()).hash).not.toBe(doomed);
    await page.locator('.chat-lines li[data-role="user"]', { hasText: 'Pick a hotel' }).waitFor();

    // Gone from the store: its address opens an empty, new conversation.
    await page.goto(new URL(doomed, stage.running.url).href);
    await expect.poll(() => page.locator('#cards-title').innerText()).toBe(fresh);
    await expect.poll(() => page.locator('.chat-lines li').count()).toBe(0);
    expect(await listed(page)).toEqual([fresh, 'Pick a hotel', 'Plan the trip']);
  });
});

describe("another user's conversation", () => {
  it('answers 404 to a delete by someone else, and stays listed for its owner', async () => {
    const owner = await pageAt(stage.browser, stage.running.url, { contexts: stage.contexts, name: 'carla' });
    await converse(owner, 'Carla’s secret plans');
    const id = new URLSearchParams(new URL(owner.url()).hash.split('?')[1]).get('conversation')!;

    const other = await pageAt(stage.browser, stage.running.url, { contexts: stage.contexts, name: 'dan' });
    const answer = await other.request.delete(new URL(`/api/conversations/${id}`, stage.running.url).href);
    expect(answer.status()).toBe(404);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('not_found');

    await owner.reload();
    await owner.locator('#cards-title').waitFor();
    expect(await listed(owner)).toEqual(['Carla’s secret plans']);
    const own = await owner.request.delete(new URL(`/api/conversations/${id}`, stage.running.url).href);
    expect(own.status()).toBe(200);
  });
});

describe('a conversation the model is still answering', () => {
  it('is not deleted while its turn runs (409 busy), and is once the turn is stopped', async () => {
    const page = await pageAt(stage.browser, stage.running.url, { contexts: stage.contexts, name: 'eli' });
    await page.locator('#chat-message').fill('Take your time');
    await page.locator('#chat-message').press('Enter');
    await page.locator('.chat-lines li[data-role="assistant"]', { hasText: 'Still thinking' }).waitFor();
    const id = 'main';
    const busy = await page.request.delete(new URL(`/api/conversations/${id}`, stage.running.url).href);
    expect(busy.status()).toBe(409);
    expect(((await busy.json()) as { error: { code: string } }).error.code).toBe('busy');

    await page.locator('.chat-form wa-button[data-stop]').click();
    await page.locator('.chat-lines li[data-role="stopped"]').waitFor();
    await expect
      .poll(async () =>
        (await page.request.delete(new URL(`/api/conversations/${id}`, stage.running.url).href)).status(),
      )
      .toBe(200);
    await expect.poll(() => listed(page)).toEqual(['New conversation']);
  });
});

// The chat's message box in a real Chromium, with a fake OpenAI-compatible model (the one edge the console does not
// own) whose turn calls the demo server's echo and so waits on the permission sheet: Shift+Enter breaks a line and
// sends nothing, Enter sends; while the turn runs Send is disabled, a status says the model is answering and a
// submit sends nothing more; the bubbles show the message without the template's indentation; the reply ends the busy state.
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe-violations.js';
import { startMockOpenAI } from './mock-openai.js';
import { signedInPage } from './signed-in-page.js';
import { consoleInChromium, DEMO_SERVER } from './console-in-chromium.js';

let mock: Awaited<ReturnType<typeof startMockOpenAI>>;
const stage = consoleInChromium('airlock-console-chat-composer-', async () => {
  mock = await startMockOpenAI([
    { toolCall: { name: 'demo__echo', arguments: { text: 'from the model' } } },
    { text: () => 'The echo tool answered.' },
  ]);
  return {
    mcpServers: { demo: DEMO_SERVER },
    env: { AIRLOCK_MODEL_BASE_URL: mock.baseURL, AIRLOCK_MODEL: 'mock-model' },
    stops: [() => mock.close()],
  };
});

describe('the chat message box', () => {
  it('breaks a line on Shift+Enter, sends on Enter, and stays busy until the reply', async () => {
    const page = await signedInPage(stage.browser, stage.running.url, {
      contexts: stage.contexts,
      contextOptions: { bypassCSP: true },
    });
    const box = page.locator('#chat-message');
    const send = page.locator('.chat-form wa-button[type="submit"]');
    const status = page.locator('.chat-form [role="status"]');
    const isDisabled = () => send.evaluate((button) => (button as HTMLButtonElement).disabled);
    expect(await isDisabled()).toBe(false);

    await box.fill('Please echo');
    await box.press('Shift+Enter');
    await box.pressSequentially('twice.');
    expect(await box.inputValue()).toBe('Please echo\ntwice.');
    expect(mock.requests).toHaveLength(0);

    await box.press('Enter');
    const asked = page.locator('.chat-lines li[data-role="user"]');
    await asked.waitFor();
    // The message's own line break shows; the template's indentation does not.
    expect(await asked.innerText()).toBe('You: Please echo\ntwice.');

    // The turn waits on the permission sheet for its echo call: the box is busy.
    const allowOnce = page.locator('airlock-permission-sheet button[data-decision="allow_once"]');
    await allowOnce.waitFor();
    expect(await isDisabled()).toBe(true);
    expect(await status.innerText()).toBe('The model is answering…');
    expect(await axeViolations(page)).toEqual([]);
    // The sheet is modal, so the box cannot be typed in now; a submit all the same (a second tab's Enter, a script)
    // sends nothing while the turn runs.
    await page.evaluate(() => {
      const field = document.querySelector<HTMLTextAreaElement>('#chat-message')!;
      field.value = 'A second message';
      field.form!.requestSubmit();
    });

    await allowOnce.click();
    const reply = page.locator('.chat-lines li[data-role="assistant"]');
    await reply.waitFor();
    expect(await reply.locator('.text').innerText()).toBe('The echo tool answered.');
    await expect.poll(isDisabled).toBe(false);
    expect(await status.innerText()).toBe('');
    // The submit during the turn sent nothing: one message asked, the second still in the box.
    expect(await asked.count()).toBe(1);
    expect(await box.inputValue()).toBe('A second message');
    expect(await page.locator('.chat-form .error').count()).toBe(0);
  });
});

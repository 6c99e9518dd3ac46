// A tool's view shown while the model still writes the call: in Chromium, the demo dashboard's view appears in the
// chat before the call exists, receives ui/notifications/tool-input-partial with the arguments so far as they grow,
// then tool-input with the whole arguments once the call is made, in the same frame (never reloaded), which the
// call's card then holds.
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startMockOpenAI } from './mock-openai.js';
import { signedInPage } from './signed-in-page.js';
import { consoleInChromium, DEMO_SERVER } from './console-in-chromium.js';

/** Joined, `{"title": "Quarterly notes"}`: the model writes the call's arguments in these pieces. */
const PIECES = ['{"ti', 'tle": "Quar', 'terly', ' notes"', '}'];

type Received = { method: string; arguments: Record<string, unknown> };

let page: Page | undefined;
let mock: Awaited<ReturnType<typeof startMockOpenAI>>;

const early = () => page!.locator('airlock-app-view[data-model-call="call_1"]');

/** The view's own frame inside the element's proxy frame. */
async function viewFrame(): Promise<Frame> {
  const proxy = await early().locator('iframe').elementHandle({ timeout: 15_000 });
  const outer = await proxy.contentFrame();
  await expect.poll(() => outer!.childFrames().length, { timeout: 15_000 }).toBe(1);
  return outer!.childFrames()[0]!;
}

/** The input notifications the view has received, in order (the demo view keeps them). */
async function received(): Promise<Received[]> {
  const frame = await viewFrame();
  return frame.evaluate(() => (window as unknown as { inputs?: Received[] }).inputs ?? []);
}

const stage = consoleInChromium('airlock-partial-input-e2e-', async () => {
  // Each piece after the first is streamed once the view shows the reading of the pieces before it.
  const pace = async (piece: number) => {
    if (piece === 0) return;
    const readings = Math.min(piece, PIECES.length - 1);
    await expect.poll(async () => (await received()).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(readings);
  };
  mock = await startMockOpenAI([
    { toolCall: { name: 'demo__show_dashboard', arguments: {} }, argumentPieces: PIECES, pace },
    { text: () => 'There is the dashboard.' },
  ]);
  return {
    mcpServers: { demo: DEMO_SERVER },
    env: { AIRLOCK_MODEL_BASE_URL: mock.baseURL, AIRLOCK_MODEL: 'mock-model' },
    more: () => ({
      rules: [{ effect: 'allow', layer: 'host', server: 'demo', tool: 'show_dashboard', source: 'partial input e2e' }],
    }),
    stops: [() => mock.close()],
  };
});

describe("a tool's view while the model writes the call", () => {
  it('gets tool-input-partial as the arguments grow, then tool-input, in the frame the card then holds', async () => {
    page = await signedInPage(stage.browser, stage.running.url, { contexts: stage.contexts });
    await page.locator('#chat-message').fill('Show the quarterly dashboard.');
    await page.locator('#chat-message').press('Enter');

    // The view is there before the call: no card of a call yet, and the element has no call id.
    await early().waitFor();
    expect(await early().getAttribute('data-app-view')).toBeNull();
    await (await viewFrame()).evaluate(() => ((window as unknown as { marked: boolean }).marked = true));

    await page.locator('.chat-lines li[data-role="assistant"]', { hasText: 'There is the dashboard.' }).waitFor();
    const id = await page.locator('li[data-invocation][data-state="success"]').getAttribute('data-invocation');
    expect(id).not.toBeNull();
    // The card holds the same element and frame: the call id is on it now, and the frame kept what it had.
    expect(await early().getAttribute('data-app-view')).toBe(id);
    const frame = await viewFrame();
    expect(await frame.evaluate(() => (window as unknown as { marked?: boolean }).marked)).toBe(true);
    const inputs = await received();
    expect(inputs.map((input) => input.method.replace('ui/notifications/', ''))).toEqual([
      'tool-input-partial',
      'tool-input-partial',
      'tool-input-partial',
      'tool-input-partial',
      'tool-input',
    ]);
    expect(inputs.map((input) => input.arguments['title'])).toEqual([
      undefined,
      'Quar',
      'Quarterly',
      'Quarterly notes',
      'Quarterly notes',
    ]);
    await frame.locator('#title', { hasText: 'Quarterly notes' }).waitFor();
    expect(await page.locator('ol.chat-lines airlock-app-view').count()).toBe(1);
  });
});

// The card against seed 000's content rows: embedded code as a labelled code block (R2), a tiny image scaled up to
// the viewport in full screen (R2), and a text the host cut shown whole after "show all" (R4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ScreenPayload } from '@airlock/core';
import { BrowserHarness } from '../testing/browser.js';
import type { AirlockToolCard } from './airlock-tool-card.js';
import type { ToolCopyEvent } from './tool-card-events.js';
import type { ToolCardInvocation } from './tool-card-types.js';

declare global {
  interface Window {
    __showAll: { invocationId: string; block: number }[];
  }
}

const harness = new BrowserHarness();
beforeAll(() => harness.start());
afterAll(() => harness.stop());

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const INVOCATION: ToolCardInvocation = {
  id: 'inv-1',
  tool: 'files__read',
  originalName: 'read',
  serverId: 'files',
  state: 'success',
  outcome: 'success',
  error: null,
  args: {},
};

async function card(result: ScreenPayload, lang = 'en-US'): Promise<Page> {
  const page = await harness.open('<airlock-tool-card id="card"></airlock-tool-card>', { lang });
  await page.evaluate(
    async ({ invocation, result }) => {
      window.__showAll = [];
      const element = document.querySelector('#card') as AirlockToolCard;
      element.addEventListener('airlock-tool-show-all', (event) => window.__showAll.push(event.detail));
      Object.assign(element, { invocation, result });
      await element.updateComplete;
    },
    { invocation: INVOCATION, result },
  );
  return page;
}

const inCard = (page: Page, selector: string) => page.locator('#card').locator(selector);

describe('R2: embedded code', () => {
  it('shows an embedded source file as a monospace code block labelled with its language', async () => {
    const source = 'def greet(name):\n    return f"hello {name}"\n';
    const page = await card({
      blocks: [{ type: 'resource', uri: 'file:///greet.py', mimeType: 'text/x-python', text: source }],
      isError: false,
      handle: 'h',
    });
    await expect(inCard(page, '.code-label').textContent()).resolves.toBe('Code · Python');
    const pre = inCard(page, '.code-block pre');
    await expect(pre.textContent()).resolves.toBe(source);
    await expect(pre.evaluate((el) => getComputedStyle(el).fontFamily)).resolves.toMatch(/mono/i);
  });

  it('labels code by its extension when the mime type names no language, and says it in pt-BR', async () => {
    const page = await card(
      {
        blocks: [{ type: 'resource', uri: 'file:///src/main.rs', mimeType: 'text/plain', text: 'fn main() {}' }],
        isError: false,
        handle: 'h',
      },
      'pt-BR',
    );
    await expect(inCard(page, '.code-label').textContent()).resolves.toBe('Código · Rust');
  });

  it('keeps prose resources out of code blocks', async () => {
    const page = await card({
      blocks: [{ type: 'resource', uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'just words' }],
      isError: false,
      handle: 'h',
    });
    await expect(inCard(page, '.code-block').count()).resolves.toBe(0);
  });
});

describe('R2: full screen', () => {
  it('scales a tiny image up to fill the viewport when opened full screen', async () => {
    const page = await card({
      blocks: [{ type: 'image', mimeType: 'image/png', bytes: 70, data: PNG_1X1 }],
      isError: false,
      handle: 'h',
    });
    await inCard(page, '[data-action=open-full]').click();
    const image = inCard(page, 'dialog img.full-size');
    await image.waitFor();
    const box = await image.boundingBox();
    // The viewport is 1024 x 768: the 1 x 1 image fills most of it rather than staying one pixel.
    expect(box?.width).toBeGreaterThan(500);
    expect(box?.height).toBeGreaterThan(400);
  });
});

describe('R4: a text the host cut for the screen', () => {
  const whole = Array.from({ length: 20_000 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n');
  const head = whole.slice(0, 100_000);

  it('offers "show all", asks the host for the whole text, then shows and copies it whole', async () => {
    const page = await card({
      blocks: [
        { type: 'text', text: 'intro', totalChars: 5, truncated: false },
        { type: 'text', text: head, totalChars: whole.length, truncated: true },
      ],
      isError: false,
      handle: 'h',
    });
    const button = inCard(page, '[data-action=show-all]');
    await expect(button.textContent()).resolves.toContain(
      `Show all ${whole.length.toLocaleString('en-US')} characters`,
    );
    await button.click();
    expect(await page.evaluate(() => window.__showAll)).toEqual([{ invocationId: 'inv-1', block: 1 }]);
    await expect(inCard(page, '.loading-all').textContent()).resolves.toBe('Loading the whole text…');
    await page.evaluate(async (text) => {
      const element = document.querySelector('#card') as AirlockToolCard;
      element.wholeTexts = new Map([[1, text]]);
      await element.updateComplete;
    }, whole);
    const body = inCard(page, '.block.text').nth(1).locator('pre, .plain-text, .markdown');
    await expect(body.evaluate((el) => el.textContent?.length)).resolves.toBe(whole.length);
    await expect(body.getAttribute('class')).resolves.not.toContain('clipped');
    await expect(inCard(page, '[data-action=show-all]').count()).resolves.toBe(0);
    await page.evaluate(() => {
      document
        .querySelector<AirlockToolCard>('#card')!
        .addEventListener('airlock-tool-copy', (event: ToolCopyEvent) => {
          (window as unknown as { __copied: number }).__copied = event.detail.text.length;
          event.preventDefault();
        });
    });
    await inCard(page, '[data-copy=block-1]').click();
    expect(await page.evaluate(() => (window as unknown as { __copied: number }).__copied)).toBe(whole.length);
  });
});

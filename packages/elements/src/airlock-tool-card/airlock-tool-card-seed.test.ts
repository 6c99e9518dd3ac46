// The card against seed 000 line by line, where the first suite does not already cover it: R3's running state on a
// fast failure, T2's header toggle, R5's schema-aware controls, R8's names, R9's presets, small images full size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ScreenPayload } from '@airlock/core';
import { axeViolations, BrowserHarness } from '../testing/browser.js';
import type { AirlockToolCard } from './airlock-tool-card.js';
import type { ToolCardInvocation, ToolCardTool } from './tool-card-types.js';

declare global {
  interface Window {
    __badges: string[];
  }
}

const harness = new BrowserHarness();
beforeAll(() => harness.start());
afterAll(() => harness.stop());

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const TOOL: ToolCardTool = {
  name: 'book_room',
  title: 'Book a room',
  inputSchema: {
    type: 'object',
    properties: {
      room: { type: 'string', enum: ['north', 'south', 'east'], description: 'Which room' },
      people: { type: 'integer', description: 'How many people' },
      projector: { type: 'boolean' },
      day: { type: 'string', format: 'date' },
      note: { type: 'string' },
    },
    required: ['room', 'day'],
  },
};

function invocation(overrides: Partial<ToolCardInvocation> = {}): ToolCardInvocation {
  return {
    id: 'inv-1',
    tool: 'rooms__book_room',
    originalName: 'book_room',
    serverId: 'rooms',
    state: 'pending',
    outcome: null,
    error: null,
    args: { room: 'south', people: 6, projector: true, day: '2026-11-24', note: 'standing meeting' },
    ...overrides,
  };
}

const text = (value: string) => ({ type: 'text' as const, text: value, totalChars: value.length, truncated: false });
const screen = (blocks: ScreenPayload['blocks'], extra: Partial<ScreenPayload> = {}): ScreenPayload => ({
  blocks,
  isError: false,
  handle: 'h',
  ...extra,
});

async function card(props: Partial<AirlockToolCard>, options: { preset?: string } = {}): Promise<Page> {
  const attribute = options.preset === undefined ? '' : ` data-airlock-preset="${options.preset}"`;
  const page = await harness.open(`<div id="wrap"${attribute}><airlock-tool-card id="card"></airlock-tool-card></div>`);
  await set(page, props);
  return page;
}

async function set(page: Page, props: Partial<AirlockToolCard>): Promise<void> {
  await page.evaluate(
    async (props) => {
      const element = document.querySelector('#card') as AirlockToolCard;
      Object.assign(element, props);
      await element.updateComplete;
    },
    props as Record<string, unknown>,
  );
}

const inCard = (page: Page, selector: string) => page.locator('#card').locator(selector);

describe('R3: the badge never skips running', () => {
  it('shows Running… between Waiting and Error when a call fails before the card saw it run', async () => {
    const page = await card({ invocation: invocation(), tool: TOOL });
    await page.evaluate(() => {
      window.__badges = [];
      const root = document.querySelector('#card')!.shadowRoot!;
      const record = () => {
        const state = root.querySelector('[part=badge]')?.getAttribute('data-state') ?? '';
        if (window.__badges.at(-1) !== state) window.__badges.push(state);
      };
      record();
      new MutationObserver(record).observe(root, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
    });
    await set(page, {
      invocation: invocation({ state: 'error', outcome: 'tool_error', error: { code: 'tool_error', message: 'boom' } }),
    });
    await inCard(page, '[part=badge][data-state=error]').waitFor();
    expect(await page.evaluate(() => window.__badges)).toEqual(['pending', 'running', 'error']);
    await expect(inCard(page, '[part=reason] .reason-text').textContent()).resolves.toBe('boom');
  });

  it('goes from Waiting straight to Denied: a refused call never ran', async () => {
    const page = await card({ invocation: invocation(), tool: TOOL });
    await set(page, {
      invocation: invocation({
        state: 'cancelled',
        outcome: 'permission_denied',
        error: { code: 'permission_denied', message: 'denied by a rule' },
      }),
    });
    await expect(inCard(page, '[part=badge]').getAttribute('data-state')).resolves.toBe('denied');
    await expect(inCard(page, '[part=reason]').innerText()).resolves.toContain('denied by a rule');
    expect(await axeViolations(page, 'airlock-tool-card')).toEqual([]);
  });
});

describe('T2: the header toggles the arguments', () => {
  it('opens the arguments from a click on the header and closes them from a second, with a turning marker', async () => {
    const page = await card({ invocation: invocation(), tool: TOOL });
    // No transition, so the marker's turn is read at its end.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const details = inCard(page, 'details[part=args]');
    const marker = () =>
      inCard(page, '[part=args] > summary').evaluate((summary) => {
        const style = getComputedStyle(summary, '::before');
        return { width: parseFloat(style.width), transform: style.transform };
      });
    const closed = await marker();
    expect(closed.width).toBeGreaterThan(0);
    await inCard(page, '[part=name]').click();
    await expect(details.evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(true);
    await inCard(page, '[part=args] pre').waitFor();
    expect((await marker()).transform).not.toBe(closed.transform);
    await inCard(page, '[part=header]').click({ position: { x: 4, y: 4 } });
    await expect(details.evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(false);
  });
});

describe('R5: the form view', () => {
  it('shows each argument in a read-only control chosen by its schema, * for required, help from descriptions', async () => {
    const page = await card({ invocation: invocation({ state: 'success', outcome: 'success' }), tool: TOOL });
    await inCard(page, '[part=args] summary').click();
    await inCard(page, '[data-view=form]').click();
    const row = (name: string) => inCard(page, `.row[data-arg="${name}"]`);
    await expect(row('room').locator('[role=radio][aria-checked=true]').textContent()).resolves.toBe('south');
    await expect(row('room').locator('[role=radio]').count()).resolves.toBe(3);
    await expect(row('room').locator('.required').textContent()).resolves.toBe('*');
    await expect(row('room').locator('.help').textContent()).resolves.toBe('Which room');
    await expect(row('people').locator('input[type=number]').inputValue()).resolves.toBe('6');
    await expect(row('projector').locator('input[role=switch]').isChecked()).resolves.toBe(true);
    await expect(row('day').locator('input[type=date]').inputValue()).resolves.toBe('2026-11-24');
    await expect(row('day').locator('.required').count()).resolves.toBe(1);
    await expect(row('note').locator('input[type=text]').inputValue()).resolves.toBe('standing meeting');
    await expect(row('note').locator('.required').count()).resolves.toBe(0);
    expect(await axeViolations(page, 'airlock-tool-card')).toEqual([]);
  });
});

describe('R8: names a screen reader can tell apart', () => {
  it('gives every control of a full card one distinct accessible name', async () => {
    const long = Array.from({ length: 80 }, (_, i) => `row ${i}`).join('\n');
    const page = await card({
      invocation: invocation({ state: 'success', outcome: 'success' }),
      tool: TOOL,
      result: screen(
        [text(long), text(long), { type: 'image', mimeType: 'image/png', bytes: 70, data: PNG_1X1 }, text('end')],
        { structuredContent: { ok: true } },
      ),
    });
    await inCard(page, '[part=args] summary').click();
    await inCard(page, '[data-copy=args]').waitFor();
    const names = await page.evaluate(() => {
      const root = document.querySelector('#card')!.shadowRoot!;
      return [...root.querySelectorAll('button, summary, [role=radio]')]
        .filter((node) => (node as HTMLElement).checkVisibility())
        .map((node) => node.getAttribute('aria-label') ?? node.textContent?.replace(/\s+/g, ' ').trim() ?? '');
    });
    expect(names.length).toBeGreaterThan(6);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining(['Copy arguments', 'Copy block 1', 'Copy block 2', 'Copy result', 'Show more (block 1)']),
    );
    await expect(inCard(page, 'article').getAttribute('aria-label')).resolves.toBe('Tool invocation: Book a room');
    expect(await axeViolations(page, 'airlock-tool-card')).toEqual([]);
  });

  it('has a single copy control when the result has one text', async () => {
    const page = await card({
      invocation: invocation({ state: 'success', outcome: 'success' }),
      tool: TOOL,
      result: screen([text('only one')]),
    });
    await expect(inCard(page, '[data-copy]').count()).resolves.toBe(1);
    await expect(inCard(page, '[data-copy=result]').getAttribute('aria-label')).resolves.toBe('Copy result');
  });
});

describe('R2: small images', () => {
  it('opens a small inline image full size on click', async () => {
    const page = await card({
      invocation: invocation({ state: 'success', outcome: 'success' }),
      tool: TOOL,
      result: screen([{ type: 'image', mimeType: 'image/png', bytes: 70, data: PNG_1X1 }]),
    });
    await inCard(page, '.image-button').click();
    await inCard(page, 'dialog img.full-size').waitFor();
    await expect(inCard(page, 'dialog').evaluate((d) => (d as HTMLDialogElement).open)).resolves.toBe(true);
    expect(await axeViolations(page, 'airlock-tool-card')).toEqual([]);
  });
});

describe('R9: presets drawn from data-airlock-preset', () => {
  /** The computed styles that tell the presets apart, read from the card's own box and its name. */
  async function look(page: Page) {
    return inCard(page, '.card').evaluate((box) => {
      const style = getComputedStyle(box);
      const name = box.querySelector('.name')!;
      return {
        border: style.borderTopWidth,
        radius: style.borderTopLeftRadius,
        shadow: style.boxShadow,
        background: style.backgroundColor,
        image: style.backgroundImage,
        backdrop: style.backdropFilter,
        font: style.fontFamily,
        before: getComputedStyle(name, '::before').content,
        after: getComputedStyle(name, '::after').content,
        shown: (name as HTMLElement).innerText,
      };
    });
  }

  /** The bundle's own applyPreset, run in the page on <html>. */
  async function applyPreset(page: Page, name: string): Promise<void> {
    await page.addScriptTag({
      type: 'module',
      content: `import { applyPreset } from '/airlock-elements.js'; applyPreset(document.documentElement, '${name}', 'light');`,
    });
    await page.waitForFunction((preset) => document.documentElement.dataset['airlockPreset'] === preset, name);
  }

  async function presetCard(name: string): Promise<Page> {
    const page = await card({ invocation: invocation(), tool: { ...TOOL, title: undefined } });
    await applyPreset(page, name);
    await page.locator('#card[data-preset]').waitFor({ state: 'attached' });
    return page;
  }

  it('terminal_classic: [tool_name] in brackets, monospace, no shadow', async () => {
    const style = await look(await presetCard('terminal_classic'));
    expect([style.before, style.after]).toEqual(['"["', '"]"']);
    expect(style.font).toMatch(/mono/i);
    expect(style.shadow).toBe('none');
  });

  it('brutalist: a 2px border and sharp corners, no gradient', async () => {
    const style = await look(await presetCard('brutalist'));
    expect(style.border).toBe('2px');
    expect(style.radius).toBe('0px');
    expect(style.image).toBe('none');
  });

  it('cyberpunk_neon: a glow outline in the accent colour over a gradient backdrop', async () => {
    const page = await presetCard('cyberpunk_neon');
    const style = await look(page);
    const accent = await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--airlock-color-primary').trim(),
    );
    expect(style.image).toMatch(/^linear-gradient/);
    // Two shadows: a 1px ring and a blurred glow.
    expect(style.shadow.match(/(?:rgba?|color)\(/g)?.length).toBeGreaterThanOrEqual(2);
    const rgb = accent.match(/[0-9a-f]{2}/gi)!.map((hex) => parseInt(hex, 16));
    expect(style.shadow).toContain(`rgb(${rgb.join(', ')})`);
  });

  it('glassmorphism: a backdrop blur over a 20% surface tint', async () => {
    const style = await look(await presetCard('glassmorphism'));
    expect(style.backdrop).toMatch(/blur\(\d+px\)/);
    const alpha = Number(/[\d.]+(?=\)$)/.exec(style.background)?.[0]);
    // The preset's surface is itself translucent; the card shows 20% of it.
    expect(alpha).toBeGreaterThan(0);
    expect(alpha).toBeLessThanOrEqual(0.2);
  });

  it('minimalist_mono: a single border and no fill, monospace', async () => {
    const style = await look(await presetCard('minimalist_mono'));
    expect(style.border).toBe('1px');
    expect(style.background).toBe('rgba(0, 0, 0, 0)');
    expect(style.shadow).toBe('none');
    expect(style.font).toMatch(/mono/i);
  });

  it('restyles a card already on the page when the preset changes, and stays axe clean in each', async () => {
    const page = await presetCard('brutalist');
    expect((await look(page)).border).toBe('2px');
    for (const preset of ['terminal_classic', 'cyberpunk_neon', 'glassmorphism', 'minimalist_mono', 'material3']) {
      await applyPreset(page, preset);
      await page.locator(`#card[data-preset="${preset}"]`).waitFor({ state: 'attached' });
      expect(await axeViolations(page, 'airlock-tool-card'), preset).toEqual([]);
    }
    expect((await look(page)).border).toBe('1px');
  });
});

describe('Cancel call in the card', () => {
  it('offers Cancel call while a cancellable call waits or runs, fires airlock-tool-cancel, and not once it ended', async () => {
    const page = await card({ invocation: invocation({ state: 'running' }), tool: TOOL, cancellable: true });
    await page.evaluate(() => {
      window.__badges = [];
      document.addEventListener('airlock-tool-cancel', (event) =>
        window.__badges.push((event as CustomEvent<{ invocationId: string }>).detail.invocationId),
      );
    });
    await page.getByRole('button', { name: 'Cancel call' }).click();
    expect(await page.evaluate(() => window.__badges)).toEqual(['inv-1']);
    await set(page, { invocation: invocation({ state: 'cancelled', outcome: 'cancelled' }) });
    await expect(inCard(page, '[part=cancel]').count()).resolves.toBe(0);
  });
});

describe('T4: Retry', () => {
  it('goes back to running at once, and back to its error when the host hands the same call again (retry refused)', async () => {
    const failed = invocation({ state: 'error', outcome: 'tool_error', error: { code: 'tool_error', message: 'x' } });
    const page = await card({ invocation: failed, tool: TOOL });
    await inCard(page, '[part=retry]').click();
    await expect(inCard(page, '[part=badge]').getAttribute('data-state')).resolves.toBe('running');
    await set(page, { invocation: { ...failed } });
    await expect(inCard(page, '[part=badge]').getAttribute('data-state')).resolves.toBe('error');
    await expect(inCard(page, '[part=retry]').count()).resolves.toBe(1);
  });
});

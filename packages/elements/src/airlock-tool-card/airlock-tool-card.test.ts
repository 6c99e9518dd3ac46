import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ScreenBlock, ScreenPayload } from '@airlock/core';
import { axeViolations, BrowserHarness } from '../testing/browser.js';
import type { AirlockToolCard } from './airlock-tool-card.js';
import type { ToolCardInvocation, ToolCardProgress, ToolCardServer, ToolCardTool } from './tool-card-types.js';
import { XSS_PAYLOADS } from './xss-corpus.js';

declare global {
  interface Window {
    __xss: number;
    __copied: string[];
    __events: { type: string; detail: unknown }[];
  }
}

interface CardProps {
  invocation?: ToolCardInvocation;
  tool?: ToolCardTool;
  server?: ToolCardServer;
  result?: ScreenPayload | undefined;
  progress?: ToolCardProgress | undefined;
  fullText?: string;
}

const harness = new BrowserHarness();
beforeAll(() => harness.start());
afterAll(() => harness.stop());

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
/** The same pixel followed by 600 KB that decoders ignore: a real PNG above the 500 KB thumbnail line. */
const LARGE_PNG = Buffer.concat([Buffer.from(PNG_1X1, 'base64'), Buffer.alloc(600 * 1024)]).toString('base64');
const WAV = wav();

const TOOL: ToolCardTool = {
  name: 'search',
  title: 'Search files',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', title: 'Query', description: 'What to look for' },
      limit: { type: 'number' },
    },
    required: ['query'],
  },
};

function invocation(overrides: Partial<ToolCardInvocation> = {}): ToolCardInvocation {
  return {
    id: 'inv-1',
    tool: 'files__search',
    originalName: 'search',
    serverId: 'files',
    state: 'pending',
    outcome: null,
    error: null,
    args: { query: 'cats', limit: 10 },
    ...overrides,
  };
}

function text(value: string): ScreenBlock {
  return { type: 'text', text: value, totalChars: value.length, truncated: false };
}

function screen(blocks: ScreenBlock[], extra: Partial<ScreenPayload> = {}): ScreenPayload {
  return { blocks, isError: false, handle: 'result-1', ...extra };
}

function success(blocks: ScreenBlock[], extra: Partial<ScreenPayload> = {}): CardProps {
  return {
    invocation: invocation({ state: 'success', outcome: 'success' }),
    tool: TOOL,
    server: { id: 'files', trusted: true },
    result: screen(blocks, extra),
  };
}

/** A page with one card per id (default one, `#card`), each given its properties and rendered. */
async function mount(
  props: CardProps | Record<string, CardProps>,
  options: { lang?: string; width?: number } = {},
): Promise<Page> {
  const byId: Record<string, CardProps> =
    'invocation' in props || 'tool' in props ? { card: props } : (props as Record<string, CardProps>);
  const body = Object.keys(byId)
    .map((id) => `<airlock-tool-card id="${id}"></airlock-tool-card>`)
    .join('');
  const page = await harness.open(body, options);
  for (const [id, card] of Object.entries(byId)) await update(page, card, `#${id}`);
  return page;
}

/** Sets properties on a card and waits for it to render. */
async function update(page: Page, props: CardProps, selector = '#card'): Promise<void> {
  await page.evaluate(
    async ([selector, props]) => {
      const card = document.querySelector(selector) as AirlockToolCard;
      Object.assign(card, props);
      await card.updateComplete;
    },
    [selector, props] as const,
  );
}

/** Replaces navigator.clipboard with a recorder, and records every event the card dispatches. */
async function recordClipboardAndEvents(page: Page): Promise<void> {
  await page.evaluate(() => {
    window.__copied = [];
    window.__events = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: (value: string) => (window.__copied.push(value), Promise.resolve()) },
    });
    for (const type of ['airlock-tool-copy', 'airlock-tool-retry'])
      document.addEventListener(type, (event) => window.__events.push({ type, detail: (event as CustomEvent).detail }));
  });
}

const part = (page: Page, selector: string, card = '#card') => page.locator(card).locator(selector);

describe('<airlock-tool-card> anatomy', () => {
  it('shows the fallback glyph, the title and name, an untrusted server chip and a pending badge; args are closed', async () => {
    const page = await mount({
      invocation: invocation(),
      tool: { ...TOOL, icons: [{ src: 'http://cdn.example/icon.png' }] },
      server: { id: 'files', trusted: false },
    });
    // The generic tool icon is an SVG wrench: no emoji font is needed to draw it.
    await expect(part(page, '[part=icon] .glyph svg').count()).resolves.toBe(1);
    await expect(part(page, '[part=icon] .glyph').textContent()).resolves.toBe('');
    await expect(part(page, '[part=icon] img').count()).resolves.toBe(0);
    await expect(part(page, '[part=name]').textContent()).resolves.toBe('Search files');
    await expect(part(page, '.raw-name').textContent()).resolves.toBe('search');
    await expect(part(page, '[part=server]').innerText()).resolves.toMatch(/files\s*·\s*Untrusted server/);
    await expect(part(page, '[part=badge] .label').textContent()).resolves.toBe('Waiting');
    await expect(part(page, 'article').getAttribute('role')).resolves.toBe('region');
    await expect(part(page, 'article').getAttribute('aria-label')).resolves.toBe('Tool invocation: Search files');
    await expect(part(page, 'details[part=args]').evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(false);
    await expect(part(page, '[part=args] pre').count()).resolves.toBe(0);
    await expect(part(page, '[part=result]').count()).resolves.toBe(0);
  });

  it('loads an icon only from a data:image/ or https URL and marks a trusted server', async () => {
    const dataIcon = `data:image/png;base64,${PNG_1X1}`;
    const cards: Record<string, CardProps> = {
      data: {
        invocation: invocation(),
        tool: { ...TOOL, icons: [{ src: dataIcon }] },
        server: { id: 'a', trusted: true },
      },
      script: { invocation: invocation(), tool: { ...TOOL, icons: [{ src: 'javascript:alert(1)' }] } },
      file: { invocation: invocation(), tool: { ...TOOL, icons: [{ src: 'file:///etc/icon.png' }] } },
    };
    const page = await mount(cards);
    await expect(part(page, '[part=icon] img', '#data').getAttribute('src')).resolves.toBe(dataIcon);
    await expect(part(page, '[part=server]', '#data').innerText()).resolves.toMatch(/a\s*·\s*Trusted server/);
    await expect(part(page, '[part=server]', '#data').getAttribute('class')).resolves.toContain('trusted');
    for (const id of ['#script', '#file']) {
      await expect(part(page, '[part=icon] img', id).count()).resolves.toBe(0);
      await expect(part(page, '[part=icon] .glyph', id).count()).resolves.toBe(1);
    }
    // Without a server object the chip falls back to the invocation's server id, untrusted.
    await expect(part(page, '[part=server]', '#script').innerText()).resolves.toMatch(/files\s*·\s*Untrusted server/);
  });
});

describe('<airlock-tool-card> arguments', () => {
  it('opens the arguments from their summary and closes them again', async () => {
    const page = await mount({ invocation: invocation(), tool: TOOL });
    await part(page, '[part=args] summary').click();
    await expect(part(page, '[part=args] pre').textContent()).resolves.toBe(
      JSON.stringify({ query: 'cats', limit: 10 }, null, 2),
    );
    await part(page, '[part=args] summary').click();
    await part(page, '[part=args] pre').waitFor({ state: 'detached' });
    await expect(part(page, 'details[part=args]').evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(false);
  });

  it('switches between raw JSON and a read-only form built from the input schema', async () => {
    const page = await mount({
      invocation: invocation({ args: { query: 'cats', limit: 10, extra: { deep: true } } }),
      tool: TOOL,
    });
    await part(page, '[part=args] summary').click();
    await expect(part(page, '[data-view=json]').getAttribute('aria-pressed')).resolves.toBe('true');
    await part(page, '[data-view=form]').click();
    await expect(part(page, '[data-view=form]').getAttribute('aria-pressed')).resolves.toBe('true');
    const rows = await part(page, '.form .row').evaluateAll((rows) =>
      rows.map((row) => [
        row.querySelector('.label')?.textContent?.split('*')[0]?.trim(),
        row.querySelector('.required') !== null,
        row.querySelector('.help')?.textContent ?? null,
        row.querySelector('input')?.value ?? row.querySelector('.row-value')?.textContent?.trim(),
      ]),
    );
    expect(rows).toEqual([
      ['Query', true, 'What to look for', 'cats'],
      ['limit', false, null, '10'],
      ['extra', false, null, '{\n  "deep": true\n}'],
    ]);
    // Read-only: the call has run, nothing in the form can be changed.
    const editable = await part(page, '.form input').evaluateAll((inputs) =>
      inputs.filter((input) => !(input as HTMLInputElement).readOnly && !(input as HTMLInputElement).disabled),
    );
    expect(editable).toHaveLength(0);
    await part(page, '[data-view=json]').click();
    await expect(part(page, '[part=args] pre').textContent()).resolves.toContain('"deep": true');
  });

  it('collapses arguments longer than 100 lines behind show more, and copy copies all of them', async () => {
    const args = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`key${i}`, i]));
    const json = JSON.stringify(args, null, 2);
    const page = await mount({ invocation: invocation({ args }), tool: TOOL });
    await recordClipboardAndEvents(page);
    await part(page, '[part=args] summary').click();
    // Collapsed: clipped on screen to 100 lines, but the whole text is in the element (find-in-page reaches it).
    await expect(part(page, '[part=args] pre').textContent()).resolves.toBe(json);
    await expect(part(page, '[part=args] pre').getAttribute('class')).resolves.toContain('clipped');
    const [client, scroll] = await part(page, '[part=args] pre').evaluate((pre) => [
      pre.clientHeight,
      pre.scrollHeight,
    ]);
    expect(client).toBeLessThan(scroll);
    await part(page, '[part=args] [data-copy=args]').click();
    await expect(part(page, '[part=args] [data-copy=args]').getAttribute('data-copied')).resolves.toBe('true');
    expect(await page.evaluate(() => window.__copied)).toEqual([json]);
    expect(await page.evaluate(() => window.__events)).toEqual([{ type: 'airlock-tool-copy', detail: { text: json } }]);
    await part(page, '[part=args] [data-action=more]').click();
    await expect(part(page, '[part=args] pre').getAttribute('class')).resolves.not.toContain('clipped');
    await expect(part(page, '[part=args] [data-action=more]').textContent()).resolves.toContain('Show less');
  });
});

describe('<airlock-tool-card> states', () => {
  it('shows a task call working with its status message, then needing input', async () => {
    const page = await mount({ invocation: invocation({ state: 'running' }), tool: TOOL });
    const badge = part(page, '[part=badge]');
    await update(page, {
      invocation: invocation({ state: 'working' }),
      progress: { progress: 2, message: 'Gathering sources' },
    });
    await expect(badge.locator('.label').textContent()).resolves.toBe('Working…');
    await expect(badge.getAttribute('data-state')).resolves.toBe('working');
    await expect(badge.locator('.dot').count()).resolves.toBe(1);
    await expect(part(page, '[part=progress] .note').textContent()).resolves.toBe('Gathering sources');

    await update(page, {
      invocation: invocation({ state: 'input_required' }),
      progress: { progress: 3, message: 'Which python?' },
    });
    await expect(badge.locator('.label').textContent()).resolves.toBe('Needs input');
    await expect(badge.locator('.sr-only').textContent()).resolves.toBe('Search files (files): Needs input');
    await expect(badge.locator('.dot').count()).resolves.toBe(0);
    await expect(part(page, '[part=progress] .note').textContent()).resolves.toBe('Which python?');
  });

  it('shows each badge in turn as a call goes pending, running, success, and opens the result', async () => {
    const page = await mount({ invocation: invocation(), tool: TOOL, server: { id: 'files', trusted: true } });
    const badge = part(page, '[part=badge]');
    await expect(badge.locator('.label').textContent()).resolves.toBe('Waiting');
    await expect(badge.getAttribute('role')).resolves.toBe('status');
    await expect(badge.getAttribute('aria-live')).resolves.toBe('polite');
    await expect(badge.locator('.sr-only').textContent()).resolves.toBe('Search files (files): Waiting');

    await update(page, {
      invocation: invocation({ state: 'running' }),
      progress: { progress: 3, total: 10, message: 'Indexing' },
    });
    await expect(badge.locator('.label').textContent()).resolves.toBe('Running…');
    await expect(badge.locator('.sr-only').textContent()).resolves.toBe('Search files (files): Running…');
    await expect(badge.locator('.dot').count()).resolves.toBe(1);
    const bar = part(page, '[part=progress] progress');
    await expect(
      bar.evaluate((p) => [(p as HTMLProgressElement).value, (p as HTMLProgressElement).max]),
    ).resolves.toEqual([3, 10]);
    await expect(bar.getAttribute('aria-label')).resolves.toBe('Progress 3 of 10');
    await expect(part(page, '[part=progress] .note').textContent()).resolves.toBe('Indexing');

    await update(page, { progress: { progress: 4 } });
    await expect(part(page, '[part=progress] progress').count()).resolves.toBe(0);

    await update(page, {
      invocation: invocation({ state: 'success', outcome: 'success' }),
      result: screen([text('All **done**')]),
    });
    await expect(badge.locator('.label').textContent()).resolves.toBe('Done');
    await expect(badge.locator('.sr-only').textContent()).resolves.toBe('Search files (files): Done');
    await expect(part(page, '[part=progress]').count()).resolves.toBe(0);
    await expect(part(page, 'details[part=result]').evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(
      true,
    );
    await expect(part(page, '[part=result] strong').textContent()).resolves.toBe('done');
  });

  it('keeps a failed result collapsed, shows the error, and Retry fires airlock-tool-retry', async () => {
    const page = await mount({
      invocation: invocation({
        state: 'error',
        outcome: 'tool_error',
        error: { code: 'tool_error', message: 'files__search reported an error' },
      }),
      tool: TOOL,
      result: screen([text('disk full\npartial output')], { isError: true }),
    });
    await recordClipboardAndEvents(page);
    await expect(part(page, '[part=badge] .label').textContent()).resolves.toBe('Error');
    await expect(part(page, 'details[part=result]').evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(
      false,
    );
    // The reason is on the card without opening anything.
    await expect(part(page, '[part=reason]').isVisible()).resolves.toBe(true);
    // The tool's own words, not only "reported an error".
    await expect(part(page, '[part=reason] .reason-text').textContent()).resolves.toBe('disk full\npartial output');
    await expect(part(page, '[part=reason] .reason-code').textContent()).resolves.toBe('tool_error');
    await part(page, '[part=result] summary').click();
    await expect(part(page, '[part=result] .block.text').textContent()).resolves.toContain('partial output');

    await part(page, '[part=retry]').click();
    expect(await page.evaluate(() => window.__events)).toEqual([
      { type: 'airlock-tool-retry', detail: { invocationId: 'inv-1' } },
    ]);
    // The same card goes back to running at once (T4), and stays there as the host runs the call again.
    await expect(part(page, '[part=badge] .label').textContent()).resolves.toBe('Running…');
    await expect(part(page, '[part=retry]').count()).resolves.toBe(0);
    await expect(part(page, '[part=reason]').count()).resolves.toBe(0);
    await update(page, { invocation: invocation({ id: 'inv-2', state: 'running' }), result: undefined });
    await expect(part(page, '[part=badge] .label').textContent()).resolves.toBe('Running…');
    await expect(part(page, '[part=retry]').count()).resolves.toBe(0);
  });

  it('tells a denied call from a cancelled one, each with its reason visible, without a retry or a result', async () => {
    const page = await mount({
      denied: {
        invocation: invocation({
          state: 'cancelled',
          outcome: 'permission_denied',
          error: { code: 'permission_denied', message: 'the user denied files__search; it was not run' },
        }),
        tool: TOOL,
      },
      cancelled: {
        invocation: invocation({
          state: 'cancelled',
          outcome: 'cancelled',
          error: { code: 'cancelled', message: 'cancelled by the user' },
        }),
        tool: TOOL,
      },
    });
    await expect(part(page, '[part=badge] .label', '#denied').textContent()).resolves.toBe('Denied');
    await expect(part(page, '[part=badge]', '#denied').getAttribute('data-state')).resolves.toBe('denied');
    await expect(part(page, '[part=reason] .reason-text', '#denied').textContent()).resolves.toBe(
      'You denied this call; it did not run.',
    );
    await expect(part(page, '[part=reason] .reason-text', '#denied').getAttribute('title')).resolves.toBe(
      'the user denied files__search; it was not run',
    );
    await expect(part(page, '[part=badge] .label', '#cancelled').textContent()).resolves.toBe('Cancelled');
    await expect(part(page, '[part=reason] .reason-text', '#cancelled').textContent()).resolves.toBe(
      'cancelled by the user',
    );
    // The code shows where the words do not already say it: not "cancelled by the user cancelled".
    await expect(part(page, '[part=reason] .reason-code', '#denied').count()).resolves.toBe(0);
    await expect(part(page, '[part=reason] .reason-code', '#cancelled').count()).resolves.toBe(0);
    for (const id of ['#denied', '#cancelled']) {
      await expect(part(page, '[part=reason]', id).isVisible()).resolves.toBe(true);
      await expect(part(page, '[part=retry]', id).count()).resolves.toBe(0);
      await expect(part(page, '[part=result]', id).count()).resolves.toBe(0);
    }
  });

  it('stops the breathing dot under reduced motion', async () => {
    const page = await mount({ invocation: invocation({ state: 'running' }), tool: TOOL });
    const animation = () => part(page, '.dot').evaluate((dot) => getComputedStyle(dot).animationName);
    await expect(animation()).resolves.toBe('airlock-breathe');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await expect(animation()).resolves.toBe('none');
  });
});

describe('<airlock-tool-card> content types', () => {
  it('renders text as sanitised markdown, code fences with a language class', async () => {
    const page = await mount(
      success([text('# Heading\n\n- item\n\n```ts\nconst a = 1;\n```\n\n<b onclick="x()">b</b>')]),
    );
    await expect(part(page, '.markdown h1').textContent()).resolves.toBe('Heading');
    await expect(part(page, '.markdown li').textContent()).resolves.toBe('item');
    await expect(part(page, '.markdown pre code.language-ts').textContent()).resolves.toBe('const a = 1;\n');
    await expect(part(page, '.markdown b').getAttribute('onclick')).resolves.toBeNull();
  });

  it('shows a small png inline from a data: URL and only describes other image types', async () => {
    const page = await mount(
      success([
        { type: 'image', mimeType: 'image/png', bytes: 70, data: PNG_1X1 },
        { type: 'image', mimeType: 'image/svg+xml', bytes: 40, data: 'PHN2Zz48L3N2Zz4=' },
        { type: 'image', mimeType: 'image/png', bytes: 9_000_000 },
      ]),
    );
    const image = part(page, 'img.inline-image');
    await expect(image.getAttribute('src')).resolves.toBe(`data:image/png;base64,${PNG_1X1}`);
    await expect(part(page, '.image-button').getAttribute('aria-label')).resolves.toBe(
      'Open full size: Image (image/png, 70 B)',
    );
    await expect(image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).resolves.toBe(1);
    await expect(part(page, 'img').count()).resolves.toBe(1);
    const notes = await part(page, '[part=result] .note').allTextContents();
    expect(notes).toContain('Image (image/svg+xml, 40 B)');
    expect(notes).toContain('Image too large to show inline (8.6 MB)');
  });

  it('shows an image above 500 KB as a thumbnail that opens full size in a dialog', async () => {
    const page = await mount(success([{ type: 'image', mimeType: 'image/png', bytes: 614_470, data: LARGE_PNG }]));
    await expect(part(page, 'img.thumb').getAttribute('alt')).resolves.toBe('Image (image/png, 600.1 KB)');
    await expect(part(page, 'dialog').evaluate((d) => (d as HTMLDialogElement).open)).resolves.toBe(false);
    await part(page, '[data-action=open-full]').click();
    await part(page, 'dialog img.full-size').waitFor();
    await expect(part(page, 'dialog').evaluate((d) => (d as HTMLDialogElement).open)).resolves.toBe(true);
    await expect(part(page, 'dialog img.full-size').getAttribute('src')).resolves.toBe(
      `data:image/png;base64,${LARGE_PNG}`,
    );
    await part(page, 'dialog [data-action=close]').click();
    await part(page, 'dialog img.full-size').waitFor({ state: 'detached' });
  });

  it('plays audio from a data: URL and describes it', async () => {
    const page = await mount(success([{ type: 'audio', mimeType: 'audio/wav', bytes: 52, data: WAV }]));
    const audio = part(page, 'audio');
    await expect(audio.getAttribute('src')).resolves.toBe(`data:audio/wav;base64,${WAV}`);
    await expect(audio.getAttribute('controls')).resolves.toBe('');
    await expect(part(page, '.audio .note').textContent()).resolves.toBe('Audio (audio/wav, 52 B)');
  });

  it('shows a resource link as a button with its URI that is not a link, fetches nothing, and asks the host to open it', async () => {
    const requests: string[] = [];
    const page = await harness.open('<airlock-tool-card id="card"></airlock-tool-card>');
    page.on('request', (request) => requests.push(request.url()));
    await update(
      page,
      success([
        { type: 'resource_link', uri: 'https://tracker.example/report.pdf', name: 'report.pdf', title: 'Report' },
        text('![pixel](https://tracker.example/pixel.png) [site](https://tracker.example/page)'),
      ]),
    );
    await expect(part(page, '.link-chip').innerText()).resolves.toMatch(
      /Open Report\s*https:\/\/tracker\.example\/report\.pdf/,
    );
    const opened = page.evaluate(
      () =>
        new Promise<unknown>((resolve) =>
          document.addEventListener('airlock-tool-resource-open', (e) => resolve((e as CustomEvent).detail), {
            once: true,
          }),
        ),
    );
    await part(page, '.link-chip').click();
    await expect(opened).resolves.toMatchObject({ uri: 'https://tracker.example/report.pdf' });
    await expect(part(page, '.resource-link a').count()).resolves.toBe(0);
    await expect(part(page, '.resource-link [href]').count()).resolves.toBe(0);
    await page.evaluate(() => new Promise((settled) => requestAnimationFrame(settled)));
    await page.waitForLoadState('networkidle');
    expect(requests).toEqual([]);
  });

  it('renders embedded markdown as markdown, HTML as a code block of its source, and a blob as its type and size', async () => {
    const page = await mount(
      success([
        { type: 'resource', uri: 'file:///notes.md', mimeType: 'text/markdown', text: '## Notes\n\n*one*' },
        { type: 'resource', uri: 'file:///a.html', mimeType: 'text/html', text: '<h1>not html</h1>' },
        { type: 'resource', uri: 'file:///a.bin', mimeType: 'application/zip', blobBytes: 2048 },
      ]),
    );
    const resources = part(page, '.block.resource');
    await expect(resources.nth(0).locator('.resource-head').textContent()).resolves.toContain(
      'Resource file:///notes.md',
    );
    await expect(resources.nth(0).locator('.markdown h2').textContent()).resolves.toBe('Notes');
    await expect(resources.nth(1).locator('.code-block pre').textContent()).resolves.toBe('<h1>not html</h1>');
    await expect(resources.nth(1).locator('.code-label').textContent()).resolves.toBe('Code · HTML');
    await expect(resources.nth(1).locator('h1').count()).resolves.toBe(0);
    await expect(resources.nth(2).locator('.note').textContent()).resolves.toContain('application/zip, 2 KB, binary');
  });

  it('renders several blocks in order with dividers, then structured content as JSON', async () => {
    const page = await mount(
      success([text('first'), { type: 'resource_link', uri: 'u:1', name: 'n' }, text('third')], {
        structuredContent: { total: 2 },
      }),
    );
    const order = await part(page, '[part=result] .block, [part=result] hr').evaluateAll((nodes: Element[]) =>
      nodes.map((node) => (node.tagName === 'HR' ? 'hr' : node.className.replace('block ', ''))),
    );
    expect(order).toEqual(['text', 'hr', 'resource-link', 'hr', 'text', 'hr', 'structured']);
    await expect(part(page, '.structured pre').textContent()).resolves.toBe('{\n  "total": 2\n}');
  });
});

describe('<airlock-tool-card> truncation and copy', () => {
  it('collapses text beyond 2,000 characters after 30 lines; show more renders the rest; copy copies it all', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n\n');
    const page = await mount({ ...success([text(long), text('short')]), fullText: `FULL:${long}` });
    await recordClipboardAndEvents(page);
    const block = part(page, '.block.text').first();
    // Plain text keeps its line breaks; while collapsed all of it is in the element, clipped to 30 lines.
    const body = block.locator('.plain-text');
    await expect(body.textContent()).resolves.toBe(long);
    await expect(body.getAttribute('class')).resolves.toContain('clipped');
    const [clipped, whole] = await body.evaluate((el) => [el.clientHeight, el.scrollHeight]);
    expect(clipped).toBeLessThan(whole / 5);
    await block.locator('[data-copy=block-0]').click();
    await block.locator('[data-action=more]').click();
    await expect(body.getAttribute('class')).resolves.not.toContain('clipped');
    await expect(body.evaluate((el) => el.clientHeight)).resolves.toBe(whole);
    await expect(block.locator('[data-action=more]').textContent()).resolves.toContain('Show less');
    await part(page, '[data-copy=result]').click();
    await expect(part(page, '[data-copy=result]').getAttribute('data-copied')).resolves.toBe('true');
    expect(await page.evaluate(() => window.__copied)).toEqual([long, `FULL:${long}`]);
    await block.locator('[data-action=more]').click();
    await expect(body.getAttribute('class')).resolves.toContain('clipped');
  });

  it('copies every block text when the host gives no full text', async () => {
    const page = await mount(
      success([text('a'), { type: 'image', mimeType: 'image/png', bytes: 70, data: PNG_1X1 }, text('b')]),
    );
    await recordClipboardAndEvents(page);
    await part(page, '[data-copy=result]').click();
    await expect(part(page, '[data-copy=result]').getAttribute('data-copied')).resolves.toBe('true');
    expect(await page.evaluate(() => window.__copied)).toEqual(['a\n\nb']);
  });

  // The render time itself is measured by `npm run bench` (tool_card_5mb_render), never asserted in a test.
  it('renders only the head of a 5 MB text result at first, then the rest on demand', async () => {
    const page = await harness.open('');
    const timing = await page.evaluate(async () => {
      const big = `${'# Title\n\n'}${'some **markdown** text, a long log line with words in it\n'.repeat(90_000)}`;
      const card = document.createElement('airlock-tool-card');
      document.body.append(card);
      card.invocation = {
        id: 'big',
        tool: 'logs',
        originalName: 'logs',
        serverId: 'files',
        state: 'success',
        outcome: 'success',
        error: null,
        args: {},
      };
      card.result = {
        blocks: [{ type: 'text', text: big, totalChars: big.length, truncated: false }],
        isError: false,
        handle: 'h',
      };
      card.fullText = big;
      await card.updateComplete;
      const shown = card.shadowRoot?.querySelector('.markdown')?.textContent?.length ?? 0;
      return { chars: big.length, shown };
    });
    expect(timing.chars).toBeGreaterThan(5_000_000);
    expect(timing.shown).toBeLessThanOrEqual(50_000);
    await part(page, '[data-action=more]', 'airlock-tool-card').click();
    await expect(part(page, 'pre.plain', 'airlock-tool-card').evaluate((pre) => pre.textContent?.length)).resolves.toBe(
      timing.chars,
    );
  });
});

describe('<airlock-tool-card> language and accessibility', () => {
  it('speaks pt-BR when the page is in pt-BR', async () => {
    const long = 'linha\n'.repeat(1_000);
    const page = await mount({ ...success([text(long)]), progress: undefined }, { lang: 'pt-BR' });
    await expect(part(page, '[part=badge] .label').textContent()).resolves.toBe('Concluído');
    await expect(part(page, '[part=server] .trust').textContent()).resolves.toBe('Servidor confiável');
    await expect(part(page, '[part=args] summary').textContent()).resolves.toBe('Argumentos');
    await expect(part(page, '[part=result] summary').textContent()).resolves.toBe('Resultado');
    await expect(part(page, '[data-action=more]').textContent()).resolves.toContain('Mostrar mais');
    await expect(part(page, '[data-copy=result]').getAttribute('aria-label')).resolves.toBe('Copiar resultado');
    await expect(part(page, '[part=badge] .label').textContent()).resolves.toBe('Concluído');
    await update(page, { invocation: invocation({ state: 'error', error: { code: 'x', message: 'y' } }) });
    await expect(part(page, '[part=retry]').textContent()).resolves.toContain('Tentar de novo');
  });

  it('has no axe violations in any state, with everything open', async () => {
    const rich: ScreenBlock[] = [
      text('# Result\n\n```js\nlet a = 1;\n```\n\n' + 'word '.repeat(600)),
      { type: 'image', mimeType: 'image/png', bytes: 70, data: PNG_1X1 },
      { type: 'image', mimeType: 'image/png', bytes: 614_470, data: LARGE_PNG },
      { type: 'audio', mimeType: 'audio/wav', bytes: 52, data: WAV },
      { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' },
      { type: 'resource', uri: 'file:///b.md', mimeType: 'text/markdown', text: '**b**' },
      { type: 'resource', uri: 'file:///c.bin', mimeType: 'application/zip', blobBytes: 10 },
    ];
    const page = await mount({ invocation: invocation(), tool: TOOL, server: { id: 'files', trusted: false } });
    const states: CardProps[] = [
      { invocation: invocation() },
      { invocation: invocation({ state: 'running' }), progress: { progress: 1, total: 4, message: 'one of four' } },
      {
        invocation: invocation({ state: 'success', outcome: 'success' }),
        result: screen(rich, { structuredContent: { a: 1 } }),
      },
      {
        invocation: invocation({
          state: 'error',
          outcome: 'timeout',
          error: { code: 'timeout', message: 'took too long' },
        }),
        result: screen([text('partial')], { isError: true }),
      },
      { invocation: invocation({ state: 'cancelled', outcome: 'cancelled' }), result: undefined },
    ];
    for (const state of states) {
      await update(page, state);
      expect(await axeViolations(page, 'airlock-tool-card'), state.invocation?.state).toEqual([]);
    }
    await part(page, '[part=args] summary').click();
    await part(page, '[data-view=form]').click();
    expect(await axeViolations(page, 'airlock-tool-card'), 'form view').toEqual([]);
    await update(page, { invocation: invocation({ state: 'success', outcome: 'success' }), result: screen(rich) });
    await part(page, '.thumbnail [data-action=open-full]').click();
    await part(page, 'dialog img.full-size').waitFor();
    expect(await axeViolations(page, 'airlock-tool-card'), 'image dialog').toEqual([]);
  });

  it('gives Retry and the disclosures 48 by 48 pixels, and every other control at least 24 by 24', async () => {
    const page = await mount({
      ...success([text('x'.repeat(3_000))]),
      invocation: invocation({ state: 'error', error: { code: 'e', message: 'm' } }),
    });
    await part(page, '[part=result] summary').click();
    await part(page, '[part=args] summary').click();
    const sizes = await part(page, 'button, summary').evaluateAll((nodes) =>
      nodes
        .filter((node) => node.checkVisibility())
        .map((node) => [node.matches('summary, .retry'), node.getBoundingClientRect()] as const)
        .map(([large, rect]) => [large ? 48 : 24, rect.width, rect.height]),
    );
    expect(sizes.length).toBeGreaterThanOrEqual(5);
    for (const [least, width, height] of sizes) {
      expect(width).toBeGreaterThanOrEqual(least!);
      expect(height).toBeGreaterThanOrEqual(least!);
    }
  });
});

describe('<airlock-tool-card> against hostile servers', () => {
  it(`runs no script and fetches nothing for ${XSS_PAYLOADS.length} payloads in every field and content type`, async () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(50);
    const requests: string[] = [];
    const cards = Object.fromEntries(XSS_PAYLOADS.map((payload, i) => [`x${i}`, hostileCard(payload)]));
    const body = Object.keys(cards)
      .map((id) => `<airlock-tool-card id="${id}"></airlock-tool-card>`)
      .join('');
    const page = await harness.open(body);
    page.on('request', (request) => requests.push(request.url()));
    await page.evaluate(() => (window.__xss = 0));
    for (const [id, card] of Object.entries(cards)) {
      await update(page, { ...card, invocation: { ...card.invocation!, state: 'running' } }, `#${id}`);
      await update(page, card, `#${id}`);
    }
    // Open everything: arguments (JSON view), the failed result, every "show more".
    await page.evaluate(async () => {
      const toggled: Promise<unknown>[] = [];
      for (const card of document.querySelectorAll('airlock-tool-card')) {
        for (const details of card.shadowRoot!.querySelectorAll('details')) {
          if (details.open) continue;
          toggled.push(new Promise((done) => details.addEventListener('toggle', done, { once: true })));
          details.open = true;
        }
      }
      await Promise.all(toggled);
      for (const card of document.querySelectorAll('airlock-tool-card')) {
        await card.updateComplete;
        for (const more of card.shadowRoot!.querySelectorAll<HTMLButtonElement>('[data-action=more]')) more.click();
        await card.updateComplete;
      }
    });
    await settle(page);
    expect(await page.evaluate(() => window.__xss)).toBe(0);
    expect(await dangerousNodes(page)).toEqual([]);
    expect(await part(page, '[part=reason]', '#x0').count()).toBe(1);
    // The same again in the form view of the arguments.
    await page.evaluate(async () => {
      for (const card of document.querySelectorAll('airlock-tool-card')) {
        card.shadowRoot!.querySelector<HTMLButtonElement>('[data-view=form]')!.click();
        await card.updateComplete;
        for (const more of card.shadowRoot!.querySelectorAll<HTMLButtonElement>('[data-action=more]')) more.click();
        await card.updateComplete;
      }
    });
    await settle(page);
    await expect(part(page, '.form', '#x0').count()).resolves.toBe(1);
    expect(await page.evaluate(() => window.__xss)).toBe(0);
    expect(await dangerousNodes(page)).toEqual([]);
    expect(requests.filter((url) => !url.startsWith('data:'))).toEqual([]);
  });
});

/** One card with `payload` in every field a server controls, in the error state (result, error and progress). */
function hostileCard(payload: string): CardProps {
  const long = `${payload}\n${'filler line\n'.repeat(400)}${payload}`;
  return {
    invocation: invocation({
      id: payload,
      tool: payload,
      originalName: payload,
      serverId: payload,
      state: 'error',
      outcome: 'tool_error',
      error: { code: payload, message: payload },
      args: { [payload]: payload, nested: { value: payload, list: [payload] }, long },
    }),
    tool: {
      name: payload,
      title: `${payload} (title)`,
      icons: [{ src: payload }],
      inputSchema: {
        type: 'object',
        properties: { [payload]: { title: payload, description: payload }, nested: { description: payload } },
        required: [payload],
      },
    },
    server: { id: payload, trusted: false },
    progress: { progress: 1, total: 2, message: payload },
    fullText: payload,
    result: screen(
      [
        text(payload),
        text(long),
        { type: 'text', text: payload, totalChars: 1_000_000, truncated: true },
        { type: 'image', mimeType: payload, bytes: 10, data: payload },
        { type: 'image', mimeType: 'image/png', bytes: 10, data: payload },
        { type: 'image', mimeType: 'image/png', bytes: 900_000, data: PNG_1X1 },
        { type: 'audio', mimeType: payload, bytes: 10, data: payload },
        { type: 'resource_link', uri: payload, name: payload, title: payload, mimeType: payload },
        { type: 'resource', uri: payload, mimeType: 'text/markdown', text: payload },
        { type: 'resource', uri: payload, mimeType: 'text/markdown', text: long },
        { type: 'resource', uri: payload, mimeType: 'text/html', text: payload },
        { type: 'resource', uri: payload, mimeType: payload, text: payload },
        { type: 'resource', uri: payload, mimeType: payload, blob: payload, blobBytes: 3 },
        { type: 'resource', uri: payload, mimeType: 'image/png', blob: payload },
      ],
      { isError: true, structuredContent: { [payload]: payload }, meta: { [payload]: payload }, handle: payload },
    ),
  };
}

/** Waits for a frame and for the network to go quiet. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((frame) => requestAnimationFrame(frame)));
  await page.waitForLoadState('networkidle');
}

/** Scripts, frames, event-handler attributes and script URLs anywhere inside the cards' shadow roots. */
function dangerousNodes(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const urlAttributes = new Set([
      'href',
      'src',
      'action',
      'formaction',
      'xlink:href',
      'data',
      'poster',
      'background',
    ]);
    const visit = (root: ParentNode): void => {
      for (const element of root.querySelectorAll('*')) {
        if (/^(script|iframe|object|embed|frame|style|link|meta|base|form)$/i.test(element.tagName))
          found.push(`<${element.tagName.toLowerCase()}>`);
        for (const attribute of element.attributes) {
          if (/^on/i.test(attribute.name)) found.push(`${element.tagName} ${attribute.name}`);
          if (attribute.name === 'srcdoc') found.push(`${element.tagName} srcdoc`);
          if (
            urlAttributes.has(attribute.name.toLowerCase()) &&
            /^\s*(javascript|vbscript|data:text\/html)/i.test(attribute.value.replace(/[\p{Cc}\u200b]/gu, ''))
          )
            found.push(`${element.tagName} ${attribute.name}=${attribute.value}`);
          if (attribute.name === 'src' && element.tagName === 'IMG' && !attribute.value.startsWith('data:image/'))
            found.push(`IMG src=${attribute.value}`);
        }
        if (element.shadowRoot) visit(element.shadowRoot);
      }
    };
    for (const card of document.querySelectorAll('airlock-tool-card')) visit(card.shadowRoot!);
    return found;
  });
}

/** A 4-sample, 8-bit mono WAV file, base64. */
function wav(): string {
  const samples = Buffer.from([128, 160, 128, 96]);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]).toString('base64');
}

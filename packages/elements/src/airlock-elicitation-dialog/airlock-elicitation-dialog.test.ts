import type { ElicitationAnswer, ElicitationRequest, FormField, UrlInspection } from '@airlock/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, BrowserHarness } from '../testing/browser.js';

declare global {
  interface Window {
    __answers: ElicitationAnswer[];
    __done: string[];
    __opened: unknown[][];
    __xss: number;
  }
}

const harness = new BrowserHarness();
beforeAll(() => harness.start());
afterAll(() => harness.stop());

const SCOPE = { userId: 'u1', workspaceId: 'w1', conversationId: 'c1' };
/** A deadline far enough away that no countdown shows while a test runs. */
const later = () => Date.now() + 10 * 60_000;

function formRequest(fields: FormField[], initialValues: Record<string, unknown> = {}): ElicitationRequest {
  return {
    id: 'el-1',
    scope: SCOPE,
    invocationId: 'inv-1',
    serverId: 'weather',
    tool: 'weather__forecast',
    mode: 'form',
    message: 'Weather lookup needs your input',
    createdAt: Date.now(),
    deadline: later(),
    form: { model: { fields }, initialValues },
  };
}

/** The seed's T1 schema: a required city and an optional unit. */
const WEATHER = formRequest([
  { kind: 'text', name: 'city', label: 'City', description: 'Your city', required: true, multiline: false },
  {
    kind: 'select',
    name: 'unit',
    label: 'Temperature unit',
    required: false,
    options: [
      { value: 'C', label: 'Celsius' },
      { value: 'F', label: 'Fahrenheit' },
    ],
  },
  { kind: 'number', name: 'days', label: 'Days', required: false, integer: true, minimum: 1, maximum: 10 },
  { kind: 'boolean', name: 'alerts', label: 'Send alerts', required: false },
  { kind: 'text', name: 'note', label: 'Note', required: false, multiline: true },
]);

const COUNTRIES = ['AR', 'BR', 'CL', 'PT', 'UY'].map((value) => ({ value, label: `Country ${value}` }));

/** One field of every kind, each with a default. */
const EVERY_KIND = formRequest(
  [
    { kind: 'text', name: 'name', label: 'Name', required: true, multiline: false, minLength: 2, maxLength: 20 },
    { kind: 'text', name: 'bio', label: 'Bio', required: false, multiline: true },
    { kind: 'text', name: 'email', label: 'Email', required: false, multiline: false, format: 'email' },
    { kind: 'text', name: 'site', label: 'Site', required: false, multiline: false, format: 'uri' },
    { kind: 'text', name: 'day', label: 'Day', required: false, multiline: false, format: 'date' },
    { kind: 'text', name: 'when', label: 'When', required: false, multiline: false, format: 'date-time' },
    { kind: 'number', name: 'ratio', label: 'Ratio', required: false, integer: false, minimum: 0, maximum: 1 },
    { kind: 'number', name: 'count', label: 'Count', required: true, integer: true, minimum: 1, maximum: 10 },
    { kind: 'boolean', name: 'subscribe', label: 'Subscribe', required: false },
    {
      kind: 'select',
      name: 'size',
      label: 'Size',
      required: false,
      options: ['S', 'M', 'L'].map((value) => ({ value, label: `Size ${value}` })),
    },
    { kind: 'select', name: 'country', label: 'Country', required: false, options: COUNTRIES },
    {
      kind: 'multiselect',
      name: 'tags',
      label: 'Tags',
      required: false,
      minItems: 1,
      maxItems: 2,
      options: ['a', 'b', 'c'].map((value) => ({ value, label: `Tag ${value}` })),
    },
  ],
  {
    name: 'Ada',
    bio: 'line one\nline two',
    email: 'ada@example.com',
    site: 'https://example.com/',
    day: '2025-01-31',
    when: '2025-01-31T09:30:00Z',
    ratio: 0.5,
    count: 3,
    subscribe: true,
    size: 'M',
    country: 'BR',
    tags: ['a', 'c'],
  },
);

function urlInspection(overrides: Partial<UrlInspection> = {}): UrlInspection {
  return {
    url: 'https://login.example.test/elicit/abc?state=1',
    host: 'login.example.test',
    displayHost: 'login.example.test',
    scheme: 'https',
    https: true,
    punycode: false,
    warnings: [],
    ...overrides,
  };
}

function urlRequest(url: UrlInspection = urlInspection(), message = 'Sign in to GitHub'): ElicitationRequest {
  return { ...formRequest([]), id: 'el-url', mode: 'url', message, form: undefined, url };
}

/** A page with one dialog showing `request`: answers in `window.__answers`, done events in `window.__done`. */
async function openDialog(
  request: ElicitationRequest,
  options: { lang?: string; width?: number; now?: number } = {},
): Promise<Page> {
  const page = await harness.open(
    '<main><h1>Host</h1><airlock-elicitation-dialog></airlock-elicitation-dialog></main>',
    options,
  );
  await page.evaluate(
    async ({ value, now }) => {
      await customElements.whenDefined('airlock-elicitation-dialog');
      const dialog = document.querySelector('airlock-elicitation-dialog')!;
      window.__answers = [];
      window.__done = [];
      window.__xss = 0;
      window.__opened = [];
      dialog.addEventListener('airlock-elicitation-answer', (event) => window.__answers.push(event.answer));
      dialog.addEventListener('airlock-elicitation-done', (event) => window.__done.push(event.requestId));
      if (now !== null) dialog.now = now;
      dialog.request = value;
      dialog.show();
      await dialog.updateComplete;
    },
    { value: request, now: options.now ?? null },
  );
  return page;
}

const answers = (page: Page) => page.evaluate(() => window.__answers);
const isOpen = (page: Page) =>
  page.evaluate(() => document.querySelector('airlock-elicitation-dialog')!.shadowRoot!.querySelector('dialog')!.open);
const inDialog = (page: Page, selector: string) => page.locator(`airlock-elicitation-dialog ${selector}`);
const text = async (page: Page, selector: string) =>
  ((await inDialog(page, selector).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
const submit = (page: Page) => inDialog(page, '[part~="action-accept"]');
const settled = (page: Page) =>
  page.evaluate(async () => {
    const dialog = document.querySelector('airlock-elicitation-dialog')!.shadowRoot!.querySelector('dialog')!;
    await Promise.all(dialog.getAnimations().map((animation) => animation.finished));
  });
const update = (page: Page) =>
  page.evaluate(() => document.querySelector('airlock-elicitation-dialog')!.updateComplete.then(() => undefined));

describe('<airlock-elicitation-dialog> in form mode', () => {
  it('renders both fields of a two-field schema, labelled, with the message and the server (T1)', async () => {
    const page = await openDialog(formRequest(WEATHER.form!.model.fields.slice(0, 2)));
    expect(await isOpen(page)).toBe(true);
    expect(await text(page, 'h2')).toBe('The server weather asks (tool “weather__forecast”):');
    expect(await text(page, '[part~="message"]')).toBe('Weather lookup needs your input');
    await expect(
      page.getByRole('dialog', { name: 'Question from the server weather (tool “weather__forecast”)' }).count(),
    ).resolves.toBe(1);
    const city = page.getByRole('textbox', { name: 'City' });
    expect(await city.getAttribute('aria-required')).toBe('true');
    expect(await city.getAttribute('aria-describedby')).toBe('field-0-desc');
    expect(await text(page, '#field-0-desc')).toBe('Your city');
    expect(await text(page, 'label[for="field-0"]')).toBe('City *');
    const unit = page.getByRole('radiogroup', { name: 'Temperature unit' });
    await expect(unit.getByRole('radio').count()).resolves.toBe(2);
    expect(await unit.getByRole('radio', { name: 'Celsius' }).isChecked()).toBe(false);
    // Focus starts on the first field.
    const focusedId = await page.evaluate(
      () => document.querySelector('airlock-elicitation-dialog')!.shadowRoot!.activeElement?.id,
    );
    expect(focusedId).toBe('field-0');
  });

  it('keeps submit disabled and marks the field invalid while a required field is empty (T2)', async () => {
    const page = await openDialog(WEATHER);
    expect(await submit(page).isDisabled()).toBe(true);
    const city = inDialog(page, '#field-0');
    expect(await city.getAttribute('aria-invalid')).toBe('false');
    await city.focus();
    await city.blur();
    expect(await city.getAttribute('aria-invalid')).toBe('true');
    expect(await city.getAttribute('aria-describedby')).toBe('field-0-desc field-0-err');
    expect(await text(page, '#field-0-err')).toBe('City is required.');
    // The disabled Submit says why, as its description.
    expect(await submit(page).getAttribute('aria-describedby')).toBe('submit-why');
    expect(await text(page, '#submit-why')).toBe('Submit is unavailable until these are fixed: City is required.');
    await city.fill('Lisbon');
    expect(await city.getAttribute('aria-invalid')).toBe('false');
    expect(await submit(page).isDisabled()).toBe(false);
  });

  it('refuses numbers out of range or with fractions for an integer field', async () => {
    const page = await openDialog(WEATHER);
    await inDialog(page, '#field-0').fill('Lisbon');
    const days = page.getByRole('spinbutton', { name: 'Days' });
    for (const [typed, error] of [
      ['11', 'Days must be between 1 and 10.'],
      ['2.5', 'Days must be a whole number.'],
    ] as const) {
      await days.fill(typed);
      await days.blur();
      expect(await days.getAttribute('aria-invalid')).toBe('true');
      expect(await text(page, '#field-2-err')).toBe(error);
      expect(await submit(page).isDisabled()).toBe(true);
    }
    await days.fill('7');
    expect(await days.getAttribute('aria-invalid')).toBe('false');
    expect(await submit(page).isDisabled()).toBe(false);
  });

  it('sends accept with typed values and leaves empty optional fields out (T3)', async () => {
    const page = await openDialog(WEATHER);
    await inDialog(page, '#field-0').fill('Lisbon');
    await page.getByRole('radio', { name: 'Fahrenheit' }).check();
    await page.getByRole('spinbutton', { name: 'Days' }).fill('7');
    await page.getByRole('switch', { name: 'Send alerts' }).check();
    await submit(page).click();
    expect(await answers(page)).toEqual([
      { action: 'accept', content: { city: 'Lisbon', unit: 'F', days: 7, alerts: true } },
    ]);
    expect(await isOpen(page)).toBe(false);
  });

  it('submits on Enter in a text field once the form is valid', async () => {
    const page = await openDialog(WEATHER);
    await inDialog(page, '#field-0').fill('Porto');
    await inDialog(page, '#field-0').press('Enter');
    expect(await answers(page)).toEqual([{ action: 'accept', content: { city: 'Porto' } }]);
  });

  it('sends decline on reject (T4)', async () => {
    const page = await openDialog(WEATHER);
    await page.getByRole('button', { name: 'Reject' }).click();
    expect(await answers(page)).toEqual([{ action: 'decline' }]);
    expect(await isOpen(page)).toBe(false);
  });

  it('sends cancel on Esc (T5), on the cancel button and on the close button', async () => {
    const page = await openDialog(WEATHER);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => window.__answers.length === 1);
    expect(await isOpen(page)).toBe(false);
    for (const name of ['Cancel', 'Close']) {
      await page.evaluate(async () => {
        const dialog = document.querySelector('airlock-elicitation-dialog')!;
        dialog.show();
        await dialog.updateComplete;
      });
      await page.getByRole('button', { name, exact: true }).click();
      expect(await isOpen(page)).toBe(false);
    }
    expect(await answers(page)).toEqual([{ action: 'cancel' }, { action: 'cancel' }, { action: 'cancel' }]);
  });

  it('renders every field kind with its control, pre-filled from the defaults, and sends them typed', async () => {
    const page = await openDialog(EVERY_KIND);
    const value = (id: string) => inDialog(page, `#${id}`).inputValue();
    const type = (id: string) => inDialog(page, `#${id}`).getAttribute('type');
    expect([await type('field-0'), await value('field-0')]).toEqual(['text', 'Ada']);
    expect(await inDialog(page, 'textarea#field-1').inputValue()).toBe('line one\nline two');
    expect([await type('field-2'), await value('field-2')]).toEqual(['email', 'ada@example.com']);
    expect([await type('field-3'), await value('field-3')]).toEqual(['url', 'https://example.com/']);
    expect([await type('field-4'), await value('field-4')]).toEqual(['date', '2025-01-31']);
    expect(await type('field-5')).toBe('datetime-local');
    const localWhen = await page.evaluate(() => {
      const d = new Date('2025-01-31T09:30:00Z');
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
    });
    expect(await value('field-5')).toBe(localWhen);
    const ratio = inDialog(page, '#field-6');
    expect([await type('field-6'), await value('field-6'), await ratio.getAttribute('step')]).toEqual([
      'number',
      '0.5',
      'any',
    ]);
    const count = inDialog(page, '#field-7');
    expect([await value('field-7'), await count.getAttribute('min'), await count.getAttribute('max')]).toEqual([
      '3',
      '1',
      '10',
    ]);
    expect(await count.getAttribute('step')).toBe('1');
    expect(await page.getByRole('switch', { name: 'Subscribe' }).isChecked()).toBe(true);
    expect(
      await page.getByRole('radiogroup', { name: 'Size' }).getByRole('radio', { name: 'Size M' }).isChecked(),
    ).toBe(true);
    const country = page.getByRole('combobox', { name: 'Country' });
    expect(await country.inputValue()).toBe('BR');
    await expect(country.locator('option').count()).resolves.toBe(6);
    const tags = page.getByRole('group', { name: 'Tags' });
    expect(await tags.getByRole('checkbox', { name: 'Tag a' }).isChecked()).toBe(true);
    expect(await tags.getByRole('checkbox', { name: 'Tag b' }).isChecked()).toBe(false);
    expect(await tags.getByRole('checkbox', { name: 'Tag c' }).isChecked()).toBe(true);

    // Three tags is over maxItems: refused until one is unchecked.
    await tags.getByRole('checkbox', { name: 'Tag b' }).check();
    expect(await submit(page).isDisabled()).toBe(true);
    expect(await text(page, '#field-11-err')).toBe('Choose 1 to 2 options for Tags.');
    await tags.getByRole('checkbox', { name: 'Tag a' }).uncheck();
    await country.selectOption('PT');
    await submit(page).click();
    const [answer] = await answers(page);
    expect(answer?.action).toBe('accept');
    const content = (answer as { content: Record<string, unknown> }).content;
    expect(Date.parse(content['when'] as string)).toBe(Date.parse('2025-01-31T09:30:00Z'));
    expect(content['when']).toMatch(/^2025-01-31T\d{2}:30:00(Z|[+-]\d{2}:\d{2})$/);
    expect({ ...content, when: undefined }).toEqual({
      name: 'Ada',
      bio: 'line one\nline two',
      email: 'ada@example.com',
      site: 'https://example.com/',
      day: '2025-01-31',
      when: undefined,
      ratio: 0.5,
      count: 3,
      subscribe: true,
      size: 'M',
      country: 'PT',
      tags: ['b', 'c'],
    });
  });

  it('refuses a malformed email and a too-short name', async () => {
    const page = await openDialog(EVERY_KIND);
    const email = page.getByRole('textbox', { name: 'Email' });
    await email.fill('not-an-email');
    await email.blur();
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await text(page, '#field-2-err')).toBe('Email must look like name@example.com.');
    await email.fill('');
    const name = inDialog(page, '#field-0');
    await name.fill('A');
    await name.blur();
    expect(await text(page, '#field-0-err')).toBe('Name must be 2 to 20 characters long.');
    expect(await submit(page).isDisabled()).toBe(true);
  });

  it("shows the server's errors on their fields until the user edits them", async () => {
    const page = await openDialog({ ...WEATHER, errors: { city: 'Unknown city', '': 'Try again' } });
    const city = inDialog(page, '#field-0');
    expect(await city.getAttribute('aria-invalid')).toBe('true');
    expect(await text(page, '#field-0-err')).toBe('Unknown city');
    expect(await text(page, 'form [part~="error"]')).toBe('Try again');
    await city.fill('Lisbon');
    expect(await city.getAttribute('aria-invalid')).toBe('false');
    expect(await inDialog(page, '#field-0-err').count()).toBe(0);
  });

  it('keeps Tab inside: from the last button to the close button', async () => {
    const page = await openDialog(WEATHER);
    await inDialog(page, '#field-0').fill('Lisbon');
    await submit(page).focus();
    await page.keyboard.press('Tab');
    const active = () =>
      page.evaluate(() =>
        document.querySelector('airlock-elicitation-dialog')!.shadowRoot!.activeElement?.getAttribute('part'),
      );
    expect(await active()).toBe('close');
    await page.keyboard.press('Shift+Tab');
    expect(await active()).toBe('action action-accept');
    // The browser does not act on a synthetic Tab: this shows the dialog itself wraps the focus.
    const wrapped = await page.evaluate(() => {
      const root = document.querySelector('airlock-elicitation-dialog')!.shadowRoot!;
      const tab = new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, composed: true, cancelable: true });
      root.activeElement!.dispatchEvent(tab);
      return [tab.defaultPrevented, root.activeElement?.getAttribute('part')];
    });
    expect(wrapped).toEqual([true, 'close']);
  });
});

describe('<airlock-elicitation-dialog> in URL mode', () => {
  it('shows the full URL and the site, fetches nothing, and opens only on consent, with noopener (T6)', async () => {
    const url = urlInspection();
    const fetched: string[] = [];
    const page = await harness.open('<airlock-elicitation-dialog></airlock-elicitation-dialog>');
    page.on('request', (request) => fetched.push(request.url()));
    await page.evaluate(async (value) => {
      window.__answers = [];
      window.__done = [];
      window.__opened = [];
      // A tab as window.open gives it: what the dialog does to it is kept.
      window.open = (...args: unknown[]) => {
        const tab = { opener: window as unknown, closed: false, went: [] as string[] };
        window.__opened.push([...args, tab]);
        return Object.assign(tab, {
          location: { replace: (to: string) => tab.went.push(to) },
          close: () => (tab.closed = true),
        }) as unknown as Window;
      };
      const dialog = document.querySelector('airlock-elicitation-dialog')!;
      dialog.addEventListener('airlock-elicitation-answer', (event) => window.__answers.push(event.answer));
      dialog.addEventListener('airlock-elicitation-done', (event) => window.__done.push(event.requestId));
      dialog.request = value;
      dialog.show();
      await dialog.updateComplete;
    }, urlRequest(url));
    expect(await text(page, '[part~="message"]')).toBe('Sign in to GitHub');
    expect(await text(page, '[part~="url"]')).toBe(url.url);
    expect(await text(page, '[part~="url"] strong')).toBe('login.example.test');
    expect(await text(page, 'mark[part~="host"]')).toBe('login.example.test');
    expect(await inDialog(page, '[part~="raw-host"]').count()).toBe(0);
    expect(
      await page.locator('a, link, img, iframe, airlock-elicitation-dialog a, airlock-elicitation-dialog img').count(),
    ).toBe(0);
    expect(fetched.filter((u) => u.includes('login.example.test'))).toEqual([]);
    expect(await page.evaluate(() => window.__opened)).toEqual([]);
    expect(await inDialog(page, '[part~="action-done"]').count()).toBe(0);

    await page.getByRole('button', { name: 'Open page' }).click();
    // A blank tab, its opener cut, then sent to the address: the handle is kept, the tab cannot reach this page.
    expect(await page.evaluate(() => JSON.parse(JSON.stringify(window.__opened)) as unknown)).toEqual([
      ['about:blank', '_blank', { opener: null, closed: false, went: [url.url], location: {} }],
    ]);
    expect(await answers(page)).toEqual([{ action: 'accept' }]);
    expect(await text(page, '[part~="status"]')).toBe('Opening external page');
    expect(await inDialog(page, '[part~="status"]').getAttribute('role')).toBe('status');
    expect(await isOpen(page)).toBe(true);
    expect(await page.getByRole('button', { name: 'Done, retry' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Cancel' }).isVisible()).toBe(true);
    expect(fetched.filter((u) => u.includes('login.example.test'))).toEqual([]);

    await page.getByRole('button', { name: 'Done, retry' }).click();
    expect(await page.evaluate(() => window.__done)).toEqual(['el-url']);
    expect(await isOpen(page)).toBe(false);
    // The flow is over: its tab is closed.
    expect(await page.evaluate(() => (window.__opened[0]!.at(-1) as { closed: boolean }).closed)).toBe(true);
    expect(await answers(page)).toEqual([{ action: 'accept' }]);
  });

  it('lets the user decline before opening, or cancel after opening', async () => {
    const declined = await openDialog(urlRequest());
    await declined.getByRole('button', { name: 'Reject' }).click();
    expect(await answers(declined)).toEqual([{ action: 'decline' }]);

    const page = await openDialog(urlRequest());
    await page.evaluate(() => (window.open = () => null));
    await page.getByRole('button', { name: 'Open page' }).click();
    expect(await page.getByRole('button', { name: 'Reject' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await answers(page)).toEqual([{ action: 'accept' }, { action: 'cancel' }]);
    expect(await isOpen(page)).toBe(false);
  });

  it('closes the tab it opened when the user cancels, and when the host ends the question', async () => {
    /** Stubs window.open with a tab whose closing is seen; returns how many tabs are still open. */
    const stubTabs = (page: Page) =>
      page.evaluate(() => {
        window.__opened = [];
        window.open = () => {
          const tab = { opener: window as unknown, closed: false, location: { replace: () => undefined } };
          window.__opened.push([tab]);
          return Object.assign(tab, { close: () => (tab.closed = true) }) as unknown as Window;
        };
      });
    const stillOpen = (page: Page) =>
      page.evaluate(() => window.__opened.filter(([tab]) => !(tab as { closed: boolean }).closed).length);

    const cancelled = await openDialog(urlRequest());
    await stubTabs(cancelled);
    await cancelled.getByRole('button', { name: 'Open page' }).click();
    expect(await stillOpen(cancelled)).toBe(1);
    await cancelled.getByRole('button', { name: 'Cancel' }).click();
    expect(await stillOpen(cancelled)).toBe(0);

    // The host closes the question (the server's completion notice, a timeout): request set to undefined.
    const ended = await openDialog(urlRequest());
    await stubTabs(ended);
    await ended.getByRole('button', { name: 'Open page' }).click();
    expect(await stillOpen(ended)).toBe(1);
    await ended.evaluate(async () => {
      const dialog = document.querySelector('airlock-elicitation-dialog')!;
      dialog.request = undefined;
      await dialog.updateComplete;
    });
    expect(await stillOpen(ended)).toBe(0);
    expect(await isOpen(ended)).toBe(false);
  });

  it('emphasises the Unicode site, shows the punycode host beside it, and warns', async () => {
    const url = urlInspection({
      url: 'http://user:pw@xn--pple-43d.com/login',
      host: 'xn--pple-43d.com',
      displayHost: 'аpple.com',
      scheme: 'http',
      https: false,
      punycode: true,
      warnings: ['not_https', 'punycode', 'credentials_in_url'],
    });
    const page = await openDialog(urlRequest(url));
    expect(await text(page, 'mark[part~="host"]')).toBe('аpple.com');
    expect(await text(page, '[part~="raw-host"]')).toBe('xn--pple-43d.com');
    expect(await text(page, '[part~="url"] strong')).toBe('xn--pple-43d.com');
    expect(await text(page, '[part~="warnings"] p')).toBe('⚠ Check this address before you open it');
    expect(await inDialog(page, '[part~="warnings"] li').allTextContents()).toEqual([
      'This page is not served over HTTPS.',
      'The address uses look-alike (punycode) characters.',
      'The address carries a user name or password.',
    ]);
  });
});

describe('<airlock-elicitation-dialog> timing and withdrawal', () => {
  it('shows the countdown only in the last 30 s (T7)', async () => {
    const request = WEATHER;
    const page = await openDialog(request, { now: request.deadline - 31_000 });
    expect(await text(page, '[part~="countdown"]')).toBe('');
    expect(await inDialog(page, '[part~="countdown"]').getAttribute('aria-live')).toBe('polite');
    await page.evaluate(async (now) => {
      const dialog = document.querySelector('airlock-elicitation-dialog')!;
      dialog.now = now;
      await dialog.updateComplete;
    }, request.deadline - 12_000);
    expect(await text(page, '[part~="countdown"]')).toBe('Closing in 12s');
  });

  it('counts down each second on the real clock near the deadline', async () => {
    const page = await openDialog({ ...WEATHER, deadline: Date.now() + 3_500 });
    const first = await text(page, '[part~="countdown"]');
    expect(first).toMatch(/^Closing in [1-4]s$/);
    await page.waitForFunction(
      (shown) =>
        document
          .querySelector('airlock-elicitation-dialog')!
          .shadowRoot!.querySelector('.countdown')!
          .textContent.trim() !== shown,
      first,
    );
    expect(await text(page, '[part~="countdown"]')).toMatch(/^Closing in [0-3]s$/);
  });

  it('closes without an answer when the host withdraws the request or calls close() (T8)', async () => {
    const page = await openDialog(WEATHER);
    await page.evaluate(async () => {
      const dialog = document.querySelector('airlock-elicitation-dialog')!;
      dialog.request = undefined;
      await dialog.updateComplete;
    });
    expect(await isOpen(page)).toBe(false);
    await page.keyboard.press('Escape');
    const closed = await openDialog(urlRequest());
    await closed.evaluate(async () => {
      const dialog = document.querySelector('airlock-elicitation-dialog')!;
      dialog.close();
      await dialog.updateComplete;
    });
    expect(await isOpen(closed)).toBe(false);
    await closed.keyboard.press('Escape');
    await update(closed);
    expect(await answers(page)).toEqual([]);
    expect(await answers(closed)).toEqual([]);
  });
});

describe('<airlock-elicitation-dialog> language, accessibility and safety', () => {
  it('speaks Brazilian Portuguese with the ratified copy', async () => {
    const page = await openDialog(WEATHER, { lang: 'pt-BR', now: WEATHER.deadline - 12_000 });
    expect(await page.getByRole('button', { name: 'Enviar' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Recusar' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Cancelar' }).count()).toBe(1);
    expect(await text(page, '[part~="countdown"]')).toBe('Fechando em 12s');
    await inDialog(page, '#field-0').focus();
    await inDialog(page, '#field-0').blur();
    expect(await text(page, '#field-0-err')).toBe('City é obrigatório.');
    const url = await openDialog(urlRequest(), { lang: 'pt-BR' });
    await url.evaluate(() => (window.open = () => null));
    await url.getByRole('button', { name: 'Abrir página' }).click();
    expect(await text(url, '[part~="status"]')).toBe('Abrindo página externa');
  });

  it('has no axe violations in form mode, with errors shown, and in URL mode', async () => {
    const axe = async (page: Page) => {
      await settled(page);
      return axeViolations(page);
    };
    expect(await axe(await openDialog(EVERY_KIND))).toEqual([]);
    const invalid = await openDialog({ ...WEATHER, errors: { city: 'Unknown city' } }, { width: 400 });
    await inDialog(invalid, '#field-2').fill('99');
    await inDialog(invalid, '#field-2').blur();
    expect(await axe(invalid)).toEqual([]);
    const warned = urlInspection({ url: 'http://10.0.0.1/x', host: '10.0.0.1', displayHost: '10.0.0.1' });
    expect(await axe(await openDialog(urlRequest({ ...warned, warnings: ['not_https', 'ip_address'] })))).toEqual([]);
    const opened = await openDialog(urlRequest(), { now: WEATHER.deadline - 5_000 });
    await opened.evaluate(() => (window.open = () => null));
    await opened.getByRole('button', { name: 'Open page' }).click();
    expect(await axe(opened)).toEqual([]);
  });

  it('renders hostile server text as text: message, labels, descriptions, options, errors and URL', async () => {
    const evil = '<img src=x onerror="window.__xss++">';
    const js = 'javascript:window.__xss++';
    const page = await openDialog({
      ...formRequest(
        [
          { kind: 'text', name: 'a', label: evil, description: `${js} ${evil}`, required: false, multiline: false },
          {
            kind: 'select',
            name: 'b',
            label: js,
            required: false,
            options: [{ value: evil, label: evil }],
          },
          {
            kind: 'multiselect',
            name: 'c',
            label: 'c',
            required: false,
            options: [{ value: 'x', label: `<a href="${js}">link</a>` }],
          },
        ],
        { b: evil },
      ),
      message: `${evil} <script>window.__xss++</script> https://evil.example/`,
      errors: { a: evil },
    });
    expect(await text(page, '[part~="message"]')).toContain(evil);
    expect(await text(page, 'label[for="field-0"]')).toBe(evil);
    expect(await text(page, '#field-0-err')).toBe(evil);
    expect(await page.getByRole('radio', { name: evil }).isChecked()).toBe(true);
    expect(
      await page
        .locator('airlock-elicitation-dialog img, airlock-elicitation-dialog a, airlock-elicitation-dialog script')
        .count(),
    ).toBe(0);

    const url = await openDialog(
      urlRequest(
        urlInspection({
          url: `https://evil.example/${evil}?next=${js}`,
          host: 'evil.example',
          displayHost: 'evil.example',
        }),
        `${evil} javascript:alert(1)`,
      ),
    );
    expect(await text(url, '[part~="url"]')).toBe(`https://evil.example/${evil}?next=${js}`);
    expect(await url.locator('airlock-elicitation-dialog img, airlock-elicitation-dialog a').count()).toBe(0);
    await update(url);
    expect(await page.evaluate(() => window.__xss)).toBe(0);
    expect(await url.evaluate(() => window.__xss)).toBe(0);
  });
});

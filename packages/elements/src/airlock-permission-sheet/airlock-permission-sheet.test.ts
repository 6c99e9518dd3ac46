import type { PermissionDecision, PermissionRequest } from '@airlock/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, BrowserHarness } from '../testing/browser.js';

declare global {
  interface Window {
    __decisions: string[];
    __xss: number;
  }
}

const harness = new BrowserHarness();
beforeAll(() => harness.start());
afterAll(() => harness.stop());

const SCOPE = { userId: 'u1', workspaceId: 'w1', conversationId: 'c1' };

/** A read-only search on a trusted server: low risk, allow always offered, focus on allow once. */
const SEARCH: PermissionRequest = {
  invocationId: 'inv-1',
  scope: SCOPE,
  caller: { kind: 'model' },
  tool: {
    name: 'github__search_issues',
    displayName: 'Search issues',
    originalName: 'search_issues',
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  server: { id: 'github', trusted: true },
  args: { query: 'is:open label:bug', limit: 10 },
  argsHash: 'h1',
  risk: { tier: 'low', destructive: false, unverified: false, reasons: ['read-only on a trusted server'] },
  allowAlways: { offered: true },
  allowConversation: { offered: true },
  defaultAction: 'allow_once',
  renewal: false,
};

/** A destructive tool on an untrusted server: high risk, unverified hints, allow always refused, focus on deny once. */
const DELETE: PermissionRequest = {
  ...SEARCH,
  invocationId: 'inv-2',
  tool: {
    name: 'github__delete_repo',
    displayName: 'Delete repository',
    originalName: 'delete_repo',
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  server: { id: 'github', trusted: false },
  args: { owner: 'octo', repo: 'airlock' },
  risk: { tier: 'high', destructive: true, unverified: true, reasons: ['may modify or delete data (destructive)'] },
  allowAlways: { offered: false, reason: 'allow always is not offered for tools that may modify or delete data' },
  defaultAction: 'deny_once',
};

/** A tool with no annotations at all: the worst case. */
const BARE: PermissionRequest = {
  ...SEARCH,
  invocationId: 'inv-3',
  tool: { name: 'shell__run', displayName: 'run', originalName: 'run' },
  server: { id: 'shell', trusted: false },
  risk: { tier: 'high', destructive: true, unverified: false, reasons: ['no annotations'] },
  allowAlways: { offered: false, reason: 'allow always is not offered for tools that may modify or delete data' },
  defaultAction: 'deny_once',
};

/** A page with one sheet showing `request`, every decision recorded in `window.__decisions`. */
async function openSheet(
  request: PermissionRequest,
  options: { lang?: string; width?: number; checking?: boolean } = {},
): Promise<Page> {
  const page = await harness.open(
    '<main><h1>Host</h1><airlock-permission-sheet></airlock-permission-sheet></main>',
    options,
  );
  await page.evaluate(
    async ({ value, checking }) => {
      await customElements.whenDefined('airlock-permission-sheet');
      const sheet = document.querySelector('airlock-permission-sheet')!;
      window.__decisions = [];
      window.__xss = 0;
      sheet.addEventListener('airlock-permission-decide', (event) => window.__decisions.push(event.decision));
      sheet.request = value;
      sheet.checking = checking;
      sheet.show();
      await sheet.updateComplete;
    },
    { value: request, checking: options.checking ?? false },
  );
  return page;
}

const decisions = (page: Page) => page.evaluate(() => window.__decisions);
const dialogOpen = (page: Page) =>
  page.evaluate(() => document.querySelector('airlock-permission-sheet')!.shadowRoot!.querySelector('dialog')!.open);
const action = (page: Page, decision: PermissionDecision) =>
  page.locator(`airlock-permission-sheet button[data-decision="${decision}"]`);

/** What has focus inside the sheet: a decision, "close", or null when focus left it. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.querySelector('airlock-permission-sheet')!.shadowRoot!.activeElement;
    return active === null ? null : (active.getAttribute('data-decision') ?? active.getAttribute('part'));
  });

/** Waits for the dialog's entry animation, so its box is where it comes to rest. */
const settled = (page: Page) =>
  page.evaluate(async () => {
    const dialog = document.querySelector('airlock-permission-sheet')!.shadowRoot!.querySelector('dialog')!;
    await Promise.all(dialog.getAnimations().map((animation) => animation.finished));
  });

const text = async (page: Page, selector: string) =>
  ((await page.locator(`airlock-permission-sheet ${selector}`).textContent()) ?? '').replace(/\s+/g, ' ').trim();

describe('<airlock-permission-sheet>', () => {
  it('shows the tool, its server and trust, the risk badge, the unverified hints and the arguments', async () => {
    const page = await openSheet(DELETE);
    expect(await dialogOpen(page)).toBe(true);
    expect(await text(page, '[part~="tool-name"]')).toBe('Delete repository');
    expect(await text(page, '[part~="original-name"]')).toBe('delete_repo');
    expect(await text(page, '[part~="server"]')).toBe('From github · untrusted');
    expect(await text(page, '[part~="risk"]')).toBe('High risk · may modify data');
    expect(await text(page, '[part~="unverified"]')).toContain('Unverified hints from an untrusted server');
    const hints = await page.locator('airlock-permission-sheet [part~="hints"] li').allTextContents();
    expect(hints).toEqual(['May modify or delete data', 'Repeating it has no further effect']);
    expect(await text(page, '[part~="arguments"] pre')).toBe('{ "owner": "octo", "repo": "airlock" }');
    // The dialog is named after the tool and described by its risk and hints, for screen readers.
    await expect(page.getByRole('dialog', { name: 'Permission request for Delete repository' }).count()).resolves.toBe(
      1,
    );
  });

  it('colours the badge by tier and leaves trusted read-only hints unmarked', async () => {
    const page = await openSheet(SEARCH);
    expect(await text(page, '[part~="server"]')).toBe('From github · trusted');
    expect(await text(page, '[part~="risk"]')).toBe('Low risk · read-only');
    expect(await page.locator('airlock-permission-sheet [part~="unverified"]').count()).toBe(0);
    const hints = await page.locator('airlock-permission-sheet [part~="hints"] li').allTextContents();
    expect(hints).toEqual(['Only reads data']);
    const low = await page
      .locator('airlock-permission-sheet [part~="risk"]')
      .evaluate((badge) => getComputedStyle(badge).backgroundColor);
    expect(low).toBe('rgb(213, 245, 220)');
    const high = await openSheet(DELETE);
    const highColour = await high
      .locator('airlock-permission-sheet [part~="risk"]')
      .evaluate((badge) => getComputedStyle(badge).backgroundColor);
    expect(highColour).toBe('rgb(253, 226, 225)');
  });

  it('says so when a tool has no annotations', async () => {
    const page = await openSheet(BARE);
    expect(await text(page, '[part~="hints"] p')).toBe('No annotations: treated as the worst case');
    expect(await page.locator('airlock-permission-sheet [part~="hints"] li').count()).toBe(0);
  });

  it("says a tool without annotations was rated by the host's policy when it is not the worst case", async () => {
    const rated = { ...BARE, server: { id: 'shell', trusted: true }, allowAlways: { offered: true } };
    const page = await openSheet({ ...rated, risk: { ...BARE.risk, tier: 'medium', destructive: false } });
    expect(await text(page, '[part~="hints"] p')).toBe(
      "No annotations: rated by this host's policy for trusted servers",
    );
    const pt = await openSheet(
      { ...rated, risk: { ...BARE.risk, tier: 'low', destructive: false } },
      { lang: 'pt-BR' },
    );
    expect(await text(pt, '[part~="hints"] p')).toBe(
      'Sem anotações: avaliada pela política deste host para servidores confiáveis',
    );
  });

  it('says the server rated the risk when its own claim set the tier, in both languages', async () => {
    const rated = { ...BARE, server: { id: 'shell', trusted: true }, allowAlways: { offered: true } };
    const risk = { ...BARE.risk, tier: 'low' as const, destructive: false, ratedBy: 'server' as const };
    const page = await openSheet({ ...rated, risk });
    expect(await text(page, '[part~="rated-by-server"]')).toBe('Risk rated by the server itself');
    expect(await page.locator('airlock-permission-sheet [part~="hints"] p').count()).toBe(1);
    const pt = await openSheet({ ...rated, risk }, { lang: 'pt-BR' });
    expect(await text(pt, '[part~="rated-by-server"]')).toBe('Risco avaliado pelo próprio servidor');
    const policy = await openSheet({ ...rated, risk: { ...risk, ratedBy: 'host_policy' as const } });
    expect(await policy.locator('airlock-permission-sheet [part~="rated-by-server"]').count()).toBe(0);
  });

  it('cuts long arguments and shows them whole on show more', async () => {
    const long = { ...SEARCH, args: { body: 'x'.repeat(900), tail: 'THE-END' } };
    const page = await openSheet(long);
    const pre = page.locator('airlock-permission-sheet [part~="arguments"] pre');
    expect(await pre.textContent()).not.toContain('THE-END');
    expect((await pre.textContent())?.endsWith('…')).toBe(true);
    const more = page.locator('airlock-permission-sheet [part~="show-more"]');
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    expect((await more.textContent())?.trim()).toBe('Show more');
    await more.click();
    expect(await pre.textContent()).toContain('"tail": "THE-END"');
    expect(await more.getAttribute('aria-expanded')).toBe('true');
    expect((await more.textContent())?.trim()).toBe('Show less');
  });

  it('sends the decision of each of the five actions and closes', async () => {
    const page = await openSheet(SEARCH);
    const order: PermissionDecision[] = [
      'allow_once',
      'allow_conversation',
      'allow_always',
      'deny_once',
      'deny_always',
    ];
    for (const decision of order) {
      await page.evaluate(async () => {
        const sheet = document.querySelector('airlock-permission-sheet')!;
        sheet.show();
        await sheet.updateComplete;
      });
      await action(page, decision).click({ timeout: 3000 });
      expect(await dialogOpen(page)).toBe(false);
    }
    expect(await decisions(page)).toEqual(order);
    expect(await page.locator('airlock-permission-sheet').getAttribute('open')).toBeNull();
  });

  it('lays the actions out two by two, then allow for this conversation across the width below', async () => {
    const page = await openSheet(SEARCH);
    await settled(page);
    const grains = ['deny_always', 'deny_once', 'allow_once', 'allow_always', 'allow_conversation'] as const;
    const boxes = await Promise.all(grains.map((d) => action(page, d).boundingBox()));
    const [denyAlways, denyOnce, allowOnce, allowAlways, allowConversation] = boxes.map((box) => box!);
    expect(denyAlways!.y).toBe(denyOnce!.y);
    expect(allowOnce!.y).toBe(allowAlways!.y);
    expect(allowOnce!.y).toBeGreaterThan(denyOnce!.y);
    expect(denyAlways!.x).toBeLessThan(denyOnce!.x);
    expect(allowConversation!.y).toBeGreaterThan(allowOnce!.y);
    expect(allowConversation!.x).toBe(allowOnce!.x);
    expect(allowConversation!.x + allowConversation!.width).toBe(allowAlways!.x + allowAlways!.width);
    for (const box of boxes) expect(box!.height).toBeGreaterThanOrEqual(48);
    expect(await action(page, 'allow_conversation').textContent()).toContain('Allow for this conversation');
  });

  it('offers allow for this conversation for a destructive tool, where allow always is refused', async () => {
    const page = await openSheet({ ...DELETE, allowConversation: { offered: true } });
    expect(await action(page, 'allow_always').getAttribute('aria-disabled')).toBe('true');
    const conversation = action(page, 'allow_conversation');
    expect(await conversation.getAttribute('aria-disabled')).toBeNull();
    await conversation.click();
    expect(await decisions(page)).toEqual(['allow_conversation']);
  });

  it('leaves allow for this conversation out where the request does not offer it (a native tool)', async () => {
    const native = {
      ...SEARCH,
      server: null,
      allowAlways: { offered: false, reason: 'native tools are asked each time' },
      allowConversation: { offered: false, reason: 'native tools are asked each time, in every conversation' },
    };
    const page = await openSheet(native);
    expect(await action(page, 'allow_conversation').count()).toBe(0);
    const labels = await page.locator('airlock-permission-sheet [part~="actions"] button').allTextContents();
    expect(labels.map((l) => l.trim())).toEqual(['Deny always', 'Deny once', 'Allow once', 'Allow always']);
  });

  it('refuses allow always for a destructive tool, says why, and starts on deny once', async () => {
    const page = await openSheet(DELETE);
    expect(await focused(page)).toBe('deny_once');
    const allowAlways = action(page, 'allow_always');
    expect(await allowAlways.getAttribute('aria-disabled')).toBe('true');
    const reasonId = await allowAlways.getAttribute('aria-describedby');
    expect(await text(page, `#${reasonId}`)).toBe(
      'Allow always is not offered for tools that may modify or delete data.',
    );
    await expect(
      page.getByRole('button', { name: 'Allow always' }).evaluate((b) => b.getAttribute('aria-describedby')),
    ).resolves.toBe(reasonId);
    // Playwright will not click an aria-disabled button by itself; a person can.
    await allowAlways.click({ force: true });
    expect(await dialogOpen(page)).toBe(true);
    await action(page, 'deny_once').click();
    expect(await decisions(page)).toEqual(['deny_once']);
  });

  it('starts on allow once for a tool that is not destructive, and offers allow always', async () => {
    const page = await openSheet(SEARCH);
    expect(await focused(page)).toBe('allow_once');
    expect(await action(page, 'allow_always').getAttribute('aria-disabled')).toBeNull();
    expect(await page.locator('airlock-permission-sheet [part~="allow-always-reason"]').count()).toBe(0);
  });

  it('denies once on Esc', async () => {
    const page = await openSheet(SEARCH);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => window.__decisions.length > 0);
    expect(await decisions(page)).toEqual(['deny_once']);
    expect(await dialogOpen(page)).toBe(false);
  });

  it('denies once on the close button', async () => {
    const page = await openSheet(SEARCH);
    await page.getByRole('button', { name: 'Close' }).click();
    expect(await decisions(page)).toEqual(['deny_once']);
    expect(await dialogOpen(page)).toBe(false);
  });

  it('keeps Tab inside: from the last action to the close button, and back with Shift+Tab', async () => {
    const page = await openSheet(SEARCH);
    await action(page, 'allow_conversation').focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('close');
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toBe('allow_conversation');
    const seen = new Set<string | null>();
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      seen.add(await focused(page));
    }
    expect([...seen].sort()).toEqual([
      'allow_always',
      'allow_conversation',
      'allow_once',
      'close',
      'deny_always',
      'deny_once',
    ]);
    // Headless Chromium wraps Tab inside a modal dialog by itself; a desktop browser lets it leave for its own UI.
    // A synthetic Tab, which the browser does not act on, shows that the sheet itself moves the focus.
    const wrapped = await page.evaluate(() => {
      const root = document.querySelector('airlock-permission-sheet')!.shadowRoot!;
      root.querySelector<HTMLElement>('button[data-decision="allow_conversation"]')!.focus();
      const tab = new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, composed: true, cancelable: true });
      root.activeElement!.dispatchEvent(tab);
      return [tab.defaultPrevented, root.activeElement?.getAttribute('part')];
    });
    expect(wrapped).toEqual([true, 'close']);
  });

  it('is a bottom sheet on a narrow screen', async () => {
    const page = await openSheet(SEARCH, { width: 400 });
    await settled(page);
    const box = (await page.locator('airlock-permission-sheet dialog').boundingBox())!;
    expect(box.x).toBe(0);
    expect(box.width).toBe(400);
    expect(Math.round(box.y + box.height)).toBe(768);
  });

  it('is a centred dialog on a wide screen', async () => {
    const page = await openSheet(SEARCH, { width: 1024 });
    await settled(page);
    const box = (await page.locator('airlock-permission-sheet dialog').boundingBox())!;
    expect(box.width).toBeLessThan(1024);
    expect(Math.abs(box.x - (1024 - box.x - box.width))).toBeLessThanOrEqual(1);
    expect(Math.abs(box.y - (768 - box.y - box.height))).toBeLessThanOrEqual(1);
    expect(box.y).toBeGreaterThan(0);
  });

  it('appears without motion when the user asks for reduced motion', async () => {
    const page = await openSheet(SEARCH);
    const duration = () =>
      page.locator('airlock-permission-sheet dialog').evaluate((dialog) => getComputedStyle(dialog).animationDuration);
    expect(await duration()).toBe('0.16s');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await duration()).toBe('0s');
  });

  it('hides the actions while checking and says "Checking permissions…" only after 100 ms, then the actions', async () => {
    const page = await harness.open('<main><h1>Host</h1><airlock-permission-sheet></airlock-permission-sheet></main>');
    // The page's time stands still but for runFor: the delay is measured on it, never on the machine's time.
    await page.clock.install({ time: 1_000_000 });
    await page.clock.pauseAt(1_001_000);
    await page.evaluate(async (value) => {
      const sheet = document.querySelector('airlock-permission-sheet')!;
      sheet.request = value;
      sheet.checking = true;
      sheet.show();
      await sheet.updateComplete;
    }, SEARCH);
    const status = page.locator('airlock-permission-sheet [part~="checking"]');
    expect(await page.locator('airlock-permission-sheet [part~="actions"]').count()).toBe(0);
    expect(await focused(page)).toBe('close');
    await page.clock.runFor(99);
    expect(await status.isVisible()).toBe(false);
    await page.clock.runFor(1);
    await status.waitFor();
    expect(await text(page, '[part~="checking"]')).toBe('Checking permissions…');
    await page.evaluate(async () => {
      const sheet = document.querySelector('airlock-permission-sheet')!;
      sheet.checking = false;
      await sheet.updateComplete;
    });
    expect(await action(page, 'allow_once').isVisible()).toBe(true);
    expect(await focused(page)).toBe('allow_once');
    expect(await status.isVisible()).toBe(false);
  });

  it('never flashes "Checking permissions…" when the lookup answers within 100 ms', async () => {
    const page = await harness.open('<main><h1>Host</h1><airlock-permission-sheet></airlock-permission-sheet></main>');
    // The page's time stands still but for runFor: the delay is measured on it, never on the machine's time.
    await page.clock.install({ time: 1_000_000 });
    await page.clock.pauseAt(1_001_000);
    await page.evaluate(async (value) => {
      const sheet = document.querySelector('airlock-permission-sheet')!;
      sheet.request = value;
      sheet.checking = true;
      sheet.show();
      await sheet.updateComplete;
      sheet.checking = false;
      await sheet.updateComplete;
    }, SEARCH);
    await page.clock.runFor(500);
    expect(await page.locator('airlock-permission-sheet [part~="checking"]').isVisible()).toBe(false);
    expect(await action(page, 'allow_once').isVisible()).toBe(true);
  });

  it('calls back the decision given to show(request, onDecision), once, beside the event', async () => {
    const page = await harness.open('<main><h1>Host</h1><airlock-permission-sheet></airlock-permission-sheet></main>');
    const seen = await page.evaluate(async (value) => {
      const sheet = document.querySelector('airlock-permission-sheet')!;
      const calls: string[] = [];
      sheet.addEventListener('airlock-permission-decide', (event) => calls.push(`event ${event.decision}`));
      sheet.show(value, (decision) => calls.push(`callback ${decision}`));
      await sheet.updateComplete;
      sheet.shadowRoot!.querySelector<HTMLButtonElement>('button[data-decision="allow_once"]')!.click();
      // Shown again on the same request without a callback: the first callback is not called a second time.
      sheet.show();
      await sheet.updateComplete;
      sheet.shadowRoot!.querySelector<HTMLButtonElement>('button[data-decision="deny_once"]')!.click();
      return calls;
    }, SEARCH);
    expect(seen).toEqual(['event allow_once', 'callback allow_once', 'event deny_once']);
  });

  it('drops the callback of a request the host withdrew before the user decided', async () => {
    const page = await harness.open('<main><h1>Host</h1><airlock-permission-sheet></airlock-permission-sheet></main>');
    const seen = await page.evaluate(
      async ([first, second]) => {
        const sheet = document.querySelector('airlock-permission-sheet')!;
        const calls: string[] = [];
        sheet.show(first, (decision) => calls.push(`first ${decision}`));
        await sheet.updateComplete;
        sheet.request = second;
        sheet.show();
        await sheet.updateComplete;
        sheet.shadowRoot!.querySelector<HTMLButtonElement>('button[data-decision="deny_once"]')!.click();
        return { calls, open: sheet.open };
      },
      [SEARCH, DELETE] as const,
    );
    expect(seen).toEqual({ calls: [], open: false });
  });

  it('closes without a decision when the host withdraws the request', async () => {
    const page = await openSheet(SEARCH);
    await page.evaluate(async () => {
      const sheet = document.querySelector('airlock-permission-sheet')!;
      sheet.request = undefined;
      await sheet.updateComplete;
    });
    expect(await dialogOpen(page)).toBe(false);
    await page.keyboard.press('Escape');
    expect(await decisions(page)).toEqual([]);
  });

  it('speaks Brazilian Portuguese with the ratified copy', async () => {
    const page = await openSheet(SEARCH, { lang: 'pt-BR' });
    expect(await text(page, '.eyebrow')).toBe('Permitir execução desta ferramenta?');
    expect(await text(page, '[part~="server"]')).toBe('Do servidor github · confiável');
    expect(await text(page, '[part~="risk"]')).toBe('Risco baixo · somente leitura');
    const labels = await page.locator('airlock-permission-sheet [part~="actions"] button').allTextContents();
    expect(labels.map((l) => l.trim())).toEqual([
      'Negar sempre',
      'Negar uma vez',
      'Permitir uma vez',
      'Permitir sempre',
      'Permitir nesta conversa',
    ]);
    const medium = await openSheet({ ...SEARCH, risk: { ...SEARCH.risk, tier: 'medium' } }, { lang: 'pt-BR' });
    expect(await text(medium, '[part~="risk"]')).toBe('Risco médio');
    const high = await openSheet(DELETE, { lang: 'pt-BR' });
    expect(await text(high, '[part~="risk"]')).toBe('Risco alto · pode modificar dados');
  });

  it('says why it asks on a line under the title, in either language, and names the sheet with it', async () => {
    const page = await openSheet({ ...SEARCH, reason: 'definition_changed' });
    expect(await text(page, '[part~="reason"]')).toBe(
      'This tool changed since you last decided (its description, inputs or annotations).',
    );
    const order = await page.evaluate(() => {
      const root = document.querySelector('airlock-permission-sheet')!.shadowRoot!;
      const title = root.querySelector('.eyebrow')!;
      const reason = root.querySelector('[part~="reason"]')!;
      const name = root.querySelector('[part~="tool-name"]')!;
      return [
        title.compareDocumentPosition(reason) & Node.DOCUMENT_POSITION_FOLLOWING,
        reason.compareDocumentPosition(name) & Node.DOCUMENT_POSITION_FOLLOWING,
      ];
    });
    const FOLLOWING = 4; // Node.DOCUMENT_POSITION_FOLLOWING: the reason comes after the title, the tool after it.
    expect(order).toEqual([FOLLOWING, FOLLOWING]);
    expect(await page.locator('airlock-permission-sheet dialog').getAttribute('aria-describedby')).toBe(
      'reason meta hints',
    );
    await settled(page); // checked at rest: halfway through the fade-in, every colour would fail contrast
    expect(await axeViolations(page)).toEqual([]);
    const pt = await openSheet({ ...DELETE, reason: 'decision_expired' }, { lang: 'pt-BR' });
    expect(await text(pt, '[part~="reason"]')).toBe(
      'Seu "Permitir sempre" anterior expirou: renove ou escolha de novo.',
    );
    // An allow for one conversation that ran out is named as such, not as an "Allow always" never chosen.
    for (const [lang, said] of [
      ['en-US', 'Your earlier "Allow for this conversation" has expired: renew it or choose again.'],
      ['pt-BR', 'Seu "Permitir nesta conversa" anterior expirou: renove ou escolha de novo.'],
    ] as const) {
      const grain = await openSheet({ ...DELETE, reason: 'decision_expired', expiredGrain: 'conversation' }, { lang });
      expect(await text(grain, '[part~="reason"]')).toBe(said);
    }
    for (const reason of ['first_time', 'server_changed', 'decisions_loading', 'rule_says_ask', 'asked_each_time']) {
      const other = await openSheet({ ...SEARCH, reason: reason as PermissionRequest['reason'] }, { lang: 'pt-BR' });
      expect((await text(other, '[part~="reason"]')).length, reason).toBeGreaterThan(20);
    }
  });

  it('shows no reason line when the request gives none, or one it does not know', async () => {
    const none = await openSheet(SEARCH);
    expect(await none.locator('airlock-permission-sheet [part~="reason"]').count()).toBe(0);
    const unknown = await openSheet({ ...SEARCH, reason: 'because' as PermissionRequest['reason'] });
    expect(await unknown.locator('airlock-permission-sheet [part~="reason"]').count()).toBe(0);
    expect(await text(unknown, '[part~="tool-name"]')).toBe('Search issues');
  });

  it("says a view's own call is asked by that server's app view, not the model, in either language", async () => {
    const page = await openSheet({ ...SEARCH, caller: { kind: 'app', serverId: 'tracker' } });
    expect(await text(page, '[part~="caller"]')).toBe(
      "The tracker server's app view asks for this call, not the model.",
    );
    await settled(page);
    expect(await axeViolations(page)).toEqual([]);
    const pt = await openSheet({ ...SEARCH, caller: { kind: 'app', serverId: 'tracker' } }, { lang: 'pt-BR' });
    expect(await text(pt, '[part~="caller"]')).toBe(
      'A tela de app do servidor tracker pede esta chamada, não o modelo.',
    );
    const model = await openSheet(SEARCH);
    expect(await model.locator('airlock-permission-sheet [part~="caller"]').count()).toBe(0);
  });

  it('renders server text as text, never as markup', async () => {
    const evil = '<img src=x onerror="window.__xss++">';
    const page = await openSheet({
      ...SEARCH,
      tool: { ...SEARCH.tool, displayName: evil, originalName: `javascript:${evil}` },
      server: { id: evil, trusted: false },
      args: { html: evil },
    });
    expect(await text(page, '[part~="tool-name"]')).toBe(evil);
    expect(await page.locator('airlock-permission-sheet img').count()).toBe(0);
    expect(await page.evaluate(() => window.__xss)).toBe(0);
  });

  it('shows an inline icon, but never fetches a remote one before consent', async () => {
    const pixel =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    const inline = await openSheet({ ...SEARCH, tool: { ...SEARCH.tool, icons: [{ src: pixel }] } });
    expect(await inline.locator('airlock-permission-sheet [part~="icon"] img').getAttribute('src')).toBe(pixel);
    const fetched: string[] = [];
    const page = await harness.open('<airlock-permission-sheet></airlock-permission-sheet>');
    page.on('request', (request) => fetched.push(request.url()));
    await page.evaluate(
      async (value) => {
        const sheet = document.querySelector('airlock-permission-sheet')!;
        sheet.request = value;
        sheet.show();
        await sheet.updateComplete;
      },
      { ...SEARCH, tool: { ...SEARCH.tool, icons: [{ src: 'https://tracker.example/icon.png' }] } },
    );
    expect(await page.locator('airlock-permission-sheet [part~="icon"] img').count()).toBe(0);
    expect(await page.locator('airlock-permission-sheet [part~="icon"] svg').count()).toBe(1);
    expect(fetched).toEqual([]);
  });

  it('has no axe violations open, while checking, or with allow always refused', async () => {
    // Checked at rest: halfway through the fade-in, every colour would fail contrast.
    const axe = async (page: Page) => {
      await settled(page);
      return axeViolations(page);
    };
    expect(await axe(await openSheet(SEARCH))).toEqual([]);
    expect(await axe(await openSheet(SEARCH, { checking: true }))).toEqual([]);
    expect(await axe(await openSheet(DELETE))).toEqual([]);
    expect(await axe(await openSheet(BARE, { width: 400 }))).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BrowserHarness } from '../testing/browser.js';
import type { AirlockToolCard } from './airlock-tool-card.js';
import type { ToolCardInvocation, ToolCardProgress } from './tool-card-types.js';

declare global {
  interface Window {
    /** Intervals the page has running now (set by `countIntervals`). */
    __intervals: Set<unknown>;
  }
}

// A task call's card on the page's fake clock (Playwright's clock): how long the task has been going, beside its
// status and message, counted from the task's start and redrawn each second while the task is open, and no timer at
// all once it has ended.

const harness = new BrowserHarness();
beforeAll(() => harness.start());
afterAll(() => harness.stop());

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

interface TaskCardProps {
  invocation: ToolCardInvocation;
  progress?: ToolCardProgress;
  taskStartedAt?: number;
}

function invocation(state: ToolCardInvocation['state']): ToolCardInvocation {
  return {
    id: 'inv-task',
    tool: 'reports__slow_report',
    originalName: 'slow_report',
    serverId: 'reports',
    state,
    outcome: state === 'success' ? 'success' : null,
    error: null,
    args: { topic: 'tide pools' },
  };
}

async function open(lang = 'en-US'): Promise<Page> {
  const page = await harness.open('<airlock-tool-card id="card"></airlock-tool-card>', { lang });
  await page.clock.install({ time: T0 });
  // Counts the intervals running in the page, so a test can see the card stop its timer.
  await page.evaluate(() => {
    window.__intervals = new Set();
    const set = window.setInterval.bind(window);
    const clear = window.clearInterval.bind(window);
    window.setInterval = ((handler: TimerHandler, ms?: number) => {
      const id = set(handler, ms);
      window.__intervals.add(id);
      return id;
    }) as typeof window.setInterval;
    window.clearInterval = ((id?: number) => {
      window.__intervals.delete(id);
      clear(id);
    }) as typeof window.clearInterval;
  });
  return page;
}

async function update(page: Page, props: TaskCardProps): Promise<void> {
  await page.evaluate(async (props) => {
    const card = document.querySelector('#card') as AirlockToolCard;
    Object.assign(card, props);
    await card.updateComplete;
  }, props);
}

const elapsed = (page: Page) => page.locator('#card').locator('[part=progress] [data-elapsed]');
const intervals = (page: Page) => page.evaluate(() => window.__intervals.size);

describe('<airlock-tool-card> task elapsed time', () => {
  it('shows how long an open task has been going from its start, each second, beside its status message', async () => {
    const page = await open();
    // A task picked up again after a restart: it began 1 min 5 s before the card first saw it.
    await update(page, {
      invocation: invocation('working'),
      progress: { progress: 1, message: 'Writing the report' },
      taskStartedAt: T0 - 65_000,
    });
    await expect(elapsed(page).textContent()).resolves.toBe('1:05 elapsed');
    await expect(page.locator('#card').locator('[part=progress] .note').textContent()).resolves.toBe(
      'Writing the report',
    );

    await page.clock.runFor(2_000);
    await expect(elapsed(page).textContent()).resolves.toBe('1:07 elapsed');

    // Waiting for the user's answer is still time the task takes.
    await update(page, {
      invocation: invocation('input_required'),
      progress: { progress: 2, message: 'Which tide pools?' },
      taskStartedAt: T0 - 65_000,
    });
    await page.clock.runFor(60 * 60_000);
    await expect(elapsed(page).textContent()).resolves.toBe('1:01:07 elapsed');
    expect(await intervals(page)).toBe(1);
  });

  it('stops its timer and drops the elapsed time once the task ends; a plain call never starts one', async () => {
    const page = await open();
    await update(page, { invocation: invocation('running'), progress: { progress: 1, message: 'Indexing' } });
    expect(await intervals(page)).toBe(0);
    await expect(elapsed(page).count()).resolves.toBe(0);

    await update(page, { invocation: invocation('working'), taskStartedAt: T0 });
    await expect(elapsed(page).textContent()).resolves.toBe('0:00 elapsed');
    expect(await intervals(page)).toBe(1);

    await update(page, { invocation: invocation('success'), taskStartedAt: T0 });
    await page.clock.runFor(5_000);
    await expect(elapsed(page).count()).resolves.toBe(0);
    expect(await intervals(page)).toBe(0);
  });

  it('says it in Brazilian Portuguese', async () => {
    const page = await open('pt-BR');
    await update(page, { invocation: invocation('working'), taskStartedAt: T0 - 3_000 });
    await expect(elapsed(page).textContent()).resolves.toBe('0:03 decorridos');
  });
});

import type { Browser, BrowserContext, Page } from 'playwright-core';

/** Where and how a test's page is seen: its width, language and colour scheme, and who signs in. */
export interface PageAtOptions {
  /** Where each new context is kept, for the test to close it. */
  readonly contexts: BrowserContext[];
  /** Local sign-in's name. */
  readonly name: string;
  readonly width?: number;
  readonly height?: number;
  /** The browser's language, which the page speaks (`en-US` unless told). */
  readonly locale?: string;
  readonly colorScheme?: 'light' | 'dark';
}

/**
 * A page of a fresh context at a width, in a language and a colour scheme, signed in to the console at `url` by its
 * local sign-in (by the form's field, so in any language), whose script errors fail the test.
 */
export async function pageAt(browser: Browser, url: string, options: PageAtOptions): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    locale: options.locale ?? 'en-US',
    colorScheme: options.colorScheme ?? 'light',
  });
  options.contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(url);
  await page.locator('input[name="user"]').fill(options.name);
  await page.locator('input[name="user"]').press('Enter');
  await page.locator('#cards-title').waitFor();
  return page;
}

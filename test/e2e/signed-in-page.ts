import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';

/** How a test's page is opened: the context's options, who signs in, and what to do before the page loads. */
export interface SignedInPageOptions {
  /** Where each new context is kept, for the test to close it. */
  readonly contexts: BrowserContext[];
  /** Local sign-in's name; `ana` unless told. */
  readonly name?: string;
  /** Token sign-in (`console.auth` "token"): the token, in place of a name. */
  readonly token?: string;
  readonly contextOptions?: BrowserContextOptions;
  /** Run on the new context or page before it loads the console (permissions, init scripts). */
  readonly prepare?: (page: Page) => Promise<void>;
  /**
   * Lets an MCP App view's own script throw without failing the test: a view is code the console does not own, in its
   * sandboxed srcdoc frame, and the registry's apps leave a refusal the test provokes (a declined link) unhandled.
   * The console's own script errors still fail the test.
   */
  readonly allowViewErrors?: boolean;
}

/**
 * A page of a fresh context, whose script errors fail the test, signed in to the console at `url` (by its local
 * sign-in, or a token), and waiting on the tool calls view. A step that cannot happen fails with the step named, well inside the
 * test's own timeout.
 */
export async function signedInPage(browser: Browser, url: string, options: SignedInPageOptions): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options.contextOptions });
  options.contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (error) => {
    if (options.allowViewErrors === true && error.stack?.includes('about:srcdoc') === true) return;
    throw error;
  });
  await options.prepare?.(page);
  await page.goto(url);
  if (options.token === undefined) await page.getByLabel('Your name').fill(options.name ?? 'ana');
  else await page.getByLabel('Your token').fill(options.token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#cards-title').waitFor();
  return page;
}

import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
/** The bundle's entry `npm run build` makes (its chunks beside it); the page loads it as a module. */
export const BUNDLE = resolve(here, '../../dist/bundle/airlock-elements.js');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const CHROMIUM = process.env['AIRLOCK_CHROMIUM'] ?? '/usr/bin/chromium';

/** The bundle's file at a page path (the entry at `/airlock-elements.js`, its chunks under `/chunks/`), if any. */
export function bundleFile(path: string): string | undefined {
  if (!/^\/(airlock-elements|chunks\/[\w-]+)\.js$/.test(path)) return undefined;
  const file = resolve(dirname(BUNDLE), `.${path}`);
  return existsSync(file) ? file : undefined;
}

/** Debian's Chromium, headless, with a fresh profile per launch (Playwright's own download cannot work here). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * A real headless Chromium (Debian's, never a downloaded one; Playwright gives each launch a fresh profile
 * directory) and a loopback server for test pages. Each page gets
 * the elements bundle and axe-core; `html` is the page body.
 */
export class BrowserHarness {
  #browser: Browser | undefined;
  #server: Server | undefined;
  #pages = new Map<string, string>();
  #origin = '';

  async start(): Promise<void> {
    if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run "npm run build" first`);
    this.#server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      const bundled = bundleFile(path);
      if (bundled !== undefined) {
        response.writeHead(200, { 'content-type': 'text/javascript' });
        return response.end(readFileSync(bundled));
      }
      if (path === '/axe.js') {
        response.writeHead(200, { 'content-type': 'text/javascript' });
        return response.end(readFileSync(AXE));
      }
      const page = this.#pages.get(path);
      if (page === undefined) {
        response.writeHead(404);
        return response.end();
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(page);
    });
    await new Promise<void>((ready) => this.#server!.listen(0, '127.0.0.1', ready));
    const address = this.#server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    this.#origin = `http://127.0.0.1:${address.port}`;
    this.#browser = await launchChromium();
  }

  /** Opens a page whose body is `body`, with the bundle loaded and every custom element defined. */
  async open(body: string, options: { lang?: string; width?: number } = {}): Promise<Page> {
    const path = `/page-${this.#pages.size}.html`;
    this.#pages.set(
      path,
      `<!doctype html><html lang="${options.lang ?? 'en-US'}"><head><meta charset="utf-8"><title>test</title>` +
        `<script src="/axe.js"></script><script type="module" src="/airlock-elements.js"></script></head>` +
        `<body>${body}</body></html>`,
    );
    const page = await this.#browser!.newPage({ viewport: { width: options.width ?? 1024, height: 768 } });
    page.on('pageerror', (error) => {
      throw error;
    });
    await page.goto(`${this.#origin}${path}`);
    await page.waitForFunction(
      () => customElements.get('airlock-tool-card') !== undefined || document.readyState === 'complete',
    );
    return page;
  }

  async stop(): Promise<void> {
    await this.#browser?.close();
    await new Promise<void>((done) => (this.#server ? this.#server.close(() => done()) : done()));
  }
}

/** axe-core violations on the page (or inside one element), as "rule: target" lines; [] means none. */
export async function axeViolations(page: Page, selector?: string): Promise<string[]> {
  return page.evaluate(async (within) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: unknown,
            options: unknown,
          ) => Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(within ?? document, { resultTypes: ['violations'] });
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${JSON.stringify(n.target)}`));
  }, selector);
}

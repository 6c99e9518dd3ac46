import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { parseServersConfig } from '@airlock/core';
import { loadConsoleConfig, startConsole } from '@airlock/console';
import type { ConsoleConfig, RunningConsole } from '@airlock/console';
import { launchChromium } from '../../packages/elements/src/testing/browser.js';

/** The demo server's entry point, for a test's `mcpServers` (`{ command: process.execPath, args: [DEMO_BIN] }`). */
export const DEMO_BIN = join(dirname(fileURLToPath(import.meta.resolve('@airlock/demo-server'))), 'bin.js');

/** The MCP project's reference server, run as `{ command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] }`. */
export const EVERYTHING_BIN = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** The demo server over stdio, as a config file's `mcpServers` entry. */
export const DEMO_SERVER = { command: process.execPath, args: [DEMO_BIN] };

/** What a test file's console runs, made once its temp directory exists. */
export interface ConsoleSetUp {
  /** The MCP servers, as a config file's `mcpServers` object; none unless told. */
  readonly mcpServers?: Record<string, unknown>;
  /** The environment the config is read with (the model's `AIRLOCK_MODEL_BASE_URL`, say). */
  readonly env?: Record<string, string | undefined>;
  /** What the test changes in the config read (its rules, limits, sign-in), given that config. */
  readonly more?: (config: ConsoleConfig) => Partial<ConsoleConfig>;
  /** What the test started for the console (a fake model, a task server): stopped after the console. */
  readonly stops?: readonly (() => Promise<unknown>)[];
}

/** A test file's Chromium, there between its `beforeAll` and `afterAll`. */
export interface ChromiumPages {
  readonly browser: Browser;
  /** Where each page's context is kept (`signedInPage`'s `contexts`), closed before the browser. */
  readonly contexts: BrowserContext[];
}

/** A test file's console and browser, there between its `beforeAll` and `afterAll`. */
export interface ConsoleInChromium extends ChromiumPages {
  /** The file's temp directory: the console's store (`console.db`) and whatever the set-up put there. */
  readonly dir: string;
  readonly running: RunningConsole;
}

/** The value a hook sets, or an error naming it when a test file reads it before its `beforeAll` ran. */
function ready<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is read before the file's beforeAll ran`);
  return value;
}

/**
 * Registers the file's hooks for a Chromium: launched before its tests; after them, each kept context closed, then
 * the browser. Registered after the hooks that start what the pages talk to, it closes the pages first.
 */
export function chromiumPages(): ChromiumPages {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
  });
  return {
    get browser() {
      return ready(browser, 'chromiumPages().browser');
    },
    contexts,
  };
}

/**
 * Registers the file's hooks: before its tests, a console on a fresh temp directory (a SQLite store there, a free
 * port, the servers of `setUp` settled), then a Chromium (`chromiumPages`); after them, the pages and the browser,
 * then the console, what `stops` names and the directory. Read the handle's fields inside tests and hooks.
 */
export function consoleInChromium(
  prefix: string,
  setUp: (dir: string) => ConsoleSetUp | Promise<ConsoleSetUp> = () => ({}),
): ConsoleInChromium {
  let dir: string | undefined;
  let running: RunningConsole | undefined;
  let stops: readonly (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
    const made = await setUp(dir);
    stops = made.stops ?? [];
    const config = loadConsoleConfig({ port: 0, store: join(dir, 'console.db') }, made.env ?? {});
    running = await startConsole({
      ...config,
      servers: parseServersConfig({ mcpServers: made.mcpServers ?? {} }),
      ...made.more?.(config),
    });
    await running.host.servers.settled();
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    for (const stop of stops) await stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  const pages = chromiumPages();
  return {
    get dir() {
      return ready(dir, `consoleInChromium(${prefix}).dir`);
    },
    get running() {
      return ready(running, `consoleInChromium(${prefix}).running`);
    },
    get browser() {
      return pages.browser;
    },
    contexts: pages.contexts,
  };
}

// Lines of npm run bench for target 5 of issue 22, in a process of its own (run.js starts it): the console.
// console_open_1000_cards: a conversation of 1,000 finished calls (written through the library: a host over the
//   console's SQLite file calls the demo server's echo 1,000 times) opens in Debian's headless Chromium, a fresh
//   browser context per run, signed in by cookie. Measured in the page: from navigation start (performance.now()'s
//   origin) to the newest card's <airlock-tool-card> rendered (in the DOM, its first update complete) and the next
//   frame painted. Target: under 1 s. Also told: how many cards that frame drew, and when every card the tab was sent
//   (the newest 100) is in the DOM.
// console_event_100_tabs: 100 event streams of one tenant open (Node clients in a process of their own,
//   console-tabs.js, rather than 100 Chromium pages), one call's first event (its pending card): from just before
//   host.invoke is called on the console's host to the last of the 100 tabs receiving it. Target: under 50 ms.
// Each figure is the median of RUNS runs with the least and the most, beside the machine's core count.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { chromium } from 'playwright-core';
import { createHost, parseServersConfig } from '@airlock/core';
import { SqliteStore } from '@airlock/core/sqlite';
import { createConsoleLogger, loadConsoleConfig, startConsole } from '@airlock/console';
import { MACHINE, quantile, spread } from './bench-stats.js';

const env = process.env;
const RUNS = Number(env.AIRLOCK_BENCH_RUNS ?? 5);
const CARDS = 1000;
const TABS = 100;
/** Events per run of the tabs bench; a run's figure is their median. */
const EVENTS = 10;
const CHROMIUM = env.AIRLOCK_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'];

const demoBin = join(dirname(fileURLToPath(import.meta.resolve('@airlock/demo-server'))), 'bin.js');
const servers = parseServersConfig({ mcpServers: { demo: { command: process.execPath, args: [demoBin] } } });
const rules = [{ effect: 'allow', layer: 'host', server: 'demo', tool: 'echo', source: 'bench' }];
const scope = { userId: 'bench', workspaceId: 'default', conversationId: 'main' };
const now = () => performance.timeOrigin + performance.now();

/** Fills the conversation with `CARDS` finished echo calls; returns the newest one's id. */
async function fill(path) {
  const host = createHost({
    servers,
    store: new SqliteStore({ database: new Database(path) }),
    surface: { askPermission: () => Promise.resolve('deny_once') },
    permissions: { rules },
  });
  await host.servers.settled();
  let newest = '';
  for (let i = 0; i < CARDS; i++) {
    const r = await host.invoke({ scope, caller: { kind: 'user' }, tool: 'demo__echo', args: { text: `card ${i}` } });
    if (r.outcome !== 'success') throw new Error(`filling the conversation failed: ${r.text}`);
    newest = r.invocationId;
  }
  await host.close();
  return newest;
}

const dir = mkdtempSync(join(tmpdir(), 'airlock-console-bench-'));
const storePath = join(dir, 'console.db');
const newest = await fill(storePath);
const running = await startConsole(
  { ...loadConsoleConfig({ port: 0, store: storePath }, {}), servers, rules },
  { logger: createConsoleLogger({ level: 'silent' }) },
);
await running.host.servers.settled();

const signIn = await fetch(new URL('/api/session', running.url), {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ userId: scope.userId }),
});
if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status}`);
const cookie = signIn.headers
  .getSetCookie()
  .map((line) => line.split(';')[0])
  .find((pair) => pair.startsWith('airlock_session='));
const [cookieName, cookieValue] = cookie.split('=');

/** How many cards a tab opens with (the console sends the newest of the conversation): read from one stream. */
async function snapshotCards() {
  const controller = new AbortController();
  const response = await fetch(new URL('/api/events?conversation=main', running.url), {
    headers: { cookie, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of response.body) {
    text += decoder.decode(chunk, { stream: true });
    if (text.includes('\n\n')) break;
  }
  controller.abort();
  const data = text.split('\n').find((line) => line.startsWith('data:'));
  return JSON.parse(data.slice(5)).cards.length;
}
const sentCards = await snapshotCards();

// The page, in the page: when the newest card is in the DOM, its first update done and the next frame painted (a
// task queued from a rAF callback runs after the frame renders), the time since navigation start is kept, with the
// cards that frame drew; and when every card the tab was sent is in the DOM.
const WATCH = ({ id, all }) => {
  const painted = () =>
    new Promise((done) =>
      requestAnimationFrame(() => {
        const inFrame = document.querySelectorAll('li[data-slot]').length;
        const channel = new MessageChannel();
        channel.port1.onmessage = () => done(inFrame);
        channel.port2.postMessage(0);
      }),
    );
  let newestSeen = false;
  const observer = new MutationObserver(() => {
    const card = document.querySelector(`li[data-slot="${id}"] airlock-tool-card`);
    if (card !== null && !newestSeen) {
      newestSeen = true;
      void card.updateComplete.then(painted).then((inFrame) => {
        window.__newestPainted = performance.now();
        window.__cardsInFrame = inFrame;
      });
    }
    if (document.querySelectorAll('li[data-slot]').length >= all) {
      observer.disconnect();
      window.__allDrawn = performance.now();
    }
  });
  observer.observe(document, { subtree: true, childList: true });
};

const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
async function openOnce() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await context.addCookies([{ name: cookieName, value: cookieValue, url: running.url }]);
    await context.addInitScript(WATCH, { id: newest, all: sentCards });
    const page = await context.newPage();
    await page.goto(running.url);
    const done = () => window.__newestPainted !== undefined && window.__allDrawn !== undefined;
    await page.waitForFunction(done, undefined, { timeout: 30_000 });
    return await page.evaluate(() => ({
      ms: window.__newestPainted,
      inFrame: window.__cardsInFrame,
      all: window.__allDrawn,
    }));
  } finally {
    await context.close();
  }
}
await openOnce(); // warm-up: the bundle compiled once by the console's static files, the store's pages read once
const opens = [];
for (let run = 0; run < RUNS; run++) opens.push(await openOnce());
await browser.close();
console.log(
  JSON.stringify({
    bench: 'console_open_1000_cards',
    ...MACHINE,
    runs: RUNS,
    cards_in_conversation: CARDS,
    cards_sent_to_the_tab: sentCards,
    cards_in_the_first_frame: spread(
      opens.map((o) => o.inFrame),
      0,
    ),
    measured: 'navigation start to the newest card rendered and the next frame painted',
    first_paint_newest_ms: spread(
      opens.map((o) => o.ms),
      1,
    ),
    all_sent_cards_in_dom_ms: spread(
      opens.map((o) => o.all),
      1,
    ),
    target_ms: 1000,
  }),
);

// 100 tabs of one tenant: the child opens them and tells when every tab has an event.
const tabs = fork(fileURLToPath(new URL('./console-tabs.js', import.meta.url)), [running.url, cookie, String(TABS)], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
tabs.on('exit', (code) => {
  if (code !== 0) throw new Error(`the tabs' process failed (exit ${code})`);
});
const reports = [];
let heard = () => undefined;
tabs.on('message', (message) => {
  reports.push(message);
  heard();
});
const next = (match) =>
  new Promise((resolve, reject) => {
    const look = () => {
      const found = reports.find(match);
      if (found !== undefined) resolve(found);
      return found !== undefined;
    };
    if (look()) return;
    const timer = setTimeout(() => reject(new Error('the tabs did not report in time')), 30_000);
    heard = () => look() && clearTimeout(timer);
  });
await next((m) => m.ready === TABS);
const fanOut = async () => {
  const start = now();
  const r = await running.host.invoke({ scope, caller: { kind: 'user' }, tool: 'demo__echo', args: { text: 'tab' } });
  // The last event of the call reaches every tab before the next call starts.
  await next((m) => m.id === r.invocationId && m.state === 'success');
  const pending = await next((m) => m.id === r.invocationId && m.state === 'pending');
  return { first: pending.first - start, last: pending.last - start };
};
for (let i = 0; i < EVENTS; i++) await fanOut(); // warm-up
const lastTab = [];
const firstTab = [];
for (let run = 0; run < RUNS; run++) {
  const events = [];
  for (let i = 0; i < EVENTS; i++) events.push(await fanOut());
  lastTab.push(
    quantile(
      events.map((e) => e.last),
      0.5,
    ),
  );
  firstTab.push(
    quantile(
      events.map((e) => e.first),
      0.5,
    ),
  );
}
tabs.send('close');
console.log(
  JSON.stringify({
    bench: 'console_event_100_tabs',
    ...MACHINE,
    runs: RUNS,
    events_per_run: EVENTS,
    tabs: TABS,
    tabs_are: 'Node event-stream clients of one session, in a process of their own',
    measured: "host.invoke called to the call's pending card received, per run the median of its events",
    first_tab_ms: spread(firstTab),
    last_tab_ms: spread(lastTab),
    target_last_tab_ms: 50,
  }),
);
await running.close();
rmSync(dir, { recursive: true, force: true });

// The web components in Debian's headless Chromium, measured in the page with performance.now():
//   tool_card_5mb_render: one <airlock-tool-card> is handed a 5 MB text result; from setting `result` to
//     `await el.updateComplete` plus one animation frame, painted. Target: median under 100 ms (15 samples).
//   page_500_cards: 500 cards with typical small results, from creating the first to all rendered and the frame
//     painted. Target: under 2 s (median of 3 fresh pages).
// Run by the root `npm run bench` (bench/run.js imports runElementsBench), or alone:
//   node packages/elements/bench/elements-bench.mjs     (one JSON line per result; `npm run build` first)
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const BUNDLE = fileURLToPath(new URL('../dist/bundle/airlock-elements.js', import.meta.url));
const CHROMIUM = process.env.AIRLOCK_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const PAGE = `<!doctype html><html lang="en-US"><head><meta charset="utf-8"><title>bench</title>
<script type="module" src="/airlock-elements.js"></script></head>
<body style="margin:0"><main id="root"></main></body></html>`;

/** The in-page helpers both benches share, as source: evaluated in the page, never in Node. */
const IN_PAGE_HELPERS = `
  window.__bench = {
    /** The next frame, painted: a rAF callback runs before the frame renders, a task queued from it runs after. */
    painted: () =>
      new Promise((done) =>
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => done();
          channel.port2.postMessage(0);
        }),
      ),
    invocation: (i, state) => ({
      id: 'inv-' + i,
      tool: 'files__read_file',
      originalName: 'read_file',
      serverId: 'files',
      state,
      outcome: state === 'success' ? 'success' : null,
      error: null,
      args: { path: 'docs/file-' + i + '.md', encoding: 'utf-8' },
    }),
    tool: { name: 'files__read_file', title: 'Read file' },
    server: { id: 'files', trusted: true },
  };
`;

/**
 * Runs both benchmarks and returns their results (the caller prints them). Throws when the bundle is missing or
 * `<airlock-tool-card>` is not in it, rather than reporting a number for nothing.
 */
export async function runElementsBench(options = {}) {
  const samples = options.samples ?? 15;
  const pages = options.pages ?? 3;
  if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run "npm run build" first`);
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium`);
  const bundle = readFileSync(BUNDLE);
  const server = createServer((request, response) => {
    if (request.url === '/airlock-elements.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      return response.end(bundle);
    }
    if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return response.end(PAGE);
    }
    response.writeHead(404);
    response.end();
  });
  await new Promise((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const open = async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`http://127.0.0.1:${port}/`);
      const defined = await page.evaluate(async () => {
        await new Promise((done) => (document.readyState === 'complete' ? done() : addEventListener('load', done)));
        return customElements.get('airlock-tool-card') !== undefined;
      });
      if (!defined) throw new Error('<airlock-tool-card> is not defined in the bundle; nothing to measure');
      await page.evaluate(IN_PAGE_HELPERS);
      return page;
    };
    const card = await benchFiveMegabyteCard(await open(), samples);
    const runs = [];
    for (let i = 0; i < pages; i++) {
      const page = await open();
      runs.push(await benchFiveHundredCards(page));
      await page.close();
    }
    return [
      { bench: 'tool_card_5mb_render', chars: card.chars, n: samples, ...stats(card.samples), target_ms: 100 },
      {
        bench: 'page_500_cards',
        cards: 500,
        ms: round(stats(runs).median_ms),
        runs_ms: runs.map(round),
        target_ms: 2000,
      },
    ];
  } finally {
    await browser.close();
    await new Promise((done) => server.close(() => done()));
  }
}

/** 15 fresh cards, each handed the same 5 MB text (80-character lines); two unmeasured warm-up rounds first. */
async function benchFiveMegabyteCard(page, samples) {
  return page.evaluate(async (count) => {
    const { painted, invocation, tool, server } = window.__bench;
    const line = 'The quick brown fox jumps over the lazy dog while the tool streams its output. ';
    const text = line.repeat(Math.ceil((5 * 1024 * 1024) / line.length)).slice(0, 5 * 1024 * 1024);
    const root = document.getElementById('root');
    const times = [];
    for (let i = 0; i < count + 2; i++) {
      const card = document.createElement('airlock-tool-card');
      card.invocation = invocation(i, 'success');
      card.tool = tool;
      card.server = server;
      root.append(card);
      await card.updateComplete;
      await painted();
      const start = performance.now();
      card.result = {
        blocks: [{ type: 'text', text, totalChars: text.length, truncated: false }],
        isError: false,
        handle: 'airlock:result/inv-' + i,
      };
      await card.updateComplete;
      await painted();
      if (i >= 2) times.push(performance.now() - start);
      // A card that showed nothing would be fast for the wrong reason.
      if (!card.shadowRoot?.textContent?.includes('quick brown fox')) throw new Error('the card did not show the text');
      card.remove();
    }
    return { samples: times, chars: text.length };
  }, samples);
}

/** 500 cards in one page, as a long conversation's history would be: a few shapes of small success results. */
async function benchFiveHundredCards(page) {
  return page.evaluate(async () => {
    const { painted, invocation, tool, server } = window.__bench;
    const results = [
      'Found **3 files** matching `airlock`:\n\n1. `host.ts`\n2. `index.ts`\n3. `README.md`',
      'ok',
      '```json\n{ "rows": 2, "elapsed_ms": 14 }\n```',
      'The file has 412 lines. The first is:\n\n> // @airlock/core: the MCP host runtime.',
    ];
    const root = document.getElementById('root');
    const start = performance.now();
    const cards = [];
    for (let i = 0; i < 500; i++) {
      const card = document.createElement('airlock-tool-card');
      card.invocation = invocation(i, 'success');
      card.tool = tool;
      card.server = server;
      const text = results[i % results.length];
      card.result = {
        blocks: [{ type: 'text', text, totalChars: text.length, truncated: false }],
        isError: false,
        handle: 'airlock:result/inv-' + i,
      };
      cards.push(card);
      root.append(card);
    }
    await Promise.all(cards.map((card) => card.updateComplete));
    await painted();
    const elapsed = performance.now() - start;
    if (!cards.every((card) => card.shadowRoot?.textContent?.includes('Read file'))) {
      throw new Error('not every card rendered');
    }
    return elapsed;
  });
}

/** Median and p99 as bench/run.js computes them. */
function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median_ms: round(at(0.5)), p99_ms: round(at(0.99)) };
}

function round(ms) {
  return Math.round(ms * 100) / 100;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  for (const result of await runElementsBench()) console.log(JSON.stringify(result));
}

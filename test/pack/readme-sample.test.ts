import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The README and the docs show what users run: the library sample of docs/getting-started.md is
// examples/quick-start.mjs word for word (which pack-install.test.ts runs from the installed packages), and the
// README's Ctrl-C example leaves time to press Ctrl-C.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const README = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
const GETTING_STARTED = readFileSync(resolve(ROOT, 'docs/getting-started.md'), 'utf8');

describe('the README', () => {
  it('shows examples/quick-start.mjs verbatim as the library sample of its Getting started', () => {
    const sample = readFileSync(resolve(ROOT, 'examples/quick-start.mjs'), 'utf8');
    expect(GETTING_STARTED).toContain('```js\n' + sample + '```\n');
    expect(GETTING_STARTED).toContain('node examples/quick-start.mjs');
    expect(README).toContain('node examples/quick-start.mjs');
    expect(sample.trimEnd().split('\n').at(-1)).toMatch(/^await host\.close\(\);/);
  });

  it('cancels with Ctrl-C a slow_task that runs for at least ten seconds (the demo: 5 steps of 200 ms by default)', () => {
    const line = README.split('\n').find((l) => l.includes('call demo/slow_task') && l.includes('Ctrl-C'));
    const args = JSON.parse(/--args '([^']*)'/.exec(line ?? '')?.[1] ?? '{}') as { steps?: number; stepMs?: number };
    expect((args.steps ?? 5) * (args.stepMs ?? 200)).toBeGreaterThanOrEqual(10_000);
  });
});

// The MCP conformance suite's client scenarios, every one, against Airlock's host as an application embeds it
// (airlock-client.mjs). The suite needs Node 22, so it runs under the registry's Node 22 (the test skips, saying why,
// where none can be had); the client it drives runs on this Node. Scenarios Airlock does not pass yet are listed, with
// why, in expected-failures.yml: the run fails on any other failure, and on a listed one that passes.
//
// The verdict is read from each scenario's checks.json rather than from the suite's exit code, for one reason: the
// suite starts all 26 clients at once, and on two busy cores the sse-retry client's reconnect (due 500 ms after the
// stream closes) was measured 200 ms late in CI and 517 ms late with three suites at once, which the suite counts as a
// failure. So the retry timing is judged from a run of that scenario alone, where "slightly late" (the suite's own
// WARNING, which it calls acceptable) passes and reconnecting early, or so late that the retry field was ignored, fails.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findNode22 } from '../support/node22/node22.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const SUITE = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const SCENARIOS_IN_SUITE = 26; // the suite's 0.1.16 release

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
  details?: Record<string, unknown>;
}

/** The scenarios expected-failures.yml lists under `client:` (a flat list, one `- name` per line). */
function expectedFailures(): string[] {
  const text = readFileSync(join(HERE, 'expected-failures.yml'), 'utf8');
  return [...text.matchAll(/^\s+-\s+(\S+)\s*$/gm)].map((m) => m[1]!);
}

/** Every scenario's checks, by scenario name, from the results directory the suite wrote (`<name>-<timestamp>/`). */
function resultsByScenario(out: string): Map<string, Check[]> {
  const found = new Map<string, Check[]>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (!statSync(path).isDirectory()) continue;
      const named = /^(.*)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(relative(out, path));
      if (named === null) walk(path);
      else found.set(named[1]!, JSON.parse(readFileSync(join(path, 'checks.json'), 'utf8')) as Check[]);
    }
  };
  walk(out);
  return found;
}

/** What keeps a scenario from passing in the run of all of them, where the retry timing is not judged. */
function faults(checks: Check[]): string[] {
  return checks
    .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
    .filter((check) => check.id !== 'client-sse-retry-timing')
    .map((check) => `${check.id}: ${check.status} ${check.errorMessage ?? ''}`.trim());
}

/** Runs the suite under Node 22 with `args`, writing results to `out`; its exit code is not the verdict. */
function runSuite(node22: string, args: string[], out: string): Promise<string> {
  const command = `"${process.execPath}" "${join(HERE, 'airlock-client.mjs')}"`;
  return new Promise<string>((done) => {
    execFile(
      node22,
      [SUITE, 'client', '--command', command, ...args, '-o', out],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 },
      (_error, stdout, stderr) => done(stdout + stderr),
    );
  });
}

describe('the MCP conformance suite, client scenarios', { timeout: 300_000 }, () => {
  const out = mkdtempSync(join(tmpdir(), 'airlock-conformance-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('passes every scenario but the ones listed as not built, each named', async (context) => {
    const node22 = await findNode22();
    if ('missing' in node22) {
      context.skip(`no Node 22 to run the suite with: ${node22.missing}`);
      return;
    }
    const alone = join(out, 'alone');
    const aloneOutput = await runSuite(node22.path, ['--scenario', 'sse-retry'], alone);
    const retry = resultsByScenario(alone)
      .get('sse-retry')
      ?.find((check) => check.id === 'client-sse-retry-timing');
    expect(retry?.status, aloneOutput).toMatch(/^(SUCCESS|WARNING)$/);
    expect(retry?.details, 'reconnected after the retry field, not early, not by a backoff of its own').toMatchObject({
      tooEarly: false,
      veryLate: false,
    });

    const all = join(out, 'all');
    const output = await runSuite(node22.path, ['--suite', 'all'], all);
    const results = resultsByScenario(all);
    expect(results.size, output).toBe(SCENARIOS_IN_SUITE);
    const failing = Object.fromEntries(
      [...results].map(([name, checks]) => [name, faults(checks)] as const).filter(([, found]) => found.length > 0),
    );
    // A scenario listed as not built that passes now must leave the list, so the list stays true.
    expect(failing).toEqual(Object.fromEntries(expectedFailures().map((name) => [name, expect.any(Array)])));
  });
});

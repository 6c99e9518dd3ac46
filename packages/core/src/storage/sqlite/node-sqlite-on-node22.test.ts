import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findNode22 } from '../../../../../test/support/node22/node22.js';

// The machine runs Node 20, which has no node:sqlite: this runs the store contract on node:sqlite under a Node 22
// binary (the registry's node@22), in a vitest of its own, and checks that its cases ran and passed.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..');
const SUITE = 'packages/core/src/storage/sqlite/node-sqlite-store.test.ts';

function hasNodeSqlite(): boolean {
  try {
    createRequire(import.meta.url)('node:sqlite');
    return true;
  } catch {
    return false;
  }
}

interface VitestReport {
  readonly numPassedTests: number;
  readonly numFailedTests: number;
  readonly testResults: readonly { readonly assertionResults: readonly { fullName: string; status: string }[] }[];
}

describe('NodeSqliteStore under Node 22', () => {
  it('passes the store contract on node:sqlite', { timeout: 600_000 }, async (context) => {
    context.skip(hasNodeSqlite(), 'this Node has node:sqlite: node-sqlite-store.test.ts runs the contract directly');
    const node22 = await findNode22();
    if ('missing' in node22) {
      context.skip(`no Node 22 binary to run node:sqlite on: ${node22.missing}`);
      return;
    }
    const dir = await mkdtemp(join(tmpdir(), 'airlock-node22-'));
    try {
      const report = join(dir, 'report.json');
      const vitest = join(ROOT, 'node_modules/vitest/vitest.mjs');
      const args = [vitest, 'run', SUITE, '--reporter=json', `--outputFile=${report}`];
      const run = await new Promise<{ code: number; stderr: string }>((done) => {
        execFile(node22.path, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => {
          done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stderr });
        });
      });
      const result = JSON.parse(await readFile(report, 'utf8')) as VitestReport;
      const failed = result.testResults
        .flatMap((file) => file.assertionResults)
        .filter((test) => test.status === 'failed')
        .map((test) => test.fullName);
      expect({ code: run.code, failed }).toEqual({ code: 0, failed: [] });
      expect(result.numPassedTests).toBeGreaterThan(50);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKAGE_FOLDERS } from './packed-files.js';

// What the registry's linters say about each package as packed: publint (exports, files, fields) and
// arethetypeswrong (do the types resolve as the JavaScript does). attw runs the node16 profile less one rule:
// cjs-resolves-to-esm says "dynamic import only" from CommonJS, which TypeScript's node16 mode still believes, while
// Node >= 20.19 (our floor) require()s these ES modules; require-esm.test.ts proves that at run time.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = join(ROOT, 'node_modules/.bin');

function lint(command: string, args: readonly string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(join(BIN, command), [...args], { cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, output: stdout + stderr });
    });
  });
}

describe('the packages as the linters see them', () => {
  for (const folder of PACKAGE_FOLDERS) {
    it(`${folder} passes publint --strict and attw`, { timeout: 120_000 }, async () => {
      const cwd = join(ROOT, folder);
      const publint = await lint('publint', ['--strict'], cwd);
      expect(publint.code, publint.output).toBe(0);
      const attw = await lint(
        'attw',
        ['--pack', '.', '--profile', 'node16', '--ignore-rules', 'cjs-resolves-to-esm'],
        cwd,
      );
      expect(attw.code, attw.output).toBe(0);
    });
  }
});

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKAGE_FOLDERS } from './packed-files.js';

// CommonJS users on Node >= 20.19 (our engines floor) can require() our ES modules: every entry in `exports` has a
// `default` condition, which require() matches, and no module in the graph awaits at its top level.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Browser files, for a page's `<script type="module">`: Node can neither import nor require them (no HTMLElement). */
const BROWSER_ONLY = new Set(['@airlock/elements/bundle']);

/** Every module specifier the packages export (JSON files left out), e.g. `@airlock/core/sqlite`. */
function specifiers(): string[] {
  return PACKAGE_FOLDERS.flatMap((folder) => {
    const manifest = JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as {
      name: string;
      exports: Record<string, unknown>;
    };
    return Object.keys(manifest.exports)
      .filter((subpath) => !subpath.endsWith('.json'))
      .map((subpath) => (subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`))
      .filter((id) => !BROWSER_ONLY.has(id));
  });
}

describe('require() of the packages', () => {
  it('loads every exported entry from CommonJS, each with named exports', async () => {
    const script = `for (const id of JSON.parse(process.argv[1])) console.log(id, Object.keys(require(id)).length > 0);`;
    const list = specifiers();
    const stdout = await new Promise<string>((done, fail) => {
      execFile(process.execPath, ['-e', script, JSON.stringify(list)], { cwd: ROOT }, (error, out, stderr) =>
        error === null ? done(out) : fail(new Error(stderr)),
      );
    });
    expect(stdout.trim().split('\n')).toEqual(list.map((id) => `${id} true`));
    expect(list).toContain('@airlock/core');
  });
});

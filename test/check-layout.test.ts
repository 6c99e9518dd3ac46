import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CORE_LAYOUT, fileCycles, fileRuleBreaches, folderCycles, layoutBreaches } from '../scripts/check-layout.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

describe('the layout check', () => {
  let root: string;

  /** Writes the fixture tree: each path with its source. */
  async function tree(files: Record<string, string>): Promise<void> {
    for (const [path, source] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), source);
    }
  }

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'airlock-layout-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('finds no cycle in folders that import one way', async () => {
    await tree({
      'low/a.ts': 'export const a = 1;\n',
      'mid/b.ts': "import { a } from '../low/a.js';\nexport const b = a;\n",
      'top/c.ts': "import { b } from '../mid/b.js';\nimport { a } from '../low/a.js';\nexport const c = a + b;\n",
    });
    expect(folderCycles({ root })).toEqual([]);
  });

  it('finds a cycle through three folders, naming an import of each edge', async () => {
    await tree({
      'a/x.ts': "import { y } from '../b/y.js';\nexport const x = y;\n",
      'b/y.ts': "import { z } from '../c/z.js';\nexport const y = z;\n",
      'c/z.ts': "import type { X } from '../a/types.js';\nexport const z: X = 1;\n",
      'a/types.ts': 'export type X = number;\n',
    });
    expect(folderCycles({ root })).toEqual([
      {
        folders: ['a', 'b', 'c'],
        imports: [
          join('a', 'x.ts') + ' imports ' + join('b', 'y.ts'),
          join('b', 'y.ts') + ' imports ' + join('c', 'z.ts'),
          join('c', 'z.ts') + ' imports ' + join('a', 'types.ts'),
        ],
      },
    ]);
  });

  it('counts type-only imports, re-exports and dynamic imports as edges', async () => {
    for (const [importer, back] of [
      ["import type { Y } from '../b/y.js';\nexport type X = Y;\n", "export { x } from '../a/x.js';\n"],
      ["export const x = () => import('../b/y.js');\n", "import type { X } from '../a/x.js';\nexport type Y = X;\n"],
    ]) {
      await rm(root, { recursive: true, force: true });
      await tree({ 'a/x.ts': importer!, 'b/y.ts': back! });
      expect(folderCycles({ root }).map((c) => c.folders)).toEqual([['a', 'b']]);
    }
  });

  it('counts the files at the root as one folder, and leaves out the entry and tests', async () => {
    await tree({
      'index.ts': "export { a } from './domain/a.js';\n",
      'scope.ts': 'export type Scope = { id: string };\n',
      'domain/a.ts': "import type { Scope } from '../scope.js';\nexport const a = (s: Scope) => s.id;\n",
      'domain/a.test.ts': "import '../index.js';\n",
    });
    expect(folderCycles({ root })).toEqual([]);
    await tree({ 'scope.ts': "import type { A } from './domain/b.js';\nexport type Scope = { id: A };\n" });
    await tree({ 'domain/b.ts': 'export type A = string;\n' });
    expect(folderCycles({ root }).map((c) => c.folders)).toEqual([['(root)', 'domain']]);
  });

  it('finds a cycle between two files of one folder', async () => {
    await tree({
      'a/x.ts': "import type { Y } from './y.js';\nexport type X = Y[];\n",
      'a/y.ts': "import type { X } from './x.js';\nexport type Y = X | string;\n",
      'a/z.ts': "import type { X } from './x.js';\nexport type Z = X;\n",
    });
    expect(fileCycles({ root })).toEqual([[join('a', 'x.ts'), join('a', 'y.ts')]]);
  });

  it('refuses a re-export outside an index file, export * in one, and a file over the line limit', async () => {
    await tree({
      'p/src/shim.ts': "export { a } from './a.js';\n",
      'p/src/index.ts': "export * from './a.js';\nexport { a } from './a.js';\n",
      'p/src/long.ts': 'export const x = 1;\n'.repeat(601),
    });
    const breaches = fileRuleBreaches({ repo: root, files: ['p/src/shim.ts', 'p/src/index.ts', 'p/src/long.ts'] });
    expect(breaches).toEqual([
      'p/src/shim.ts:1 re-exports from another module: import from where it is defined',
      'p/src/index.ts:1 has export *: name each export',
      'p/src/long.ts has 601 lines (at most 600): split it by concern',
    ]);
  });

  it('finds the repository within its layout rules', () => {
    expect(layoutBreaches(REPO)).toEqual([]);
    expect(CORE_LAYOUT.root).toBe('packages/core/src');
  });
});

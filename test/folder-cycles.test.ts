import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CORE_LAYOUT, folderCycles } from '../scripts/folder-cycles.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

describe('the folder cycle check', () => {
  let root: string;

  /** Writes the fixture tree: each path with its source. */
  async function tree(files: Record<string, string>): Promise<void> {
    for (const [path, source] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), source);
    }
  }

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'airlock-folder-cycles-'));
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

  it('leaves out the excepted port, tests and files at the root of the tree', async () => {
    await tree({
      'storage/host-store.ts': "import type { Record } from '../domain/record.js';\nexport type Port = Record;\n",
      'domain/record.ts': 'export type Record = { id: string };\n',
      'domain/uses-port.ts': "import type { Port } from '../storage/host-store.js';\nexport type P = Port;\n",
      'domain/record.test.ts': "import '../storage/impl.js';\n",
      'storage/impl.ts': "import type { Record } from '../domain/record.js';\nexport type R = Record;\n",
      'host.ts': "import '../storage/impl.js';\nimport '../domain/record.js';\n",
    });
    expect(folderCycles({ root, except: ['storage/host-store.ts'] })).toEqual([]);
    expect(folderCycles({ root }).map((c) => c.folders)).toEqual([['domain', 'storage']]);
  });

  it('finds no cycle between the folders of packages/core/src', () => {
    expect(folderCycles({ root: join(REPO, CORE_LAYOUT.root), except: CORE_LAYOUT.except })).toEqual([]);
  });
});

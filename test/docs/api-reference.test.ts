import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The API reference is TypeDoc's reading of the TSDoc in the packages (`npm run docs:api`, typedoc.json). A link that
// resolves to nothing, a tag TypeDoc does not know, or a public type that names a type the docs leave out is a warning;
// here every warning fails, and every import a package.json offers has its page. TypeDoc reads the built packages'
// declaration maps (`npm run build`), as `npm test` builds first.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DOCUMENTED = ['packages/core', 'packages/elements', 'packages/ai-sdk', 'packages/web-kit'];

interface Reflection {
  name: string;
  kind: number;
  children?: Reflection[];
}
const MODULE = 2;

/** The imports a package offers to code, one per declaration file (a second key for the same types is the same API). */
function documentedImports(dir: string): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, string | { types?: string }>;
  };
  const seen = new Map<string, string>();
  for (const [key, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string' || target.types === undefined || seen.has(target.types)) continue;
    seen.set(target.types, key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`);
  }
  return [...seen.values()].sort();
}

describe('the API reference', () => {
  let out: string;
  let run: { code: number; output: string };

  beforeAll(async () => {
    expect(existsSync(join(ROOT, 'packages/core/dist/index.d.ts')), 'run `npm run build` first').toBe(true);
    out = await mkdtemp(join(tmpdir(), 'airlock-api-docs-'));
    const typedoc = join(ROOT, 'node_modules/typedoc/bin/typedoc');
    const args = [typedoc, '--out', join(out, 'html'), '--json', join(out, 'api.json'), '--treatWarningsAsErrors'];
    run = await new Promise((done) => {
      execFile(process.execPath, args, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) =>
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, output: stdout + stderr }),
      );
    });
  }, 240_000);

  afterAll(async () => {
    if (out !== undefined) await rm(out, { recursive: true, force: true });
  });

  it('builds from the TSDoc with no warning and no error', () => {
    expect(run.output).not.toMatch(/\[(warning|error)\]/);
    expect(run.code, run.output).toBe(0);
    expect(existsSync(join(out, 'html/index.html'))).toBe(true);
  });

  it.each(DOCUMENTED)('documents every import %s offers in its package.json exports', async (dir) => {
    const project = JSON.parse(await readFile(join(out, 'api.json'), 'utf8')) as Reflection;
    const imports = documentedImports(dir);
    const pkg = project.children?.find((child) => child.name === imports[0]);
    expect(pkg, `${dir} is in the reference`).toBeDefined();
    const modules = (pkg?.children ?? []).filter((child) => child.kind === MODULE).map((child) => child.name);
    // A package with one entry is its own module; one with subpaths has a module per import.
    expect(modules.length === 0 ? [pkg?.name] : modules.sort()).toEqual(imports);
  });
});

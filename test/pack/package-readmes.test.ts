import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../packages/cli/dist/cli-args.js';

// Each package's README is what npm shows on its page: it ships in the tarball (`files`), says what a user of that
// package gets, and its samples are what runs: the library sample is examples/quick-start.mjs word for word (run by
// pack-install.test.ts), and every airlock command line it shows parses.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PACKAGES = [
  'packages/core',
  'packages/cli',
  'packages/demo-server',
  'packages/ai-sdk',
  'packages/web-kit',
  'packages/elements',
  'apps/console',
];
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('the package READMEs', () => {
  it.each(PACKAGES)('%s ships its README, which names the package and its repository', (dir) => {
    const pkg = JSON.parse(read(`${dir}/package.json`)) as {
      name: string;
      files: string[];
      repository: { url: string; directory: string };
      homepage: string;
    };
    expect(pkg.files).toContain('README.md');
    const readme = read(`${dir}/README.md`);
    expect(readme.startsWith(`# ${pkg.name}\n`)).toBe(true);
    expect(readme).toContain('## Install');
    // One repository everywhere: the README's link, package.json's repository and homepage.
    expect(pkg.repository.url).toBe('git+https://github.com/airlock-mcp/airlock.git');
    expect(pkg.repository.directory).toBe(dir);
    expect(pkg.homepage).toBe(`https://github.com/airlock-mcp/airlock/tree/main/${dir}#readme`);
    expect(readme).toContain('https://github.com/airlock-mcp/airlock#readme');
  });

  it("core's shows examples/quick-start.mjs verbatim", () => {
    expect(read('packages/core/README.md')).toContain('```js\n' + read('examples/quick-start.mjs') + '```\n');
  });

  it("every airlock command in the CLI's and the console's README parses", () => {
    const commands = ['packages/cli/README.md', 'apps/console/README.md']
      .flatMap((path) => read(path).split('\n'))
      .map((line) => /^airlock\s(.*?)(\s+#.*)?$/.exec(line)?.[1])
      .filter((line): line is string => line !== undefined);
    expect(commands.length).toBeGreaterThan(4);
    for (const line of commands) {
      const argv = [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
      if (argv[0] === 'console') continue; // the console's own options
      expect(parseCommandLine(argv), line).toMatchObject({ ok: true });
    }
  });
});

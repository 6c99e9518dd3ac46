import { readFileSync } from 'node:fs';

/**
 * The console's version, read from its own package.json when asked, so `airlock-console --version` names the package
 * actually installed. `../package.json` is the package root from `src/` (tests) and from `dist/` (the installed bin).
 */
export function consoleVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version?: unknown;
  };
  if (typeof manifest.version !== 'string') throw new Error('@airlock/console: its package.json has no "version"');
  return manifest.version;
}

import { readFileSync } from 'node:fs';

/**
 * The CLI's version, read from its own package.json when asked (not copied into the code at build time), so
 * `airlock --version` always names the package that is actually installed, whatever published or packed it.
 * `../package.json` is the package root both from `src/` (tests) and from `dist/` (the installed bin).
 */
export function cliVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version?: unknown;
  };
  if (typeof manifest.version !== 'string') {
    throw new Error('@airlock/cli: its package.json has no "version" string');
  }
  return manifest.version;
}

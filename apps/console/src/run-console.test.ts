// `airlock-console` as a person runs it: its version, and the address it listens on from the command line.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { loadConsoleConfig } from './console-config.js';
import { runConsole } from './run-console.js';

const MANIFEST = resolve(dirname(fileURLToPath(import.meta.url)), '../package.json');

/** Runs the console's command with stdout and stderr caught. */
async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  try {
    return { code: await runConsole(argv), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('airlock-console on the command line', () => {
  it('prints the version of the package installed, with --version and -V', async () => {
    const { version } = JSON.parse(readFileSync(MANIFEST, 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      expect(await run([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });

  it('lists --host and --version in its help', async () => {
    const { stdout } = await run(['--help']);
    expect(stdout).toContain('--host H');
    expect(stdout).toContain('-V, --version');
  });

  it('refuses --host off loopback under local sign-in, naming the flag', async () => {
    const { code, stderr } = await run(['--host', '0.0.0.0', '--store', ':memory:', '--port', '0']);
    expect(code).toBe(2);
    expect(stderr).toContain('the command line: --host is "0.0.0.0", which other machines can reach');
  });

  it('listens where --host says, over the config', () => {
    const config = loadConsoleConfig({ host: 'localhost', store: ':memory:' }, {});
    expect(config.host).toBe('localhost');
    expect(loadConsoleConfig({ store: ':memory:' }, {}).host).toBe('127.0.0.1');
  });
});

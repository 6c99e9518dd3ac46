import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../dist/bin.js');
const VERSION = (JSON.parse(readFileSync(resolve(here, '../package.json'), 'utf8')) as { version: string }).version;

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

describe('airlock --version', () => {
  it.each([['--version'], ['-V']])('%s prints the version in package.json and starts no server', async (flag) => {
    const result = await run([flag]);
    expect(result).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('the usage names it', async () => {
    const result = await run(['--help']);
    expect(result.stdout).toContain('-V, --version');
  });
});

import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { scratchDir } from '@airlock/core/testing';
import { describe, expect, it } from 'vitest';
import { runConsoleCommand } from './console-command.js';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/bin.js');

/** Runs the built `airlock` in an empty directory (so the console finds no config and runs the demo server). */
function airlock(args: string[]) {
  return spawn(process.execPath, [BIN, ...args], {
    cwd: scratchDir('airlock-console-command-'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = airlock(args);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

describe('airlock console', () => {
  it("runs the console's own bin with the arguments given", async () => {
    const r = await run(['console', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('usage: airlock console [--config FILE] [--host H] [--port N] [--store FILE]');
  });

  it("ends with the console's exit code, and its complaint reaches the terminal", async () => {
    const r = await run(['console', '--port', 'many']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('airlock console: --port must be a port number, not "many"');
  });

  it('says how to install the console when it is not installed, and starts nothing', async () => {
    let written = '';
    const stderr = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    const code = await runConsoleCommand({
      argv: ['--port', '0'],
      stderr,
      resolve: () => {
        throw new Error("Cannot find package '@airlock/console'");
      },
    });
    expect(code).toBe(2);
    expect(written).toContain('the web console is not installed');
    expect(written).toContain('npm install -g @airlock/console');
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'closes the console when %s reaches airlock alone, and exits once the console has',
    async (signal) => {
      const child = airlock(['console', '--port', '0', '--store', ':memory:']);
      const url = await new Promise<string>((listening, failed) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const found = /listening on (\S+)/.exec(out);
          if (found?.[1] !== undefined) listening(found[1]);
        });
        child.once('exit', () => failed(new Error(`airlock console ended before it listened: ${out}`)));
      });
      expect((await fetch(new URL('/api/auth', url))).status).toBe(200);
      const exited = new Promise((done) => child.once('exit', (code, by) => done({ code, by })));
      child.kill(signal);
      expect(await exited).toEqual({ code: 0, by: null });
      await expect(fetch(new URL('/api/auth', url))).rejects.toThrow();
    },
  );
});

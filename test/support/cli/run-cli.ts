import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The CLI's built entry point (`npm run build` makes it). */
export const CLI_BIN = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'packages/cli/dist/bin.js');

/** What a run of the CLI printed, and how it exited. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI with `args` and colour off (NO_COLOR); resolves once it has exited and its output closed. */
export function runCli(args: readonly string[]): Promise<CliRun> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

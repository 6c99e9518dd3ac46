import { execFile } from 'node:child_process';

/** How a command ended: its exit code (1 when it could not run or was signalled) and what it printed. */
export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The environment without what `npm test` sets for its own scripts (npm_config_local_prefix and the like would point
 * a nested npm back at the repository), with `extra` on top.
 */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  return { ...env, ...extra };
}

/** Runs a command in `cwd` with the clean environment (plus `extra`); resolves however it ends. */
export function runCommand(
  command: string,
  args: readonly string[],
  cwd: string,
  extra: NodeJS.ProcessEnv = {},
): Promise<Run> {
  return new Promise((done) => {
    execFile(
      command,
      [...args],
      { cwd, env: cleanEnv(extra), maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
      },
    );
  });
}

/** Runs a command that must succeed, failing with its output when it does not. */
export async function runOk(command: string, args: readonly string[], cwd: string): Promise<Run> {
  const result = await runCommand(command, args, cwd);
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

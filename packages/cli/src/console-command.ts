import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT_CODES } from './exit-codes.js';

/** The package that brings the web console. The CLI does not depend on it: it runs the console's bin when present. */
export const CONSOLE_PACKAGE = '@airlock/console';

/** Signals passed on to the console, so stopping `airlock console` stops the console and lets it close cleanly. */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** What `airlock console` needs: its arguments, where to say what went wrong, and how to find the console. */
export interface ConsoleCommandOptions {
  /** The arguments after `console`, passed to the console's bin as they are. */
  readonly argv: readonly string[];
  readonly stderr: NodeJS.WritableStream;
  /** Resolves a package the way this module would import it (tests pass one that finds nothing). */
  readonly resolve?: (specifier: string) => string;
}

/**
 * Where the console's bin (`airlock-console`) is, when @airlock/console is installed where the CLI can find it
 * (beside it, or in a parent node_modules); undefined when it is not installed or not built.
 */
export function consoleBinPath(
  resolve: (specifier: string) => string = (s) => import.meta.resolve(s),
): string | undefined {
  let entry: string;
  try {
    entry = resolve(CONSOLE_PACKAGE);
  } catch {
    return undefined;
  }
  const bin = join(dirname(fileURLToPath(entry)), 'bin.js');
  return existsSync(bin) ? bin : undefined;
}

/**
 * `airlock console`: runs the console's own bin with the same arguments and resolves with its exit code. The console
 * is an app with a web page and its own dependencies, so the CLI leaves it out and starts it only when it is
 * installed, saying how to install it otherwise.
 */
export async function runConsoleCommand({ argv, stderr, resolve }: ConsoleCommandOptions): Promise<number> {
  const bin = consoleBinPath(resolve);
  if (bin === undefined) {
    stderr.write(
      `airlock console: the web console is not installed. Install it with "npm install -g ${CONSOLE_PACKAGE}" ` +
        `(or add ${CONSOLE_PACKAGE} beside @airlock/cli), then run "airlock console" again.\n`,
    );
    return EXIT_CODES.usage;
  }
  // On POSIX the console runs in a process group of its own, so a Ctrl-C reaches it once (passed on from here)
  // rather than twice (from the terminal and from here), which would cut its closing short. On Windows it shares the
  // console window and gets Ctrl-C from it.
  const ownGroup = process.platform !== 'win32';
  const child = spawn(process.execPath, [bin, ...argv], {
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: ownGroup,
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  if (ownGroup) for (const signal of FORWARDED) process.on(signal, forward);
  try {
    return await new Promise<number>((resolvePromise) => {
      child.once('error', (error) => {
        stderr.write(`airlock console: could not start ${bin}: ${error.message}\n`);
        resolvePromise(EXIT_CODES.usage);
      });
      child.once('exit', (code, signal) =>
        resolvePromise(code ?? 128 + (signal === null ? 0 : constants.signals[signal])),
      );
    });
  } finally {
    if (ownGroup) for (const signal of FORWARDED) process.off(signal, forward);
  }
}

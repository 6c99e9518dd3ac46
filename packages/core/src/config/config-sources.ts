import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The config file a surface reads, and what named it (`--config`, `AIRLOCK_CONFIG`, the folder, the user's). */
export interface FoundConfig {
  readonly path: string;
  readonly from: '--config' | 'AIRLOCK_CONFIG' | 'folder' | 'user';
}

/** The file name looked for in the current folder. */
export const FOLDER_CONFIG_FILE = 'airlock.config.json';

/** The user-level config: `$XDG_CONFIG_HOME/airlock/config.json`, else `~/.config/airlock/config.json`. */
export function userConfigPath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const base = env['XDG_CONFIG_HOME'] !== undefined && env['XDG_CONFIG_HOME'] !== '' ? env['XDG_CONFIG_HOME'] : '';
  return join(base === '' ? join(homedir(), '.config') : base, 'airlock', 'config.json');
}

/**
 * Where the config comes from, first found wins: the file given (`--config`), `AIRLOCK_CONFIG`, `./airlock.config.json`,
 * then the user's own file. A file named by the first two is taken even when missing, so reading it names it;
 * undefined when none is found (a surface runs its default).
 */
export function findConfigFile(options: {
  readonly flag?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
}): FoundConfig | undefined {
  const env = options.env ?? process.env;
  if (options.flag !== undefined) return { path: options.flag, from: '--config' };
  const named = env['AIRLOCK_CONFIG'];
  if (named !== undefined && named !== '') return { path: named, from: 'AIRLOCK_CONFIG' };
  const folder = resolve(options.cwd ?? process.cwd(), FOLDER_CONFIG_FILE);
  if (existsSync(folder)) return { path: folder, from: 'folder' };
  const user = userConfigPath(env);
  return existsSync(user) ? { path: user, from: 'user' } : undefined;
}

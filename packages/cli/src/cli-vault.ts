import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { SECRET_KEY_ENV, TokenVault } from '@airlock/core';

/**
 * The vault sealing remote servers' tokens: over `AIRLOCK_SECRET_KEY` when set, else the `secret.key` file beside
 * the history file (created 0600 on first use; the console uses the same file beside the same default history, so a
 * sign-in made in one serves the other for the same user id), else, with no history file, a key for this run.
 */
export async function cliVault(storePath: string): Promise<TokenVault> {
  const fromEnv = process.env[SECRET_KEY_ENV];
  if (fromEnv !== undefined) return TokenVault.fromKey(fromEnv, SECRET_KEY_ENV);
  if (storePath === ':memory:') return TokenVault.fromKey(randomBytes(32));
  return TokenVault.open({ keyFile: join(dirname(resolve(storePath)), 'secret.key') });
}

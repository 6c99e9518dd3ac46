import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The one history file the CLI and the console share when neither `--store`, `$AIRLOCK_STORE` nor the config names
 * one: `$XDG_DATA_HOME/airlock/airlock.db` (`~/.local/share/airlock/airlock.db`), so `airlock history` shows the
 * console's calls too. Both may run at once: the SQLite store opens the file in WAL mode, each write is one
 * `BEGIN IMMEDIATE` transaction that waits out the other's (busy timeout), and the audit chain links to the last event
 * read inside that transaction, so the two processes interleave their calls in one unbroken chain.
 */
export function defaultStorePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env['XDG_DATA_HOME'] ?? join(homedir(), '.local', 'share'), 'airlock', 'airlock.db');
}

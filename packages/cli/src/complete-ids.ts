import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SqliteStore } from '@airlock/core/sqlite';
import { defaultStorePath } from '@airlock/core';
import { cliScope, loadConfig } from './cli-config.js';

/** What the completion scripts ask for: the config's server ids, or the tools this user has used. */
export const COMPLETED_IDS = ['servers', 'tools'] as const;

/**
 * What an id offered to a shell may be: a server id, or `SERVER/TOOL` of the characters tool names use. Anything else
 * (a tool named with `$(…)` by a hostile server, kept in history) is never offered: a shell may evaluate what it is
 * given.
 */
const OFFERABLE = /^[A-Za-z0-9_.@-]+(\/[A-Za-z0-9_.@-]+)?$/;

/** The most calls read back to find the tools used: enough for anyone's recent tools, instant on a large history. */
const RECENT_CALLS = 500;

/**
 * `airlock __complete servers|tools [--config FILE] [--store FILE] [--workspace NAME]`, for the completion scripts:
 * the ids, one per line. Server ids come from the config, tool ids (`SERVER/TOOL`) from what this user called or
 * decided on in the history file; no server is started, so completing stays instant in any directory, at the cost
 * of offering only tools used before. It never writes an error (it would land in the middle of a prompt) and never
 * creates a history file.
 */
export async function completeIds(argv: readonly string[], stdout: NodeJS.WritableStream): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: { config: { type: 'string' }, store: { type: 'string' }, workspace: { type: 'string' } },
      allowPositionals: true,
      strict: false,
    });
    const config = loadConfig(typeof values.config === 'string' ? { config: values.config } : {});
    const ids =
      positionals[0] === 'servers'
        ? config.servers.map((server) => server.id)
        : positionals[0] === 'tools'
          ? await usedTools(
              typeof values.store === 'string' ? values.store : (process.env['AIRLOCK_STORE'] ?? config.storePath),
              typeof values.workspace === 'string' ? values.workspace : undefined,
            )
          : [];
    const offered = ids.filter((id) => OFFERABLE.test(id));
    if (offered.length > 0) stdout.write(`${offered.join('\n')}\n`);
  } catch {
    // Nothing to offer: a shell shows no candidates rather than an error.
  }
  return 0;
}

/** `SERVER/TOOL` of this user's recent calls and stored decisions in the workspace, each once, sorted. */
async function usedTools(path: string | undefined, workspace: string | undefined): Promise<string[]> {
  const file = path ?? defaultStorePath(process.env);
  if (file === ':memory:' || !existsSync(file)) return [];
  // A keystroke must not wait on another process's write lock, nor start a checkpoint thread.
  const store = new SqliteStore({ path: file, busyTimeoutMs: 250, checkpointOnThread: false });
  try {
    const scope = cliScope(workspace);
    const calls = await store.listInvocations(scope, { allConversations: true, limit: RECENT_CALLS });
    const decisions = await store.listDecisions({ userId: scope.userId, workspaceId: scope.workspaceId });
    const ids = new Set<string>();
    for (const call of calls) if (call.serverId !== null) ids.add(`${call.serverId}/${call.originalName}`);
    for (const decision of decisions) ids.add(`${decision.serverId}/${decision.tool}`);
    return [...ids].sort();
  } finally {
    await store.close();
  }
}

import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProtocolNegotiation, Scope, ServerConfig } from '@airlock/core';
import { HostError, parseServersConfig } from '@airlock/core';

/** The file `airlock` reads when no `--config` is given, in the current directory. */
export const DEFAULT_CONFIG_FILE = 'airlock.config.json';

/** The embedded default: the demo server, started from this installation with this Node. */
export function demoServerConfig(): ServerConfig[] {
  const bin = join(dirname(fileURLToPath(import.meta.resolve('@airlock/demo-server'))), 'bin.js');
  return parseServersConfig({ mcpServers: { demo: { command: process.execPath, args: [bin] } } }, 'embedded default');
}

/** Where the servers come from: the file given, else ./airlock.config.json, else the embedded demo server. */
export function loadServers(options: { config?: string; negotiation?: ProtocolNegotiation }): {
  servers: ServerConfig[];
  source: string;
} {
  const path = options.config ?? (existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined);
  let servers: ServerConfig[];
  let source: string;
  if (path === undefined) {
    servers = demoServerConfig();
    source = 'embedded default (the demo server)';
  } else {
    const file = resolve(path);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new HostError('config_invalid', `cannot read config file ${file}: ${(error as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new HostError('config_invalid', `${file} is not valid JSON: ${(error as Error).message}`);
    }
    servers = parseServersConfig(json, file);
    source = file;
  }
  if (options.negotiation !== undefined) {
    servers = servers.map((s) => ({ ...s, negotiation: options.negotiation }));
  }
  return { servers, source };
}

/** The SQLite file history goes to: `--store`, else $AIRLOCK_STORE, else the user's data directory. */
export function storePath(option: string | undefined): string {
  const path =
    option ??
    process.env['AIRLOCK_STORE'] ??
    join(process.env['XDG_DATA_HOME'] ?? join(homedir(), '.local', 'share'), 'airlock', 'airlock.db');
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  return path;
}

/** The CLI's tenant: the OS user, a workspace (default "default"), and the "cli" conversation. */
export function cliScope(workspace: string | undefined): Scope {
  return { userId: userInfo().username || 'local', workspaceId: workspace ?? 'default', conversationId: 'cli' };
}

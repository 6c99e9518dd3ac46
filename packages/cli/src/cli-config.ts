import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExpiryDays, PermissionRule, ProtocolNegotiation, Scope, ServerConfig } from '@airlock/core';
import { HostError, parseRulesText, parseServersConfig } from '@airlock/core';

/** The file `airlock` reads when no `--config` is given, in the current directory. */
export const DEFAULT_CONFIG_FILE = 'airlock.config.json';

/** The embedded default: the demo server, started from this installation with this Node. */
export function demoServerConfig(): ServerConfig[] {
  const bin = join(dirname(fileURLToPath(import.meta.resolve('@airlock/demo-server'))), 'bin.js');
  return parseServersConfig({ mcpServers: { demo: { command: process.execPath, args: [bin] } } }, 'embedded default');
}

/** What a config file holds for the host: servers, and permission rules and expiry. */
export interface LoadedConfig {
  readonly servers: ServerConfig[];
  readonly source: string;
  readonly rules: PermissionRule[];
  readonly expiryDays?: Partial<ExpiryDays>;
}

/**
 * Where the servers come from: the file given, else ./airlock.config.json, else the embedded demo server. Rules come
 * from the config's `permissions.rules` and from `--rules FILE`; every error names the file, line and field.
 */
export function loadConfig(options: {
  config?: string;
  rules?: string;
  negotiation?: ProtocolNegotiation;
}): LoadedConfig {
  const loaded = loadServers(options);
  const rules = [...loaded.rules];
  if (options.rules !== undefined) {
    const file = resolve(options.rules);
    rules.push(...parseRulesText(readText(file, 'rules file'), file));
  }
  return { ...loaded, rules };
}

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new HostError('config_invalid', `cannot read ${what} ${file}: ${(error as Error).message}`);
  }
}

function loadServers(options: { config?: string; negotiation?: ProtocolNegotiation }): {
  servers: ServerConfig[];
  source: string;
  rules: PermissionRule[];
  expiryDays?: Partial<ExpiryDays>;
} {
  const path = options.config ?? (existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined);
  let servers: ServerConfig[];
  let source: string;
  let rules: PermissionRule[] = [];
  let expiryDays: Partial<ExpiryDays> | undefined;
  if (path === undefined) {
    servers = demoServerConfig();
    source = 'embedded default (the demo server)';
  } else {
    const file = resolve(path);
    const text = readText(file, 'config file');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new HostError('config_invalid', `${file} is not valid JSON: ${(error as Error).message}`);
    }
    servers = parseServersConfig(json, file);
    rules = parseRulesText(text, file, ['permissions', 'rules']);
    expiryDays = readExpiry(json, file);
    source = file;
  }
  if (options.negotiation !== undefined) {
    servers = servers.map((s) => ({ ...s, negotiation: options.negotiation }));
  }
  return { servers, source, rules, ...(expiryDays === undefined ? {} : { expiryDays }) };
}

function readExpiry(json: unknown, file: string): Partial<ExpiryDays> | undefined {
  const permissions = (json as { permissions?: { expiryDays?: unknown } }).permissions;
  const raw = permissions?.expiryDays;
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new HostError('config_invalid', `${file}: permissions.expiryDays must be an object like {"low": 90}`);
  }
  const out: Partial<Record<'low' | 'medium' | 'high', number | null>> = {};
  for (const [tier, days] of Object.entries(raw)) {
    if (tier !== 'low' && tier !== 'medium' && tier !== 'high') {
      throw new HostError(
        'config_invalid',
        `${file}: permissions.expiryDays.${tier} is not a risk tier (low, medium, high)`,
      );
    }
    if (days !== null && (typeof days !== 'number' || !(days > 0))) {
      throw new HostError(
        'config_invalid',
        `${file}: permissions.expiryDays.${tier} must be a number of days > 0, or null for never`,
      );
    }
    out[tier] = days as number | null;
  }
  return out;
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

import { mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  AuditAnchorConfig,
  ConfigFile,
  ExpiryDays,
  HostLimits,
  PermissionRule,
  ProtocolNegotiation,
  RetentionConfig,
  Scope,
  ServerConfig,
} from '@airlock/core';
import {
  defaultStorePath,
  findConfigFile,
  HostError,
  parseRulesText,
  parseServersConfig,
  readConfigFile,
  readConfigText,
} from '@airlock/core';

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
  /** The config's `permissions.unannotatedRisk`: the risk of a trusted server's tools without annotations. */
  readonly unannotatedRisk?: ConfigFile['unannotatedRisk'];
  /** The config's retention windows and audit anchoring (`airlock retention`, `airlock audit anchor`). */
  readonly retention?: RetentionConfig;
  readonly audit?: AuditAnchorConfig;
  /** The config's `store.path`: the history file when neither --store nor $AIRLOCK_STORE names one. */
  readonly storePath?: string;
  /** The file as read, for a command that reads a section of its own (`airlock gateway`: `gateway`). */
  readonly file?: Pick<ConfigFile, 'json' | 'locate'>;
  /** The config's `limits` (timeouts and bounds), checked. */
  readonly limits?: HostLimits;
}

/**
 * Where the servers come from: the file given, else $AIRLOCK_CONFIG, else ./airlock.config.json, else the user's
 * config (XDG), else the embedded demo server. Rules come
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
    rules.push(...parseRulesText(readConfigText(file, 'rules file'), file));
  }
  return { ...loaded, rules };
}

function loadServers(options: { config?: string; negotiation?: ProtocolNegotiation }): {
  servers: ServerConfig[];
  source: string;
  rules: PermissionRule[];
  expiryDays?: Partial<ExpiryDays>;
  unannotatedRisk?: ConfigFile['unannotatedRisk'];
  retention?: RetentionConfig;
  audit?: AuditAnchorConfig;
  storePath?: string;
  file?: Pick<ConfigFile, 'json' | 'locate'>;
  limits?: HostLimits;
} {
  // --config, $AIRLOCK_CONFIG, ./airlock.config.json, then the user's ~/.config/airlock/config.json.
  const path = findConfigFile(options.config === undefined ? {} : { flag: options.config })?.path;
  const loaded =
    path === undefined
      ? { servers: demoServerConfig(), source: 'embedded default (the demo server)', rules: [] }
      : (({
          file,
          servers,
          rules,
          expiryDays,
          unannotatedRisk,
          settingsOnly,
          retention,
          audit,
          json,
          locate,
          limits,
        }) => ({
          // A file of settings only (rules, limits) runs on the embedded default, as the console does.
          servers: settingsOnly ? demoServerConfig() : servers,
          source: file,
          rules,
          ...(expiryDays === undefined ? {} : { expiryDays }),
          ...(unannotatedRisk === undefined ? {} : { unannotatedRisk }),
          ...(retention === undefined ? {} : { retention }),
          ...(audit === undefined ? {} : { audit }),
          limits,
          ...configuredStorePath(json, file),
          file: { json, locate },
        }))(warnIgnoredKeys(readConfigFile(path)));
  if (options.negotiation === undefined) return loaded;
  return { ...loaded, servers: loaded.servers.map((s) => ({ ...s, negotiation: options.negotiation })) };
}

/** Keys the config carries that Airlock ignores (another host's, e.g. VS Code's `envFile`): said on stderr. */
function warnIgnoredKeys<T extends { readonly warnings: readonly string[] }>(file: T): T {
  for (const warning of file.warnings) process.stderr.write(`airlock: warning: ${warning}\n`);
  return file;
}

/** `store.path` of a config file, as the console reads it: a file path or ":memory:". */
function configuredStorePath(json: Readonly<Record<string, unknown>>, file: string): { storePath?: string } {
  const store = json['store'];
  if (store === undefined || store === null) return {};
  if (typeof store !== 'object' || Array.isArray(store)) {
    throw new HostError('config_invalid', `${file}: store must be an object ({ "path": FILE })`);
  }
  const path = (store as Record<string, unknown>)['path'];
  if (path === undefined) return {};
  if (typeof path !== 'string' || path === '') {
    throw new HostError('config_invalid', `${file}: store.path must be a file path or ":memory:"`);
  }
  return { storePath: path };
}

/**
 * The SQLite file history goes to: `--store`, else $AIRLOCK_STORE, else the config's `store.path`, else the one the
 * console uses too (the same order as the console's).
 */
export function storePath(option: string | undefined, configured?: string): string {
  const path = option ?? process.env['AIRLOCK_STORE'] ?? configured ?? defaultStorePath(process.env);
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  return path;
}

/** The CLI's tenant: the user (default the OS user), a workspace (default "default"), and the "cli" conversation. */
export function cliScope(workspace: string | undefined, user?: string): Scope {
  return {
    userId: user ?? (userInfo().username || 'local'),
    workspaceId: workspace ?? 'default',
    conversationId: 'cli',
  };
}

import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConsoleMetricsConfig } from './console-metrics.js';
import type {
  AuditAnchorConfig,
  ExpiryDays,
  HostLimits,
  PermissionRule,
  RetentionConfig,
  RiskTier,
  ServerConfig,
} from '@airlock/core';
import {
  RETENTION_DEFAULTS,
  defaultStorePath,
  findConfigFile,
  parseServersConfig,
  readConfigFile,
} from '@airlock/core';
import { readGatewaySettings } from '@airlock/gateway';
import type { GatewaySettings } from '@airlock/gateway';
import { NAME } from './check-name.js';
import { fail, objectAt } from './config-fields.js';
import { readModels } from './model-config.js';
import type { ModelChoice, ModelConfig } from './model-config.js';

/** The file the console reads when none is given, in the current directory. */
export const DEFAULT_CONFIG_FILE = 'airlock.config.json';
/** The port the console listens on unless told otherwise. */
export const DEFAULT_PORT = 7410;

/** How people sign in: `local` asks only for a name (one person on their own machine); `token` checks a secret. */
export type AuthMode = 'local' | 'token';

/** One user of a shared console: the id, and the sha256 (hex) of the token they sign in with. */
export interface ConsoleUser {
  readonly id: string;
  readonly tokenSha256: string;
  /**
   * An administrator (`"admin": true`): sees servers' command lines, URLs and stderr, switches servers off and on,
   * and hides a tool from the model for the whole workspace. With local sign-in the one person is the administrator.
   */
  readonly admin?: boolean;
  /**
   * The workspaces the user may sign in to and switch to; `"*"` any. Default `["default"]`: a workspace is a boundary
   * (its servers' connections, decisions and history), entered only by its members.
   */
  readonly workspaces?: readonly string[];
}

/** Everything the console runs on, checked. */
export interface ConsoleConfig {
  readonly source: string;
  readonly servers: ServerConfig[];
  readonly rules: PermissionRule[];
  readonly expiryDays?: Partial<ExpiryDays>;
  /** `permissions.unannotatedRisk`: the risk of a trusted server's tools without annotations. */
  readonly unannotatedRisk?: RiskTier;
  readonly limits: HostLimits;
  /** The SQLite file, or ':memory:'; unused when `storeUrl` is set. */
  readonly storePath: string;
  /** A PostgreSQL database (postgres:// or postgresql://) shared by several console instances, instead of SQLite. */
  readonly storeUrl?: string;
  readonly host: string;
  readonly port: number;
  readonly auth: AuthMode;
  readonly users: readonly ConsoleUser[];
  /** Off loopback: the `host:port` names the page may be reached by (DNS rebinding); absent, any. */
  readonly allowedHosts?: readonly string[];
  /** The address users reach the console by, when it is not where it listens (a proxy): sign-in comes back there. */
  readonly publicUrl?: string;
  /** The chat's default model; absent, the console has no chat. */
  readonly model?: ModelConfig;
  /** Further models the page offers beside the default (`model.choices`). */
  readonly modelChoices?: readonly ModelChoice[];
  /**
   * What the console's host keeps and for how long: the config's `retention`, else `RETENTION_DEFAULTS` (whole
   * results 7 days, history 90, audit events 400). The console owns its data directory, so unlike a bare `createHost`
   * it sweeps by default; `"retention": null` (or a kind set to null) keeps forever.
   */
  readonly retention: RetentionConfig;
  /** The config's `audit` key: the anchor file and how often the chain head is written to it. */
  readonly audit?: AuditAnchorConfig;
  /** The port of the MCP Apps views' sandbox proxy (another origin than the page); absent: any free port. */
  readonly viewProxyPort?: number;
  /**
   * The origin users reach the views' sandbox proxy at, when it is not the console's host name with the proxy's port
   * (behind a TLS proxy: another host name); it must not be the console's own origin.
   */
  readonly viewProxyUrl?: string;
  /** The config's `gateway`: with `enabled`, the console also serves the gateway at `/mcp` to these bearer users. */
  readonly gateway?: GatewaySettings;
  /** `console.metrics`: the Prometheus endpoint `/metrics` (off by default). */
  readonly metrics?: ConsoleMetricsConfig;
}

/** The embedded default server: the demo server of this installation, run by this Node. */
export function demoServers(): ServerConfig[] {
  const bin = join(dirname(fileURLToPath(import.meta.resolve('@airlock/demo-server'))), 'bin.js');
  return parseServersConfig({ mcpServers: { demo: { command: process.execPath, args: [bin] } } }, 'embedded default');
}

/** Host names that only this machine can reach. */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '::1']);

/** Every key `limits` may hold (shared/DESIGN.md, Bounds; the host's timeouts and connection limits). */
const LIMIT_KEYS = new Set([
  'modelChars',
  'modelMedia',
  'screenChars',
  'screenMediaBytes',
  'maxResultBytes',
  'timeoutMs',
  'maxTotalMs',
  'taskMaxTotalMs',
  'connectTimeoutMs',
  'maxMessageBytes',
  'reconnectBaseDelayMs',
  'reconnectMaxDelayMs',
  'reconnectAttempts',
  'maxTenantConnections',
  'tenantIdleMs',
  'elicitationTimeoutMs',
  'commitIntervalMs',
  'tools',
]);

function readLimits(json: Readonly<Record<string, unknown>>, source: string): HostLimits {
  const limits = objectAt(json, 'limits', source);
  for (const [key, value] of Object.entries(limits)) {
    if (key === 'tools') {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        fail(source, 'limits.tools', 'must be an object');
      continue;
    }
    if (!LIMIT_KEYS.has(key)) {
      fail(source, `limits.${key}`, `is not a limit; known: ${[...LIMIT_KEYS].join(', ')}`);
    }
    if (key === 'modelMedia') {
      if (typeof value !== 'boolean') fail(source, 'limits.modelMedia', 'must be true or false');
      continue;
    }
    const least = key === 'reconnectAttempts' ? 0 : key === 'maxTenantConnections' ? 1 : Number.MIN_VALUE;
    if (typeof value !== 'number' || !(value >= least)) {
      fail(source, `limits.${key}`, least === 0 ? 'must be a number >= 0' : 'must be a number > 0');
    }
  }
  return limits;
}

function readConsole(
  json: Readonly<Record<string, unknown>>,
  source: string,
  hostFlag: string | undefined,
): {
  host: string;
  port: number;
  auth: AuthMode;
  users: ConsoleUser[];
  allowedHosts?: string[];
  publicUrl?: string;
  viewProxyPort?: number;
  viewProxyUrl?: string;
  metrics?: ConsoleMetricsConfig;
} {
  const section = objectAt(json, 'console', source);
  const port = section['port'] === undefined ? DEFAULT_PORT : section['port'];
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) {
    fail(source, 'console.port', 'must be a port number (0 picks a free one)');
  }
  // --host wins over the config's, and a refusal then names the flag, not a key the file may not even have.
  const hostWhere = hostFlag === undefined ? 'console.host' : '--host';
  const hostSource = hostFlag === undefined ? source : 'the command line';
  const host = hostFlag ?? section['host'] ?? '127.0.0.1';
  if (typeof host !== 'string' || host === '') fail(hostSource, hostWhere, 'must be a host name or address');
  const auth: unknown = section['auth'] ?? 'local';
  if (auth !== 'local' && auth !== 'token') fail(source, 'console.auth', 'must be "local" or "token"');
  const rawUsers = section['users'] ?? [];
  if (!Array.isArray(rawUsers)) fail(source, 'console.users', 'must be an array of {"id", "tokenSha256"}');
  const users = rawUsers.map((user: unknown, i): ConsoleUser => {
    const u = user as { id?: unknown; tokenSha256?: unknown; admin?: unknown; workspaces?: unknown } | null;
    if (typeof u?.id !== 'string' || !NAME.test(u.id)) {
      fail(source, `console.users[${i}].id`, 'must be 1-64 letters, digits, ".", "_", "@" or "-"');
    }
    if (typeof u.tokenSha256 !== 'string' || !/^[0-9a-f]{64}$/.test(u.tokenSha256)) {
      fail(source, `console.users[${i}].tokenSha256`, 'must be the sha256 of the token, 64 lowercase hex digits');
    }
    if (u.admin !== undefined && typeof u.admin !== 'boolean') {
      fail(source, `console.users[${i}].admin`, 'must be true or false');
    }
    const workspaces = u.workspaces;
    if (
      workspaces !== undefined &&
      (!Array.isArray(workspaces) || !workspaces.every((w) => typeof w === 'string' && (w === '*' || NAME.test(w))))
    ) {
      fail(source, `console.users[${i}].workspaces`, 'must be an array of workspace ids (or "*" for any)');
    }
    return {
      id: u.id,
      tokenSha256: u.tokenSha256,
      ...(u.admin === true ? { admin: true } : {}),
      ...(workspaces === undefined ? {} : { workspaces: workspaces as string[] }),
    };
  });
  if (auth === 'local' && !LOOPBACK_HOSTS.has(host)) {
    fail(
      hostSource,
      hostWhere,
      `is "${host}", which other machines can reach: local sign-in (anyone may name themselves) only listens on loopback (127.0.0.1, localhost, ::1); set console.auth to "token" with users to serve a network`,
    );
  }
  const allowedHosts = section['allowedHosts'];
  if (
    allowedHosts !== undefined &&
    (!Array.isArray(allowedHosts) || !allowedHosts.every((h) => typeof h === 'string' && h !== ''))
  ) {
    fail(source, 'console.allowedHosts', 'must be an array of "host:port" names the console is reached by');
  }
  if (auth === 'token' && users.length === 0)
    fail(source, 'console.users', 'must list at least one user when auth is "token"');
  const publicUrl = section['publicUrl'];
  if (publicUrl !== undefined && (typeof publicUrl !== 'string' || !/^https?:\/\/[^/]/.test(publicUrl))) {
    fail(source, 'console.publicUrl', 'must be an http or https URL, e.g. "https://airlock.example.com"');
  }
  const views = readViewProxy(section, source, port, publicUrl);
  const metrics = readMetrics(section, source);
  return {
    host,
    port,
    auth,
    users,
    ...(allowedHosts === undefined ? {} : { allowedHosts: allowedHosts as string[] }),
    ...(publicUrl === undefined ? {} : { publicUrl: publicUrl.replace(/\/+$/, '') }),
    ...views,
    ...(metrics === undefined ? {} : { metrics }),
  };
}

/** `console.metrics`: `{ "prometheus": true, "tokenSha256"?: "<hex>" }`. */
function readMetrics(section: Readonly<Record<string, unknown>>, source: string): ConsoleMetricsConfig | undefined {
  const raw = section['metrics'];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    fail(source, 'console.metrics', 'must be an object');
  const { prometheus, tokenSha256 } = raw as { prometheus?: unknown; tokenSha256?: unknown };
  if (typeof prometheus !== 'boolean') fail(source, 'console.metrics.prometheus', 'must be true or false');
  if (tokenSha256 !== undefined && (typeof tokenSha256 !== 'string' || !/^[0-9a-f]{64}$/.test(tokenSha256))) {
    fail(source, 'console.metrics.tokenSha256', 'must be the sha256 of the token, 64 lowercase hex digits');
  }
  return { prometheus, ...(tokenSha256 === undefined ? {} : { tokenSha256 }) };
}

/**
 * `console.viewProxyPort` and `console.viewProxyUrl`: where the MCP Apps views' sandbox proxy listens and, behind a
 * proxy, the origin users reach it at. Its origin must differ from the console's (a view never gets the page's).
 */
function readViewProxy(
  section: Readonly<Record<string, unknown>>,
  source: string,
  port: number,
  publicUrl: string | undefined,
): { viewProxyPort?: number; viewProxyUrl?: string } {
  const viewPort = section['viewProxyPort'];
  if (
    viewPort !== undefined &&
    (typeof viewPort !== 'number' || !Number.isInteger(viewPort) || viewPort < 0 || viewPort > 65535)
  ) {
    fail(source, 'console.viewProxyPort', 'must be a port number (0 picks a free one)');
  }
  if (viewPort !== undefined && viewPort !== 0 && viewPort === port) {
    fail(source, 'console.viewProxyPort', `is the console's own port ${port}: the views' sandbox needs another`);
  }
  const raw = section['viewProxyUrl'];
  if (raw === undefined) return viewPort === undefined ? {} : { viewProxyPort: viewPort };
  let url: URL | undefined;
  try {
    url = typeof raw === 'string' ? new URL(raw) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || `${url.origin}/` !== url.href) {
    fail(source, 'console.viewProxyUrl', 'must be an http or https origin, e.g. "https://views.airlock.example.com"');
  }
  if (publicUrl !== undefined) {
    const page = new URL(publicUrl);
    if (page.origin === url.origin) {
      fail(source, 'console.viewProxyUrl', "is the console's own origin (publicUrl): views need another origin");
    }
    if (page.protocol === 'https:' && url.protocol !== 'https:') {
      fail(source, 'console.viewProxyUrl', 'must be https when publicUrl is (a browser blocks an http frame there)');
    }
  }
  return { ...(viewPort === undefined ? {} : { viewProxyPort: viewPort }), viewProxyUrl: url.origin };
}

/** True for a PostgreSQL connection URL (postgres:// or postgresql://). */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** A URL as it may be shown: the password, if any, replaced by ***. */
export function redactUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@]*:)[^@]*@/i, '$1***@');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/**
 * Loads the console's config: `--config FILE`, else ./airlock.config.json, else the embedded defaults (the demo
 * server, a SQLite file under the user's data directory, local sign-in). Servers, rules and expiry are read as the
 * CLI reads them, and `retention` and `audit` as the core reads them (the default windows when `retention` is absent);
 * `limits`, `store` (`path`: a SQLite file; `url`: a PostgreSQL database, also from `--store` or AIRLOCK_DATABASE_URL),
 * `console` and `model` are the console's own keys. Every error names the file and
 * the field at fault.
 */
export function loadConsoleConfig(
  options: { config?: string; port?: number; host?: string; store?: string } = {},
  env: NodeJS.ProcessEnv = process.env,
): ConsoleConfig {
  // --config, $AIRLOCK_CONFIG, ./airlock.config.json, then the user's ~/.config/airlock/config.json.
  const path = findConfigFile({ ...(options.config === undefined ? {} : { flag: options.config }), env })?.path;
  const file = path === undefined ? undefined : readConfigFile(path);
  // Keys of another host's format (VS Code's `envFile`) are ignored, and said so on stderr.
  for (const warning of file?.warnings ?? []) process.stderr.write(`airlock console: warning: ${warning}\n`);
  const source = file?.file ?? 'embedded default';
  const json = file?.json ?? {};
  const store = objectAt(json, 'store', source);
  const configured = store['path'];
  if (configured !== undefined && (typeof configured !== 'string' || configured === '')) {
    fail(source, 'store.path', 'must be a file path or ":memory:"');
  }
  const configuredUrl = store['url'];
  if (configuredUrl !== undefined && (typeof configuredUrl !== 'string' || !isPostgresUrl(configuredUrl))) {
    fail(source, 'store.url', 'must be a PostgreSQL URL (postgres://user@host/database)');
  }
  if (configured !== undefined && configuredUrl !== undefined) {
    fail(source, 'store', 'has both path and url: give one (path: a SQLite file; url: a PostgreSQL database)');
  }
  // The first given wins: --store (a file or a URL), the environment, the config; else SQLite in the default file.
  const chosen =
    options.store ??
    nonEmpty(env['AIRLOCK_DATABASE_URL']) ??
    nonEmpty(env['AIRLOCK_STORE']) ??
    configuredUrl ??
    configured;
  const storeUrl = chosen !== undefined && isPostgresUrl(chosen) ? chosen : undefined;
  // The default is the CLI's file too: `airlock history` shows the console's calls.
  const storePath = storeUrl !== undefined ? '' : (chosen ?? defaultStorePath(env));
  if (storeUrl === undefined && storePath !== ':memory:') mkdirSync(dirname(resolve(storePath)), { recursive: true });
  const consoleSection = readConsole(json, source, options.host);
  const models = readModels(json, source, env);
  const gateway = file === undefined ? undefined : readGatewaySettings(file);
  if (gateway?.enabled === true && gateway.users.length === 0 && gateway.oauth === undefined) {
    fail(
      source,
      'gateway.users',
      'must name at least one user when gateway.enabled is true and gateway.oauth is not set (no one could call /mcp)',
    );
  }
  return {
    source,
    servers: file === undefined || file.settingsOnly ? demoServers() : file.servers,
    rules: file?.rules ?? [],
    ...(file?.expiryDays === undefined ? {} : { expiryDays: file.expiryDays }),
    ...(file?.unannotatedRisk === undefined ? {} : { unannotatedRisk: file.unannotatedRisk }),
    limits: readLimits(json, source),
    storePath,
    ...(storeUrl === undefined ? {} : { storeUrl }),
    ...consoleSection,
    port: options.port ?? consoleSection.port,
    ...models,
    retention: file?.retention ?? { ...RETENTION_DEFAULTS },
    ...(file?.audit === undefined ? {} : { audit: file.audit }),
    ...(gateway === undefined ? {} : { gateway }),
  };
}

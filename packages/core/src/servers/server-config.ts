import { HostError } from '../errors/host-error.js';
import { hashJson } from '../audit/canonical-json.js';

/** A server started as a child process and spoken to over stdio. */
export interface StdioServerConfig {
  readonly transport: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** A server reached over Streamable HTTP. */
export interface HttpServerConfig {
  readonly transport: 'http';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** How the host negotiates the protocol era: `legacy` speaks 2025-11-25; `auto` probes for 2026-07-28 first. */
export type ProtocolNegotiation = 'legacy' | 'auto';

/**
 * Who shares a connection to the server: everyone (`shared`), each user (`user`), or each workspace (`workspace`).
 * Default: `user` for an HTTP server with `oauth` (each user signs in as themselves), `shared` otherwise: one process
 * per stdio server, as desktop hosts run them (it acts with the rights of whoever runs the host), one session per HTTP
 * server whose credentials are the configuration's own (headers, client credentials), which cannot tell users apart.
 * An HTTP server with no credentials configured that asks for sign-in (a 401 with a Bearer challenge) becomes per
 * user from then on: whoever signs in, signs in for themselves.
 */
export type ServerIsolation = 'shared' | 'user' | 'workspace';

/** OAuth settings of an HTTP server, when it has some the user configured (discovery finds the rest). */
export interface ServerOAuthConfig {
  /** `authorization_code`: each user signs in (default). `client_credentials`: the host signs in as itself. */
  readonly grant: 'authorization_code' | 'client_credentials';
  /** A client registered in advance with the authorization server; without it, a metadata document or DCR. */
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly scopes?: readonly string[];
}

/** One configured server: its id (the key in `mcpServers`), how to reach it, and whether the user trusts it. */
export type ServerConfig = (StdioServerConfig | HttpServerConfig) & {
  readonly id: string;
  /** Trusted servers' annotations are believed; untrusted servers' are hints that can only raise risk. */
  readonly trusted: boolean;
  readonly negotiation?: ProtocolNegotiation;
  /** Disabled servers are listed but never started. */
  readonly disabled: boolean;
  /** Default by transport and grant: see `ServerIsolation`. */
  readonly isolation?: ServerIsolation;
  /** HTTP servers only. */
  readonly oauth?: ServerOAuthConfig;
};

/**
 * The isolation a server starts with: its own setting, else the default for its transport and grant; `auto` for an
 * HTTP server with no credentials of its own, which is shared until it asks for sign-in.
 */
export function isolationOf(config: ServerConfig): ServerIsolation | 'auto' {
  if (config.isolation !== undefined) return config.isolation;
  if (config.transport === 'stdio') return 'shared';
  if (config.oauth !== undefined) return config.oauth.grant === 'client_credentials' ? 'shared' : 'user';
  return Object.keys(config.headers).some((name) => name.toLowerCase() === 'authorization') ? 'shared' : 'auto';
}

const SERVER_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * Reads servers from the common `mcpServers` JSON that Claude Desktop, VS Code and Cursor users already have:
 * `{ "mcpServers": { "<id>": { "command", "args", "env", "cwd" } | { "url", "headers" } } }`. VS Code's `servers`
 * key and a bare map are accepted too. Extra keys we understand: `trusted`, `negotiation`, `disabled`, `isolation`,
 * `oauth`.
 *
 * Every problem is a `config_invalid` error naming the server and the field at fault.
 */
export function parseServersConfig(input: unknown, source = 'servers config'): ServerConfig[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new HostError('config_invalid', `${source}: expected a JSON object with an "mcpServers" key`);
  }
  const root = input as Record<string, unknown>;
  const map = root['mcpServers'] ?? root['servers'] ?? input;
  if (typeof map !== 'object' || map === null || Array.isArray(map)) {
    throw new HostError('config_invalid', `${source}: "mcpServers" must be an object of server entries`, {
      data: { field: 'mcpServers' },
    });
  }
  return Object.entries(map as Record<string, unknown>).map(([id, entry]) => parseServerEntry(id, entry, source));
}

function parseServerEntry(id: string, entry: unknown, source: string): ServerConfig {
  const fail = (field: string, problem: string): never => {
    throw new HostError('config_invalid', `${source}: server "${id}": ${field} ${problem}`, {
      data: { serverId: id, field },
    });
  };
  if (!SERVER_ID.test(id)) fail('id', 'must be 1-32 characters of letters, digits, "_" or "-"');
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return fail('entry', 'must be an object');
  const e = entry as Record<string, unknown>;
  const trusted = optionalBoolean(e['trusted'], 'trusted', fail) ?? false;
  const disabled = optionalBoolean(e['disabled'], 'disabled', fail) ?? false;
  const negotiation = e['negotiation'];
  if (negotiation !== undefined && negotiation !== 'legacy' && negotiation !== 'auto') {
    fail('negotiation', 'must be "legacy" or "auto"');
  }
  const isolation = e['isolation'];
  if (isolation !== undefined && isolation !== 'shared' && isolation !== 'user' && isolation !== 'workspace') {
    fail('isolation', 'must be "shared", "user" or "workspace"');
  }
  const common = {
    id,
    trusted,
    disabled,
    ...(negotiation === undefined ? {} : { negotiation: negotiation as ProtocolNegotiation }),
    ...(isolation === undefined ? {} : { isolation: isolation as ServerIsolation }),
  };
  if (e['url'] !== undefined) {
    if (e['command'] !== undefined) fail('url', 'and command cannot both be set');
    const url = e['url'];
    if (typeof url !== 'string') return fail('url', 'must be a string');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return fail('url', `is not a valid URL: ${url}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') fail('url', 'must use http or https');
    const oauth = e['oauth'] === undefined ? undefined : parseOAuth(e['oauth'], fail);
    if (oauth?.grant === 'authorization_code' && (isolation === 'shared' || isolation === 'workspace')) {
      fail('isolation', `"${isolation}" cannot be used with oauth: each user signs in as themselves`);
    }
    return {
      ...common,
      transport: 'http',
      url,
      headers: stringMap(e['headers'], 'headers', fail),
      ...(oauth === undefined ? {} : { oauth }),
    };
  }
  if (e['oauth'] !== undefined) fail('oauth', 'applies to HTTP servers (with "url") only');
  const command = e['command'];
  if (typeof command !== 'string' || command.trim() === '') return fail('command', 'must be a non-empty string');
  const args = e['args'] ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) fail('args', 'must be an array of strings');
  const cwd = e['cwd'];
  if (cwd !== undefined && typeof cwd !== 'string') fail('cwd', 'must be a string');
  return {
    ...common,
    transport: 'stdio',
    command,
    args: args as string[],
    env: stringMap(e['env'], 'env', fail),
    ...(cwd === undefined ? {} : { cwd: cwd as string }),
  };
}

function parseOAuth(value: unknown, fail: (field: string, problem: string) => never): ServerOAuthConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('oauth', 'must be an object');
  const o = value as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!['grant', 'clientId', 'clientSecret', 'scopes'].includes(key)) fail(`oauth.${key}`, 'is not a known setting');
  }
  const grant = o['grant'] ?? 'authorization_code';
  if (grant !== 'authorization_code' && grant !== 'client_credentials') {
    fail('oauth.grant', 'must be "authorization_code" or "client_credentials"');
  }
  for (const key of ['clientId', 'clientSecret'] as const) {
    const v = o[key];
    if (v !== undefined && (typeof v !== 'string' || v === '')) fail(`oauth.${key}`, 'must be a non-empty string');
  }
  const scopes = o['scopes'];
  if (scopes !== undefined && (!Array.isArray(scopes) || !scopes.every((x) => typeof x === 'string' && x !== ''))) {
    fail('oauth.scopes', 'must be an array of non-empty strings');
  }
  if (grant === 'client_credentials' && (o['clientId'] === undefined || o['clientSecret'] === undefined)) {
    fail('oauth', 'client_credentials needs clientId and clientSecret');
  }
  return {
    grant,
    ...(o['clientId'] === undefined ? {} : { clientId: o['clientId'] as string }),
    ...(o['clientSecret'] === undefined ? {} : { clientSecret: o['clientSecret'] as string }),
    ...(scopes === undefined ? {} : { scopes: scopes as string[] }),
  };
}

function optionalBoolean(
  value: unknown,
  field: string,
  fail: (field: string, problem: string) => never,
): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') fail(field, 'must be true or false');
  return value;
}

function stringMap(
  value: unknown,
  field: string,
  fail: (field: string, problem: string) => never,
): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(field, 'must be an object');
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string') fail(`${field}.${key}`, 'must be a string');
  }
  return { ...(value as Record<string, string>) };
}

/**
 * The identity a permission is bound to: a hash of everything that makes a server what it is. For a stdio server its
 * command, arguments, working directory and environment; for an HTTP server its URL and headers (names read
 * case-insensitively, with their values); for both, whether the user trusts it. Two configured servers that differ in
 * any of these never share a stored decision, and a server whose configuration changes is asked about again (a new
 * token in `env` or `headers` too: the same command with other credentials can reach another account). Secrets are
 * hashed into the identity, never kept in clear.
 */
export function serverIdentity(config: (StdioServerConfig | HttpServerConfig) & { readonly trusted: boolean }): string {
  const what =
    config.transport === 'http'
      ? {
          transport: 'http',
          url: config.url,
          headers: Object.fromEntries(Object.entries(config.headers).map(([k, v]) => [k.toLowerCase(), v])),
          trusted: config.trusted,
        }
      : {
          transport: 'stdio',
          command: config.command,
          args: config.args,
          cwd: config.cwd ?? null,
          env: config.env,
          trusted: config.trusted,
        };
  return hashJson(what);
}

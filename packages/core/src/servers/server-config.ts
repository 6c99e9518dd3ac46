import { homedir } from 'node:os';
import { sep } from 'node:path';
import { HostError } from '../errors/host-error.js';
import { hashJson } from '../audit/canonical-json.js';
import type { ConfigInput } from '../config/config-inputs.js';
import { parseConfigInputs } from '../config/config-inputs.js';
import type { ConfigLocate } from '../config/config-locator.js';
import { sourceOnly } from '../config/config-locator.js';
import type { ConfigVariables } from '../config/config-variables.js';
import { readEnvFile } from '../config/env-file.js';
import type { HttpTransportKind } from '../config/server-entry-checks.js';
import { checkCommandSpaces, entryTransport } from '../config/server-entry-checks.js';
import type { EntryContext } from '../config/server-entry-context.js';
import { entryContext } from '../config/server-entry-context.js';
import { serverSlug } from '../config/server-slug.js';
import type { ServerOAuthConfig } from './server-oauth-config.js';
import { parseServerOAuth } from './server-oauth-config.js';

/** A server started as a child process and spoken to over stdio. */
export interface StdioServerConfig {
  readonly transport: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** A server reached over HTTP. */
export interface HttpServerConfig {
  readonly transport: 'http';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * `streamable` (`type: "http"`) or the legacy HTTP+SSE of 2024-11-05 (`type: "sse"`). Absent: Streamable HTTP,
   * falling back to SSE when the initialize POST gets a 4xx, as the spec's backwards-compatibility section says.
   */
  readonly httpTransport?: HttpTransportKind;
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

/** One configured server: its id (the key in `mcpServers`), how to reach it, and whether the user trusts it. */
export type ServerConfig = (StdioServerConfig | HttpServerConfig) & {
  /** Its slug: tool names (`id__tool`), rules, history. The config's key when that is a plain id already. */
  readonly id: string;
  /** The config's key, kept for display, when it is not the id (`Brave Search` for `brave_search`). */
  readonly name?: string;
  /** The inputs (`${input:ID}`) its strings still hold, filled in when it starts; `source` declares them. */
  readonly inputs?: { readonly source: string; readonly declared: readonly ConfigInput[] };
  /** Trusted servers' annotations are believed; untrusted servers' are hints that can only raise risk. */
  readonly trusted: boolean;
  readonly negotiation?: ProtocolNegotiation;
  /** Disabled servers are listed but never started. */
  readonly disabled: boolean;
  /** Default by transport and grant: see `ServerIsolation`. */
  readonly isolation?: ServerIsolation;
  /** HTTP servers only. */
  readonly oauth?: ServerOAuthConfig;
  /** The bound on its tool definitions (`definition-bounds.ts`), for a trusted server with longer ones. */
  readonly maxDefinitionChars?: number;
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

/** How `parseServersConfig` places its errors and what the config's variables expand to. */
export interface ServersConfigOptions {
  /** Where each field is (`file:line:col`); a config given as an object is named by its source alone. */
  readonly locate?: ConfigLocate;
  /** Default: this process's environment and home, the current folder as `${workspaceFolder}`. */
  readonly variables?: ConfigVariables;
}

/** The variables of a config read outside any file: this process's environment, home and folder. */
export function processVariables(workspaceFolder = process.cwd()): ConfigVariables {
  return { env: process.env, userHome: homedir(), workspaceFolder, pathSeparator: sep };
}

/**
 * Reads servers from the common `mcpServers` JSON that Claude Desktop, VS Code and Cursor users already have:
 * `{ "mcpServers": { "<name>": { "command", "args", "env", "cwd" } | { "url", "headers" } } }`. VS Code's `servers`
 * key and a bare map are accepted too, with VS Code's `inputs`, `envFile` and `type`. Extra keys we understand:
 * `trusted`, `negotiation`, `disabled`, `isolation`, `oauth`. Variables (`config-variables.ts`) are expanded in
 * command, args, env, cwd, url and headers; `${input:ID}` is filled in when the server starts.
 *
 * Any name is accepted; each server's id is its slug (`server-slug.ts`), and two names with one slug are refused.
 * Every problem is a `config_invalid` error naming the place, the server and the field at fault.
 */
export function parseServersConfig(
  input: unknown,
  source = 'servers config',
  options: ServersConfigOptions = {},
): ServerConfig[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new HostError('config_invalid', `${source}: expected a JSON object with an "mcpServers" key`);
  }
  const locate = options.locate ?? sourceOnly(source);
  const root = input as Record<string, unknown>;
  const key = root['mcpServers'] !== undefined ? 'mcpServers' : root['servers'] !== undefined ? 'servers' : undefined;
  const map = key === undefined ? input : root[key];
  if (typeof map !== 'object' || map === null || Array.isArray(map)) {
    throw new HostError(
      'config_invalid',
      `${locate([key ?? 'mcpServers'])}: "${key}" must be an object of server entries`,
      {
        data: { field: key },
      },
    );
  }
  const declared = parseConfigInputs(key === undefined ? undefined : root['inputs'], (path, problem) => {
    const field = path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
    throw new HostError('config_invalid', `${locate(path)}: ${field} ${problem}`, { data: { field } });
  });
  const variables = options.variables ?? processVariables();
  const byId = new Map<string, string>();
  return Object.entries(map as Record<string, unknown>).map(([name, entry]) => {
    const ctx = entryContext({
      name,
      prefix: key === undefined ? [] : [key],
      locate,
      variables,
      declaredInputs: new Set(declared.map((d) => d.id)),
    });
    const id = serverSlug(name);
    const other = byId.get(id);
    if (other !== undefined) {
      const at = (n: string) => locate(key === undefined ? [n] : [key, n]);
      throw new HostError(
        'config_invalid',
        `${at(name)}: servers "${other}" (${at(other)}) and "${name}" both get the id "${id}": rename one`,
        { data: { serverId: id, names: [other, name] } },
      );
    }
    byId.set(id, name);
    const config = parseServerEntry(id, entry, ctx, variables.workspaceFolder);
    const inputs = declared.filter((d) => ctx.inputs.has(d.id));
    return {
      ...config,
      ...(name === id ? {} : { name }),
      ...(inputs.length === 0 ? {} : { inputs: { source, declared: inputs } }),
    };
  });
}

function parseServerEntry(id: string, entry: unknown, ctx: EntryContext, folder: string): ServerConfig {
  const { fail, text } = ctx;
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    return fail('entry', 'must be an object', []);
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
  const maxDefinitionChars = e['maxDefinitionChars'];
  if (
    maxDefinitionChars !== undefined &&
    (typeof maxDefinitionChars !== 'number' || !Number.isInteger(maxDefinitionChars) || maxDefinitionChars < 200)
  ) {
    fail('maxDefinitionChars', 'must be a whole number of characters, 200 or more');
  }
  const common = {
    id,
    trusted,
    disabled,
    ...(negotiation === undefined ? {} : { negotiation: negotiation as ProtocolNegotiation }),
    ...(isolation === undefined ? {} : { isolation: isolation as ServerIsolation }),
    ...(maxDefinitionChars === undefined ? {} : { maxDefinitionChars: maxDefinitionChars as number }),
  };
  const wanted = entryTransport(e, ctx);
  if (wanted.transport === 'http') {
    if (e['envFile'] !== undefined) fail('envFile', 'applies to stdio servers (with "command") only');
    const raw = e['url'];
    if (typeof raw !== 'string') return fail('url', 'must be a string');
    const url = text(raw, ['url']);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return fail('url', `is not a valid URL: ${url}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') fail('url', 'must use http or https');
    const oauth = e['oauth'] === undefined ? undefined : parseServerOAuth(e['oauth'], ctx, folder);
    if (oauth?.grant === 'authorization_code' && (isolation === 'shared' || isolation === 'workspace')) {
      fail('isolation', `"${isolation}" cannot be used with oauth: each user signs in as themselves`);
    }
    return {
      ...common,
      transport: 'http',
      url,
      headers: stringMap(e['headers'], 'headers', fail, text),
      ...(wanted.kind === undefined ? {} : { httpTransport: wanted.kind }),
      ...(oauth === undefined ? {} : { oauth }),
    };
  }
  if (e['oauth'] !== undefined) fail('oauth', 'applies to HTTP servers (with "url") only');
  const command = e['command'];
  if (typeof command !== 'string' || command.trim() === '') return fail('command', 'must be a non-empty string');
  const args = e['args'] ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) fail('args', 'must be an array of strings');
  checkCommandSpaces(command, args as string[], ctx);
  const cwd = e['cwd'];
  if (cwd !== undefined && typeof cwd !== 'string') fail('cwd', 'must be a string');
  const envFile = e['envFile'];
  if (envFile !== undefined && typeof envFile !== 'string') fail('envFile', 'must be a string');
  const fromFile =
    envFile === undefined
      ? {}
      : readEnvFile(text(envFile as string, ['envFile']), folder, (problem) => fail('envFile', problem));
  return {
    ...common,
    transport: 'stdio',
    command: text(command, ['command']),
    args: (args as string[]).map((a, i) => text(a, ['args', i])),
    env: { ...fromFile, ...stringMap(e['env'], 'env', fail, text) },
    ...(cwd === undefined ? {} : { cwd: text(cwd as string, ['cwd']) }),
  };
}

function optionalBoolean(value: unknown, field: string, fail: EntryContext['fail']): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') fail(field, 'must be true or false');
  return value;
}

function stringMap(
  value: unknown,
  field: string,
  fail: EntryContext['fail'],
  text: EntryContext['text'],
): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(field, 'must be an object');
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string') fail(`${field}.${key}`, 'must be a string', [field, key]);
  }
  return Object.fromEntries(Object.entries(value as Record<string, string>).map(([k, v]) => [k, text(v, [field, k])]));
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

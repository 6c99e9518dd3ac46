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

/** One configured server: its id (the key in `mcpServers`), how to reach it, and whether the user trusts it. */
export type ServerConfig = (StdioServerConfig | HttpServerConfig) & {
  readonly id: string;
  /** Trusted servers' annotations are believed; untrusted servers' are hints that can only raise risk. */
  readonly trusted: boolean;
  readonly negotiation?: ProtocolNegotiation;
  /** Disabled servers are listed but never started. */
  readonly disabled: boolean;
};

const SERVER_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * Reads servers from the common `mcpServers` JSON that Claude Desktop, VS Code and Cursor users already have:
 * `{ "mcpServers": { "<id>": { "command", "args", "env", "cwd" } | { "url", "headers" } } }`. VS Code's `servers`
 * key and a bare map are accepted too. Extra keys we understand: `trusted`, `negotiation`, `disabled`.
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
  const common = {
    id,
    trusted,
    disabled,
    ...(negotiation === undefined ? {} : { negotiation: negotiation as ProtocolNegotiation }),
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
    return { ...common, transport: 'http', url, headers: stringMap(e['headers'], 'headers', fail) };
  }
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

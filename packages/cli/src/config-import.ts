import { isAbsolute, resolve } from 'node:path';
import { HostError } from '@airlock/core';
import type { ImportHost } from './host-config-paths.js';

/** An Airlock config made from another host's file, with what was left behind and what deserves a second look. */
export interface ImportedConfig {
  /** The config to write: `mcpServers`, and `inputs` when the source declares some. */
  readonly json: { mcpServers: Record<string, unknown>; inputs?: unknown[] };
  /** The server names carried, in the source's order. */
  readonly servers: readonly string[];
  /** What could not be carried: keys Airlock does not read, inputs of kinds it does not ask for. */
  readonly notCarried: readonly string[];
  /** What was carried under another key (Windsurf's `serverUrl` as `url`). */
  readonly renamed: readonly string[];
  /** Secrets written in clear, and variables unset in this environment. */
  readonly warnings: readonly string[];
}

/** Where the source is and where the config goes (a relative `envFile` is read from the new file's folder). */
export interface ImportPlaces {
  readonly source: string;
  readonly sourceDir: string;
  readonly outDir: string;
  /** The keys of a server entry Airlock reads (from its JSON Schema). */
  readonly serverKeys: readonly string[];
  /** The environment `${env:NAME}` will be read from, to say which names are unset here. */
  readonly env: NodeJS.ProcessEnv;
}

const INPUT_KEYS = ['id', 'type', 'description', 'password', 'options', 'default'];
const INPUT_TYPES = ['promptString', 'pickString'];
/** Names and values that are credentials: an `env` or `headers` entry like these, written in clear, is warned about. */
const SECRET_NAME = /token|secret|passw(or)?d|api[_-]?key|access[_-]?key|private[_-]?key|credential|auth/i;
const SECRET_VALUE = /^(Bearer|Basic|Token)\s+\S|^(ghp_|gho_|github_pat_|glpat-|sk-|xox[abp]-|AKIA)/;
const SECRET_ARG = /^--?[\w-]*(token|secret|password|api[_-]?key)[\w-]*=(.+)$/i;
const VARIABLE = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}/g;
const BUILT_IN = new Set(['userHome', 'workspaceFolder', 'pathSeparator']);

/**
 * Turns the JSON of a Claude Desktop, VS Code or Cursor MCP config into an Airlock config: the servers (VS Code's
 * `servers` key read as `mcpServers`) with the keys Airlock reads, VS Code's `inputs`, variables and `envFile` as
 * written. Windsurf's `serverUrl` is carried as `url`; every other key is left out and named, per server.
 */
export function importHostConfig(host: ImportHost, value: unknown, places: ImportPlaces): ImportedConfig {
  const { source } = places;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HostError('config_invalid', `${source} must hold a JSON object`);
  }
  const root = value as Record<string, unknown>;
  const preferred = host === 'vscode' ? 'servers' : 'mcpServers';
  const other = host === 'vscode' ? 'mcpServers' : 'servers';
  const key = root[preferred] !== undefined ? preferred : root[other] !== undefined ? other : undefined;
  const map = key === undefined ? undefined : root[key];
  if (typeof map !== 'object' || map === null || Array.isArray(map)) {
    throw new HostError(
      'config_invalid',
      `${source}: no "${preferred}" object of servers${key === undefined ? '' : ` ("${key}" is not an object)`}: ` +
        'nothing to import',
    );
  }
  const notCarried: string[] = [];
  const renamed: string[] = [];
  const warnings: string[] = [];
  const left = Object.keys(root).filter((k) => k !== key && k !== 'inputs' && k !== '$schema');
  if (left.length > 0) notCarried.push(`top level: ${left.join(', ')} (not server settings Airlock reads)`);
  const mcpServers: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(map as Record<string, unknown>)) {
    mcpServers[name] = carryServer(name, entry, places, { notCarried, renamed, warnings });
  }
  const inputs = carryInputs(root['inputs'], notCarried);
  return {
    json: { mcpServers, ...(inputs === undefined ? {} : { inputs }) },
    servers: Object.keys(mcpServers),
    notCarried,
    renamed,
    warnings: [...warnings, ...unsetVariables(mcpServers, places.env)],
  };
}

function carryServer(
  name: string,
  entry: unknown,
  places: ImportPlaces,
  said: { notCarried: string[]; renamed: string[]; warnings: string[] },
): unknown {
  // Not an object: carried as it is, so the check before writing names it with its place.
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return entry;
  const e = entry as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [k, v] of Object.entries(e)) {
    if (places.serverKeys.includes(k)) out[k] = v;
    else if (k === 'serverUrl' && e['url'] === undefined && typeof v === 'string') {
      out['url'] = v;
      said.renamed.push(`server "${name}": serverUrl carried as url`);
    } else dropped.push(k);
  }
  if (dropped.length > 0) {
    said.notCarried.push(`server "${name}": ${dropped.join(', ')} (not keys Airlock reads; left out)`);
  }
  const envFile = out['envFile'];
  if (typeof envFile === 'string' && !envFile.includes('${') && !isAbsolute(envFile)) {
    if (resolve(places.sourceDir) !== resolve(places.outDir)) {
      said.warnings.push(
        `server "${name}": envFile ${envFile} is read relative to the new file's folder, ${places.outDir}`,
      );
    }
  }
  if (JSON.stringify(out).includes('${workspaceFolder}')) {
    said.warnings.push(`server "${name}": \${workspaceFolder} is read as ${places.outDir}, the new file's folder`);
  }
  said.warnings.push(...clearSecrets(name, out));
  return out;
}

/** `env` and `headers` values (and `--token=…` arguments) that look like credentials and hold no variable. */
function clearSecrets(name: string, entry: Record<string, unknown>): string[] {
  const found: string[] = [];
  const hint = (field: string, instead: string) =>
    `server "${name}": ${field} is written in clear in the file; consider ${instead} (asked once, kept sealed) ` +
    'or an environment variable, e.g. "${env:NAME}"';
  for (const section of ['env', 'headers'] as const) {
    const map = entry[section];
    if (typeof map !== 'object' || map === null || Array.isArray(map)) continue;
    for (const [k, v] of Object.entries(map as Record<string, unknown>)) {
      if (typeof v !== 'string' || v === '' || v.includes('${')) continue;
      if (!SECRET_NAME.test(k) && !SECRET_VALUE.test(v)) continue;
      const scheme = /^(Bearer|Basic|Token)\s+/.exec(v)?.[0] ?? '';
      found.push(hint(`${section}.${k}`, `"${scheme}\${input:${inputId(name, k)}}"`));
    }
  }
  const args = entry['args'];
  for (const [i, arg] of (Array.isArray(args) ? (args as unknown[]) : []).entries()) {
    const match = typeof arg === 'string' && !arg.includes('${') ? SECRET_ARG.exec(arg) : null;
    if (typeof arg === 'string' && match !== null) {
      const flag = arg.slice(0, arg.indexOf('=') + 1);
      found.push(hint(`args[${i}]`, `"${flag}\${input:${inputId(name, match[1]!)}}"`));
    }
  }
  return found;
}

function inputId(server: string, key: string): string {
  return `${server}-${key}`
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** `${env:NAME}` and `${NAME}` without a default whose variable this environment does not set. */
function unsetVariables(servers: Record<string, unknown>, env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  for (const [name, entry] of Object.entries(servers)) {
    const names = new Set<string>();
    for (const match of JSON.stringify(entry).matchAll(VARIABLE)) {
      const variable = match[1]!;
      if (match[2] === undefined && !BUILT_IN.has(variable) && env[variable] === undefined) names.add(variable);
    }
    if (names.size > 0) {
      out.push(`server "${name}" reads ${[...names].join(', ')}, not set here: set it before the server starts`);
    }
  }
  return out;
}

/** VS Code's `inputs` of the kinds Airlock asks for (promptString, pickString), with the keys it reads. */
function carryInputs(value: unknown, notCarried: string[]): unknown[] | undefined {
  if (value === undefined) return undefined;
  // Not an array: carried as it is, so the check before writing says what is wrong with it.
  if (!Array.isArray(value)) return value as unknown[];
  return value.flatMap((input: unknown, i) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return [input];
    const o = input as Record<string, unknown>;
    const label = typeof o['id'] === 'string' ? `input "${o['id']}"` : `inputs[${i}]`;
    if (typeof o['type'] === 'string' && !INPUT_TYPES.includes(o['type'])) {
      notCarried.push(`${label}: type ${o['type']} (Airlock asks for promptString and pickString only); left out`);
      return [];
    }
    const dropped = Object.keys(o).filter((k) => !INPUT_KEYS.includes(k));
    if (dropped.length > 0) notCarried.push(`${label}: ${dropped.join(', ')} (not keys Airlock reads; left out)`);
    return [Object.fromEntries(Object.entries(o).filter(([k]) => INPUT_KEYS.includes(k)))];
  });
}

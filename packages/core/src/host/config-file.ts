import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import jsonc from 'jsonc-parser';
import type { Node as JsonNode } from 'jsonc-parser';
import { PERMISSIONS_KEYS, SERVER_KEYS, TOP_LEVEL_KEYS } from '../config/config-definition.js';
import { locateInTree } from '../config/config-locator.js';
import type { ConfigLocate } from '../config/config-locator.js';
import type { ConfigVariables } from '../config/config-variables.js';
import { lineColumn, parseJsoncTree } from '../config/json-position.js';
import { checkKeys } from '../config/unknown-keys.js';
import { nearestKey } from '../config/nearest-key.js';
import { HostError } from '../errors/host-error.js';
import type { ExpiryDays } from '../permissions/permission-config.js';
import type { RiskTier } from '../store/decision-record.js';
import { readRetentionSettings } from '../retention/retention-settings.js';
import type { RetentionSettings } from '../retention/retention-settings.js';
import type { PermissionRule } from '../permissions/permission-rules.js';
import { parseRulesText } from '../permissions/permission-rules.js';
import type { ServerConfig } from '../servers/server-config.js';
import { parseServersConfig, processVariables } from '../servers/server-config.js';
import type { HostLimits } from './host-config.js';
import { readLimits } from './limits-settings.js';

/** What an `airlock.config.json` holds for a host, checked; `json` keeps the whole file for a surface's own keys. */
export interface ConfigFile {
  /** The absolute path read. */
  readonly file: string;
  /** Empty when the file holds settings only. */
  readonly servers: ServerConfig[];
  /** True when the file lists no servers at all (no `mcpServers`, only host settings): a surface picks its default. */
  readonly settingsOnly: boolean;
  readonly rules: PermissionRule[];
  readonly expiryDays?: Partial<ExpiryDays>;
  /** `permissions.unannotatedRisk`, checked: the risk of a trusted server's tools without annotations. */
  readonly unannotatedRisk?: RiskTier;
  /** `retention` and `audit` (anchoring), checked. */
  readonly retention?: RetentionSettings['retention'];
  readonly audit?: RetentionSettings['audit'];
  /** `limits`, checked (`readLimits`): every surface runs its calls under the file's timeouts and bounds. */
  readonly limits: HostLimits;
  readonly json: Readonly<Record<string, unknown>>;
  /** Where a field of the file is (`file:line:col`), for a surface's errors about its own keys. */
  readonly locate: ConfigLocate;
  /** Keys Airlock does not know and ignored (e.g. VS Code's `envFile`), each with its line and column. */
  readonly warnings: readonly string[];
}

/** How a config file is read: what its variables expand to (default: this process's, the file's folder). */
export interface ReadConfigOptions {
  readonly variables?: ConfigVariables;
}

/** Top-level keys of a config file that are settings, not servers. */
const HOST_KEYS = new Set(['permissions', 'limits', 'store', 'console', 'gateway', 'model', 'retention', 'audit']);

/** Reads a file for the host, naming the file (and what it was meant to be) when it cannot. */
export function readConfigText(file: string, what: string): string {
  try {
    // A byte order mark (Windows editors write one) is not part of the JSON.
    return readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    throw new HostError('config_invalid', `cannot read ${what} ${file}: ${(error as Error).message}`);
  }
}

/**
 * Reads an `airlock.config.json`: servers in the `mcpServers` format, `permissions.rules`,
 * `permissions.expiryDays` and `permissions.unannotatedRisk`. Comments and trailing commas are allowed (as in VS Code's `mcp.json`). Every error names
 * the file and the field; syntax errors, misspelt keys (with the key meant) and rules also the line and column.
 */
export function readConfigFile(path: string, options: ReadConfigOptions = {}): ConfigFile {
  const file = resolve(path);
  const text = readConfigText(file, 'config file');
  const tree = parseJsoncTree(text, file);
  const json: unknown = tree === undefined ? undefined : jsonc.getNodeValue(tree);
  if (tree === undefined || typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new HostError('config_invalid', `${file} must hold a JSON object`);
  }
  refuseSecretKeys(tree, text, file);
  const warnings = checkConfigKeys(tree, text, file);
  const expiryDays = readExpiry(json, file);
  const locate = locateInTree(tree, text, file);
  const unannotatedRisk = readUnannotatedRisk(json, locate);
  // A file of host settings only (no server list at all) configures no servers; a bare map of servers still does.
  const settingsOnly =
    !('mcpServers' in json) && !('servers' in json) && Object.keys(json).every((key) => HOST_KEYS.has(key));
  return {
    file,
    servers: settingsOnly
      ? []
      : parseServersConfig(json, file, {
          locate: locateInTree(tree, text, file),
          variables: options.variables ?? processVariables(dirname(file)),
        }),
    settingsOnly,
    rules: parseRulesText(text, file, ['permissions', 'rules']),
    ...(expiryDays === undefined ? {} : { expiryDays }),
    ...(unannotatedRisk === undefined ? {} : { unannotatedRisk }),
    ...readRetentionSettings(json as Record<string, unknown>, file),
    limits: readLimits(json as Record<string, unknown>, file),
    json: json as Record<string, unknown>,
    locate,
    warnings,
  };
}

/**
 * A model's API key written in the file is refused with one message saying where it goes instead, rather than being
 * warned about as an unknown key (and then refused by the console): a secret does not belong in a config file.
 */
function refuseSecretKeys(tree: JsonNode, text: string, file: string): void {
  const key = jsonc.findNodeAtLocation(tree, ['model', 'apiKey'])?.parent?.children?.[0];
  if (key === undefined) return;
  const { line, column } = lineColumn(text, key.offset);
  throw new HostError(
    'config_invalid',
    `${file}:${line}:${column}: model.apiKey is not read from the file: put the key in an environment variable and ` +
      'name it in model.apiKeyEnv (default AIRLOCK_MODEL_API_KEY)',
    { data: { field: 'model.apiKey' } },
  );
}

/**
 * Known keys at the top, in each server entry and in `permissions`, from the one definition the JSON Schema is
 * generated from. A file that is a bare map of servers (no `mcpServers`) has server ids at the top: only a near miss
 * of `mcpServers` is flagged there.
 */
function checkConfigKeys(tree: JsonNode, text: string, file: string): string[] {
  const warnings: string[] = [];
  const serversKey = jsonc.findNodeAtLocation(tree, ['mcpServers']) !== undefined ? 'mcpServers' : 'servers';
  const servers = jsonc.findNodeAtLocation(tree, [serversKey]);
  const topKeys = (tree.children ?? []).map((p) => p.children?.[0]?.value as string);
  const bareMap = servers === undefined && !topKeys.every((key) => HOST_KEYS.has(key) || key === '$schema');
  if (bareMap) {
    // Server ids at the top: only a near miss of `mcpServers` (`mcpServer`) is a typo.
    const ids = topKeys.filter((key) => nearestKey(key, ['mcpServers']) === undefined);
    checkKeys(tree, Object.fromEntries(['mcpServers', ...ids].map((key) => [key, true])), '', text, file, []);
  } else {
    checkKeys(tree, TOP_LEVEL_KEYS, '', text, file, warnings);
  }
  const entries = bareMap ? tree : servers;
  for (const property of entries?.type === 'object' ? (entries.children ?? []) : []) {
    const id = property.children?.[0]?.value as string;
    if (bareMap && Object.hasOwn(TOP_LEVEL_KEYS, id)) continue;
    const path = bareMap ? id : `${serversKey}.${id}`;
    checkKeys(property.children?.[1], SERVER_KEYS, path, text, file, warnings);
    const oauth = (SERVER_KEYS['oauth'] as { properties?: Readonly<Record<string, unknown>> }).properties ?? {};
    checkKeys(
      jsonc.findNodeAtLocation(property.children?.[1] ?? tree, ['oauth']),
      oauth,
      `${path}.oauth`,
      text,
      file,
      warnings,
    );
  }
  checkKeys(jsonc.findNodeAtLocation(tree, ['permissions']), PERMISSIONS_KEYS, 'permissions', text, file, warnings);
  // The settings sections (limits, store, console, model, retention, audit) by the same definition as the schema.
  for (const [section, schema] of Object.entries(TOP_LEVEL_KEYS)) {
    const properties = (schema as { properties?: Readonly<Record<string, unknown>> }).properties;
    if (properties === undefined || section === 'permissions') continue;
    checkKeys(jsonc.findNodeAtLocation(tree, [section]), properties, section, text, file, warnings);
  }
  return warnings;
}

function readExpiry(json: object, file: string): Partial<ExpiryDays> | undefined {
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

/** `permissions.unannotatedRisk`: a risk tier, else an error at the value's line and column. */
function readUnannotatedRisk(json: object, locate: ConfigLocate): RiskTier | undefined {
  const raw = (json as { permissions?: { unannotatedRisk?: unknown } }).permissions?.unannotatedRisk;
  if (raw === undefined || raw === 'low' || raw === 'medium' || raw === 'high') return raw;
  throw new HostError(
    'config_invalid',
    `${locate(['permissions', 'unannotatedRisk'])}: permissions.unannotatedRisk must be "low", "medium" or "high", ` +
      `not ${JSON.stringify(raw)}`,
    { data: { field: 'permissions.unannotatedRisk' } },
  );
}

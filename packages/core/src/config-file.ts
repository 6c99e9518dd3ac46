import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { HostError } from './errors/host-error.js';
import type { ExpiryDays } from './permissions/permission-engine.js';
import { readRetentionSettings } from './retention/retention-settings.js';
import type { RetentionSettings } from './retention/retention-settings.js';
import type { PermissionRule } from './permissions/permission-rules.js';
import { parseRulesText } from './permissions/permission-rules.js';
import type { ServerConfig } from './servers/server-config.js';
import { parseServersConfig } from './servers/server-config.js';

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
  /** `retention` and `audit` (anchoring), checked. */
  readonly retention?: RetentionSettings['retention'];
  readonly audit?: RetentionSettings['audit'];
  readonly json: Readonly<Record<string, unknown>>;
}

/** Top-level keys of a config file that are settings, not servers. */
const HOST_KEYS = new Set(['permissions', 'limits', 'store', 'console', 'model', 'retention', 'audit']);

/** Reads a file for the host, naming the file (and what it was meant to be) when it cannot. */
export function readConfigText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new HostError('config_invalid', `cannot read ${what} ${file}: ${(error as Error).message}`);
  }
}

/**
 * Reads an `airlock.config.json`: servers in the `mcpServers` format, `permissions.rules` and
 * `permissions.expiryDays`. Every error names the file and the field (rules also the line and column).
 */
export function readConfigFile(path: string): ConfigFile {
  const file = resolve(path);
  const text = readConfigText(file, 'config file');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new HostError('config_invalid', `${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new HostError('config_invalid', `${file} must hold a JSON object`);
  }
  const expiryDays = readExpiry(json, file);
  // A file of host settings only (no server list at all) configures no servers; a bare map of servers still does.
  const settingsOnly =
    !('mcpServers' in json) && !('servers' in json) && Object.keys(json).every((key) => HOST_KEYS.has(key));
  return {
    file,
    servers: settingsOnly ? [] : parseServersConfig(json, file),
    settingsOnly,
    rules: parseRulesText(text, file, ['permissions', 'rules']),
    ...(expiryDays === undefined ? {} : { expiryDays }),
    ...readRetentionSettings(json as Record<string, unknown>, file),
    json: json as Record<string, unknown>,
  };
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

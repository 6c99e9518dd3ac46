import type { AuditAnchorConfig } from '../audit/audit-log.js';
import { HostError } from '../errors/host-error.js';
import type { RetentionConfig } from './retention-config.js';
import { resolveRetention } from './retention-config.js';

/** The `retention` and `audit` keys of an `airlock.config.json`, checked. */
export interface RetentionSettings {
  readonly retention?: RetentionConfig;
  readonly audit?: AuditAnchorConfig;
}

function object(value: unknown, field: string, file: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HostError('config_invalid', `${file}: ${field} must be an object`);
  }
  return value as Record<string, unknown>;
}

/** `"retention": null` in a config: every kind kept forever (a product's defaults do not apply either). */
export const KEEP_FOREVER: RetentionConfig = {
  results: null,
  history: null,
  audit: null,
  conversations: null,
  expiredDecisions: null,
};

/**
 * Reads a config file's `retention` (windows in days, `null` forever, `workspaces`; `"retention": null` keeps
 * everything forever, read as {@link KEEP_FOREVER}) and `audit` (`anchorFile`, `anchorEveryMs`). Every error names
 * the file and the field. A file without `retention` gives none: whether defaults apply is the product's choice.
 */
export function readRetentionSettings(json: Readonly<Record<string, unknown>>, file: string): RetentionSettings {
  const out: { retention?: RetentionConfig; audit?: AuditAnchorConfig } = {};
  if (json['retention'] === null) {
    out.retention = KEEP_FOREVER;
  } else if (json['retention'] !== undefined) {
    const retention = object(json['retention'], 'retention', file) as RetentionConfig;
    try {
      resolveRetention(retention);
    } catch (error) {
      throw new HostError('config_invalid', `${file}: ${(error as Error).message}`);
    }
    out.retention = retention;
  }
  if (json['audit'] !== undefined) {
    const audit = object(json['audit'], 'audit', file);
    const { anchorFile, anchorEveryMs } = audit;
    if (anchorFile !== undefined && (typeof anchorFile !== 'string' || anchorFile === '')) {
      throw new HostError('config_invalid', `${file}: audit.anchorFile must be a file path`);
    }
    if (anchorEveryMs !== undefined && (typeof anchorEveryMs !== 'number' || !(anchorEveryMs > 0))) {
      throw new HostError('config_invalid', `${file}: audit.anchorEveryMs must be a number of milliseconds > 0`);
    }
    out.audit = {
      ...(anchorFile === undefined ? {} : { anchorFile }),
      ...(anchorEveryMs === undefined ? {} : { anchorEveryMs }),
    };
  }
  return out;
}

import { HostError } from '../errors/host-error.js';
import type { PermissionRule } from './permission-rules.js';
import type { RiskTier } from '../store/decision-record.js';

/** How long an allow always lasts, by risk tier, in days; null never expires. */
export type ExpiryDays = Readonly<Record<RiskTier, number | null>>;

/** How long an allow always lasts when the host sets nothing: the riskier the tool, the sooner the user is asked again. */
export const DEFAULT_EXPIRY_DAYS: ExpiryDays = { low: 90, medium: 30, high: 7 };

/** Permission settings of a host. */
export interface PermissionConfig {
  readonly rules?: readonly PermissionRule[];
  readonly expiryDays?: Partial<ExpiryDays>;
  /** How long a prompt may wait for the user before the call is denied. Default 5 minutes. */
  readonly promptTimeoutMs?: number;
  /**
   * The risk assumed for a tool without annotations of a trusted server. Default `'high'`: MCP's defaults (may
   * modify or delete data, reaches outside systems), so allow always is withheld. `'medium'` or `'low'` treat such
   * tools as not destructive (allow always offered, focus on allow once) at that tier. An untrusted server's tools
   * without annotations stay high whatever this says: its silence is not believed.
   */
  readonly unannotatedRisk?: RiskTier;
}

/**
 * `unannotatedRisk` as a host was given it: a tier, or undefined for the default. Anything else (a host configured
 * from JavaScript, unchecked) is refused as `config_invalid`, naming the setting.
 */
export function checkedUnannotatedRisk(value: unknown): RiskTier | undefined {
  if (value === undefined || value === 'low' || value === 'medium' || value === 'high') return value;
  throw new HostError(
    'config_invalid',
    `permissions.unannotatedRisk must be "low", "medium" or "high", not ${JSON.stringify(value)}`,
    { data: { field: 'permissions.unannotatedRisk' } },
  );
}

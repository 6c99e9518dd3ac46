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
}

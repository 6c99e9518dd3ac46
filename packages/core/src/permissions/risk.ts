import type { ToolAnnotations } from '@modelcontextprotocol/client';
import type { RiskTier } from '../store/decision-record.js';

const ORDER: Record<RiskTier, number> = { low: 0, medium: 1, high: 2 };

/** The key in a tool's `_meta` where a server may state its own risk claim ("low" | "medium" | "high"). */
export const SERVER_RISK_META_KEY = 'airlock/risk';

/** The risk of a tool and why, for the badge and for `explain`. */
export interface RiskAssessment {
  readonly tier: RiskTier;
  /** Effective destructiveness (spec default: true unless read-only or stated false): allow always is refused. */
  readonly destructive: boolean;
  /** The annotations came from an untrusted server: show them as unverified hints. */
  readonly unverified: boolean;
  readonly reasons: readonly string[];
  /**
   * Who set the tier: the annotations (or their absence, the spec's worst case), the host's policy for tools without
   * annotations, the server's own claim in `_meta["airlock/risk"]`, or a host rule. Surfaces name the rater.
   */
  readonly ratedBy?: RiskRater | undefined;
}

/** Who set a tool's risk tier; see {@link RiskAssessment.ratedBy}. */
export type RiskRater = 'annotations' | 'host_policy' | 'server' | 'rule';

/**
 * Derives risk from a tool's annotations, its server's trust, the server's own claim, the host's policy for tools
 * without annotations and a host rule.
 *
 * No annotations: high and destructive (the spec's defaults), unless the server is trusted and the host's
 * `unannotatedRisk` says medium or low: then that tier, not destructive. Read-only: low on a trusted server, medium on an untrusted one. Not read-only: high when
 * destructive or open-world (both default to true when absent, as the spec says), else medium. A server's claim in
 * `_meta["airlock/risk"]` may raise the tier; only a trusted server's claim may lower it (and, for a tool without
 * annotations, lifts the worst-case destructiveness). A host rule's risk wins.
 */
export function deriveRisk(options: {
  annotations: ToolAnnotations | undefined;
  trusted: boolean;
  meta?: Readonly<Record<string, unknown>> | undefined;
  ruleRisk?: RiskTier | undefined;
  /** The host's policy for a trusted server's tools without annotations (`PermissionConfig.unannotatedRisk`). */
  unannotatedRisk?: RiskTier | undefined;
}): RiskAssessment {
  const a = options.annotations;
  const hints = a === undefined ? [] : Object.keys(a).filter((k) => k.endsWith('Hint'));
  const reasons: string[] = [];
  let tier: RiskTier;
  let ratedBy: RiskRater = 'annotations';
  const readOnly = a?.readOnlyHint === true;
  let destructive = !readOnly && a?.destructiveHint !== false;
  // An untrusted server's silence is read as the spec reads it: the host's policy lowers only what it trusts.
  const assumed = options.trusted ? (options.unannotatedRisk ?? 'high') : 'high';
  if (hints.length === 0 && assumed !== 'high') {
    tier = assumed;
    destructive = false;
    ratedBy = 'host_policy';
    reasons.push(`the tool has no annotations; the host rates such tools of trusted servers ${assumed} risk`);
  } else if (hints.length === 0) {
    tier = 'high';
    reasons.push('the tool has no annotations, so it is treated as the worst case');
  } else if (readOnly) {
    tier = options.trusted ? 'low' : 'medium';
    reasons.push(options.trusted ? 'read-only on a trusted server' : 'read-only, but the server is not trusted');
  } else if (destructive || a?.openWorldHint !== false) {
    tier = 'high';
    reasons.push(destructive ? 'may modify or delete data (destructive)' : 'reaches outside systems (open world)');
  } else {
    tier = 'medium';
    reasons.push(a?.idempotentHint === true ? 'has side effects, idempotent' : 'has side effects');
  }
  const claim = options.meta?.[SERVER_RISK_META_KEY];
  if (claim === 'low' || claim === 'medium' || claim === 'high') {
    if (ORDER[claim] > ORDER[tier] || options.trusted) {
      if (claim !== tier) reasons.push(`the server states its risk as ${claim}`);
      tier = claim;
      ratedBy = 'server';
      // A trusted server's rating below high replaces the spec's worst case for a tool it left unannotated; an
      // explicit destructiveHint still stands (allow always stays refused).
      if (options.trusted && claim !== 'high' && hints.length === 0) destructive = false;
    } else if (claim !== tier) {
      reasons.push(`the server claims ${claim} risk; an untrusted server cannot lower it`);
    }
  }
  if (options.ruleRisk !== undefined && options.ruleRisk !== tier) {
    reasons.push(`a host rule sets the risk to ${options.ruleRisk}`);
    tier = options.ruleRisk;
    ratedBy = 'rule';
  }
  return { tier, destructive, unverified: !options.trusted && hints.length > 0, reasons, ratedBy };
}

import type { PermissionRule } from './permission-rules.js';
import type { PermissionResolution } from './resolve-permission.js';
import type { RiskAssessment } from './risk.js';
import type { StoredDecision } from '../store/decision-record.js';

/** Which rule or stored decision decides a call, and why: what `host.permissions.explain` returns. */
export interface PermissionExplanation {
  readonly decision: 'allow' | 'deny' | 'ask';
  readonly source: 'rule' | 'stored_decision' | 'prompt';
  readonly risk: RiskAssessment;
  readonly reason: string;
  readonly rule?: PermissionRule;
  readonly storedDecision?: StoredDecision;
}

/**
 * A resolution worded for a person (a settings page, `airlock permissions explain`): the rule or the stored decision
 * that decides, when it was stored and until when, or why the user would be asked.
 */
export function explainPermission(options: {
  resolution: PermissionResolution;
  risk: RiskAssessment;
}): PermissionExplanation {
  const { resolution, risk } = options;
  if (resolution.kind === 'rule') {
    const effect = resolution.verdict.effect;
    return {
      decision: effect,
      source: effect === 'ask' ? 'prompt' : 'rule',
      risk,
      reason: resolution.verdict.reason,
      rule: resolution.verdict.rule,
    };
  }
  if (resolution.kind === 'stored') {
    const d = resolution.decision;
    const expires = d.expiresAt === null ? 'never expires' : `expires ${new Date(d.expiresAt).toISOString()}`;
    return {
      decision: d.effect,
      source: 'stored_decision',
      risk,
      storedDecision: d,
      reason: `${grain(d)}, stored ${new Date(d.grantedAt).toISOString()}${d.argsHash === null ? '' : ' for these exact arguments'}; ${expires}`,
    };
  }
  return { decision: 'ask', source: 'prompt', risk, reason: resolution.why };
}

function grain(d: StoredDecision): string {
  return d.conversationId === undefined ? `${d.effect} always` : `${d.effect} for this conversation`;
}

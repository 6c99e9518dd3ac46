import type { AuditEvent } from '../store/audit-record.js';

/** A permission decision in seed 003 R6's audit schema, field for field. */
export interface SeedDecisionEvent {
  readonly event_type: 'mcp.permission.decision';
  readonly decision: 'ALLOW_ONCE' | 'ALLOW_ALWAYS' | 'DENY_ONCE' | 'DENY_ALWAYS';
  readonly koder_user_id: string;
  readonly workspace_id: string;
  readonly server_id: string | null;
  readonly tool_name: string | null;
  /** sha256 of the arguments' canonical JSON; null for a per-tool decision made without arguments. */
  readonly args_hash: string | null;
  readonly risk_tier: 'low' | 'medium' | 'high' | null;
  /** ISO 8601, UTC. */
  readonly timestamp: string;
  readonly origin: 'user_prompt' | 'cache_hit' | 'auto_revoke_renewal';
}

/**
 * Our decisions in the seed's four. A rule's `allow` / `deny` is a standing decision, like a stored one met again
 * (whose origin is also `cache_hit`): `ALLOW_ALWAYS` / `DENY_ALWAYS`. Allow for this conversation is a stored,
 * standing allow too (the next call is a cache hit), only narrower: `ALLOW_ALWAYS`, the seed's nearest.
 */
export const SEED_DECISIONS: Readonly<Record<string, SeedDecisionEvent['decision']>> = {
  allow_once: 'ALLOW_ONCE',
  allow_always: 'ALLOW_ALWAYS',
  allow_conversation: 'ALLOW_ALWAYS',
  deny_once: 'DENY_ONCE',
  deny_always: 'DENY_ALWAYS',
  allow: 'ALLOW_ALWAYS',
  deny: 'DENY_ALWAYS',
};

/**
 * Our decision origins in the seed's three. A rule and a stored decision both decide without asking anyone: the
 * seed's `cache_hit`. An expired allow asked again is the seed's `auto_revoke_renewal`. A prompt that closed
 * unanswered (no surface, timeout, surface error, invalid answer, cancelled call) was still a prompt: `user_prompt`.
 * A stored allow denied because the shared store could not confirm it was decided without asking: `cache_hit`.
 */
export const SEED_ORIGINS: Readonly<Record<string, SeedDecisionEvent['origin']>> = {
  user_prompt: 'user_prompt',
  cache_hit: 'cache_hit',
  rule: 'cache_hit',
  expired_renewal: 'auto_revoke_renewal',
  no_surface: 'user_prompt',
  prompt_timeout: 'user_prompt',
  surface_error: 'user_prompt',
  invalid_answer: 'user_prompt',
  call_cancelled: 'user_prompt',
  store_unreadable: 'cache_hit',
};

const RISK_TIERS = new Set(['low', 'medium', 'high']);

/** The table's own entry for a value (never an inherited one such as `constructor`). */
function own<T>(table: Readonly<Record<string, T>>, value: unknown): T | undefined {
  return typeof value === 'string' && Object.hasOwn(table, value) ? table[value] : undefined;
}

/**
 * A decision event in the seed's schema (seed 003 R6), or undefined for any other event: transitions, elicitations,
 * and changes to a stored decision that decide no call (`revoke`, `set_expiry`), which the seed's four decisions
 * cannot name. The seed's consumers (services/foundation/audit) read exactly these fields, so nothing else is added.
 */
export function seedDecisionEvent(event: AuditEvent): SeedDecisionEvent | undefined {
  if (event.type !== 'permission.decision') return undefined;
  const decision = own(SEED_DECISIONS, event.data['decision']);
  if (decision === undefined) return undefined;
  const origin = own(SEED_ORIGINS, event.data['origin']) ?? 'user_prompt';
  const tier = event.riskTier !== null && RISK_TIERS.has(event.riskTier) ? event.riskTier : null;
  return {
    event_type: 'mcp.permission.decision',
    decision,
    koder_user_id: event.userId,
    workspace_id: event.workspaceId,
    server_id: event.serverId,
    tool_name: event.tool,
    args_hash: event.argsHash,
    risk_tier: tier as SeedDecisionEvent['risk_tier'],
    timestamp: new Date(event.at).toISOString(),
    origin,
  };
}

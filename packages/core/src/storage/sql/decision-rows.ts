import type { RiskTier, StoredDecision } from '../../store/decision-record.js';

// Stored permission decisions (permission_decisions), the same columns in SQLite and PostgreSQL.

/** The decision columns, in the order `decisionParams` binds them. */
export const DECISION_COLUMNS =
  'id, user_id, workspace_id, server_id, server_identity, tool, args_hash, definition_hash, effect, risk_tier, ' +
  'granted_at, expires_at, granted_by, conversation_id';

/** The key a decision is stored under (its UNIQUE constraint): the target of the upsert's ON CONFLICT. */
export const DECISION_KEY_COLUMNS = 'user_id, workspace_id, server_identity, tool, args_hash, conversation_id';

/** A `permission_decisions` row as the driver returns it. */
export interface DecisionRow {
  readonly id: string;
  readonly user_id: string;
  readonly workspace_id: string;
  readonly server_id: string;
  readonly server_identity: string;
  readonly tool: string;
  /** '' for a per-tool decision. */
  readonly args_hash: string;
  readonly definition_hash: string;
  readonly effect: string;
  readonly risk_tier: string;
  readonly granted_at: number;
  readonly expires_at: number | null;
  readonly granted_by: string;
  /** '' for a decision that holds in every conversation. */
  readonly conversation_id: string;
}

/**
 * Binds a decision in `DECISION_COLUMNS` order; a per-tool decision (null args hash) binds '', and so does one for
 * every conversation (no conversation id): '' keeps the UNIQUE key whole, where NULLs would all differ.
 */
export function decisionParams(d: StoredDecision): unknown[] {
  return [
    d.id,
    d.userId,
    d.workspaceId,
    d.serverId,
    d.serverIdentity,
    d.tool,
    d.argsHash ?? '',
    d.definitionHash,
    d.effect,
    d.riskTier,
    d.grantedAt,
    d.expiresAt,
    d.grantedBy,
    d.conversationId ?? '',
  ];
}

/**
 * Reads a `permission_decisions` row back into the decision that was written ('' args hash: per tool, null; ''
 * conversation: every conversation, no `conversationId`).
 */
export function decisionFromRow(row: DecisionRow): StoredDecision {
  return {
    id: row.id,
    userId: row.user_id,
    workspaceId: row.workspace_id,
    serverId: row.server_id,
    serverIdentity: row.server_identity,
    tool: row.tool,
    argsHash: row.args_hash === '' ? null : row.args_hash,
    ...(row.conversation_id === '' ? {} : { conversationId: row.conversation_id }),
    definitionHash: row.definition_hash,
    effect: row.effect as StoredDecision['effect'],
    riskTier: row.risk_tier as RiskTier,
    grantedAt: row.granted_at,
    expiresAt: row.expires_at,
    grantedBy: row.granted_by,
  };
}

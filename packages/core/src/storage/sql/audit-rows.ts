import type { SealedAuditInput } from '../../audit/audit-chain.js';
import type { AuditEvent, AuditEventType } from '../../store/audit-record.js';

// The audit chain's events (audit_events), the same columns in SQLite and PostgreSQL.

/** The audit event columns, in the order `auditParams` binds them. */
export const AUDIT_COLUMNS =
  'seq, type, at, user_id, workspace_id, conversation_id, server_id, tool, args_hash, risk_tier, invocation_id, ' +
  'data, prev_hash, hash';

/** An `audit_events` row as the driver returns it. */
export interface AuditRow {
  readonly seq: number;
  readonly type: string;
  readonly at: number;
  readonly user_id: string;
  readonly workspace_id: string;
  readonly conversation_id: string | null;
  readonly server_id: string | null;
  readonly tool: string | null;
  readonly args_hash: string | null;
  readonly risk_tier: string | null;
  readonly invocation_id: string | null;
  readonly data: string;
  readonly prev_hash: string;
  readonly hash: string;
}

/** Binds a sealed event in `AUDIT_COLUMNS` order; `data` is kept as the canonical JSON its hash covers. */
export function auditParams(sealed: SealedAuditInput): unknown[] {
  const e = sealed.input;
  return [
    sealed.seq,
    e.type,
    e.at,
    e.userId,
    e.workspaceId,
    e.conversationId,
    e.serverId,
    e.tool,
    e.argsHash,
    e.riskTier,
    e.invocationId,
    sealed.dataJson,
    sealed.prevHash,
    sealed.hash,
  ];
}

/**
 * Reads an `audit_events` row back into the event that was sealed: exactly its fourteen fields, since `verifyChain`
 * hashes whatever the object holds.
 */
export function auditFromRow(row: AuditRow): AuditEvent {
  return {
    seq: row.seq,
    type: row.type as AuditEventType,
    at: row.at,
    userId: row.user_id,
    workspaceId: row.workspace_id,
    conversationId: row.conversation_id,
    serverId: row.server_id,
    tool: row.tool,
    argsHash: row.args_hash,
    riskTier: row.risk_tier,
    invocationId: row.invocation_id,
    data: JSON.parse(row.data) as Record<string, unknown>,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

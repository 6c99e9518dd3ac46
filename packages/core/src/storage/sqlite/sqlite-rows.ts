import type { SealedAuditInput } from '../../audit/audit-chain.js';
import type { AuditEvent, AuditEventType } from '../../store/audit-record.js';
import type { InvocationOutcome, InvocationState } from '../../store/invocation-state.js';
import type { ModelPayload, ScreenPayload } from '../../store/bounded-result-types.js';
import type { RiskTier } from '../../store/decision-record.js';
import type { StoredDecision } from '../../store/decision-record.js';
import type { Caller } from '../../caller.js';
import type { CredentialKey, CredentialKind, CredentialRecord } from '../../store/credentials.js';
import type {
  InvocationError,
  InvocationRecord,
  ResultRecord,
  TransitionRecord,
} from '../../store/invocation-record.js';

// Row <-> record mapping for SqliteStore, kept apart so the store reads as SQL and transactions only. The column
// lists and the parameter lists below must stay in the same order; both live here so they change together.

/** The invocation columns, in the order `invocationParams` binds them. */
export const INVOCATION_COLUMNS =
  'id, user_id, workspace_id, conversation_id, caller, tool, server_id, original_name, definition_hash, args, ' +
  'args_hash, state, outcome, error, created_at, updated_at, model_call_id';

/** The transition columns, in the order `transitionParams` binds them. */
export const TRANSITION_COLUMNS = 'invocation_id, seq, from_state, to_state, at, outcome, error';

/** The result columns, in the order `resultParams` binds them. */
export const RESULT_COLUMNS = 'invocation_id, model, screen, full_text, raw_json';

/** An `invocations` row as the driver returns it. */
export interface InvocationRow {
  readonly id: string;
  readonly user_id: string;
  readonly workspace_id: string;
  readonly conversation_id: string;
  readonly caller: string;
  readonly tool: string;
  readonly server_id: string | null;
  readonly original_name: string;
  readonly definition_hash: string;
  readonly args: string;
  readonly args_hash: string;
  readonly state: string;
  readonly outcome: string | null;
  readonly error: string | null;
  readonly created_at: number;
  readonly updated_at: number;
  readonly model_call_id: string | null;
}

/** An `invocation_transitions` row as the driver returns it. */
export interface TransitionRow {
  readonly invocation_id: string;
  readonly seq: number;
  readonly from_state: string | null;
  readonly to_state: string;
  readonly at: number;
  readonly outcome: string | null;
  readonly error: string | null;
}

/** An `invocation_results` row as the driver returns it. */
export interface ResultRow {
  readonly invocation_id: string;
  readonly model: string;
  readonly screen: string;
  readonly full_text: string;
  readonly raw_json: string;
  readonly expired_at?: number | null;
}

/** The stored text of an error column: JSON, or NULL for none. */
export function errorParam(error: InvocationError | null): string | null {
  return error === null ? null : JSON.stringify(error);
}

/** Binds a record in `INVOCATION_COLUMNS` order. */
export function invocationParams(record: InvocationRecord): unknown[] {
  return [
    record.id,
    record.scope.userId,
    record.scope.workspaceId,
    record.scope.conversationId,
    JSON.stringify(record.caller),
    record.tool,
    record.serverId,
    record.originalName,
    record.definitionHash,
    JSON.stringify(record.args),
    record.argsHash,
    record.state,
    record.outcome,
    errorParam(record.error),
    record.createdAt,
    record.updatedAt,
    record.modelCallId ?? null,
  ];
}

/** Binds a transition in `TRANSITION_COLUMNS` order. */
export function transitionParams(transition: TransitionRecord): unknown[] {
  return [
    transition.invocationId,
    transition.seq,
    transition.from,
    transition.to,
    transition.at,
    transition.outcome,
    errorParam(transition.error),
  ];
}

/** Binds a result in `RESULT_COLUMNS` order. */
export function resultParams(result: ResultRecord): unknown[] {
  return [
    result.invocationId,
    JSON.stringify(result.model),
    JSON.stringify(result.screen),
    result.fullText,
    result.rawJson,
  ];
}

function parseError(text: string | null): InvocationError | null {
  return text === null ? null : (JSON.parse(text) as InvocationError);
}

/** Reads an `invocations` row back into the record that was written. */
export function invocationFromRow(row: InvocationRow): InvocationRecord {
  const record: InvocationRecord = {
    id: row.id,
    scope: { userId: row.user_id, workspaceId: row.workspace_id, conversationId: row.conversation_id },
    caller: JSON.parse(row.caller) as Caller,
    tool: row.tool,
    serverId: row.server_id,
    originalName: row.original_name,
    definitionHash: row.definition_hash,
    args: JSON.parse(row.args) as Record<string, unknown>,
    argsHash: row.args_hash,
    state: row.state as InvocationState,
    outcome: row.outcome as InvocationOutcome | null,
    error: parseError(row.error),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  return row.model_call_id === null ? record : { ...record, modelCallId: row.model_call_id };
}

/** Reads an `invocation_transitions` row back into the record that was written. */
export function transitionFromRow(row: TransitionRow): TransitionRecord {
  return {
    invocationId: row.invocation_id,
    seq: row.seq,
    from: row.from_state as InvocationState | null,
    to: row.to_state as InvocationState,
    at: row.at,
    outcome: row.outcome as InvocationOutcome | null,
    error: parseError(row.error),
  };
}

/** Reads an `invocation_results` row back into the record that was written. */
export function resultFromRow(row: ResultRow): ResultRecord {
  return {
    invocationId: row.invocation_id,
    model: JSON.parse(row.model) as ModelPayload,
    screen: JSON.parse(row.screen) as ScreenPayload,
    fullText: row.full_text,
    rawJson: row.raw_json,
    ...(row.expired_at === null || row.expired_at === undefined ? {} : { expiredAt: row.expired_at }),
  };
}

/** The decision columns, in the order `decisionParams` binds them. */
export const DECISION_COLUMNS =
  'id, user_id, workspace_id, server_id, server_identity, tool, args_hash, definition_hash, effect, risk_tier, ' +
  'granted_at, expires_at, granted_by';

/** The audit event columns, in the order `auditParams` binds them. */
export const AUDIT_COLUMNS =
  'seq, type, at, user_id, workspace_id, conversation_id, server_id, tool, args_hash, risk_tier, invocation_id, ' +
  'data, prev_hash, hash';

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
}

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

/** Binds a decision in `DECISION_COLUMNS` order; a per-tool decision (null args hash) binds ''. */
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
  ];
}

/** Reads a `permission_decisions` row back into the decision that was written ('' args hash: per tool, null). */
export function decisionFromRow(row: DecisionRow): StoredDecision {
  return {
    id: row.id,
    userId: row.user_id,
    workspaceId: row.workspace_id,
    serverId: row.server_id,
    serverIdentity: row.server_identity,
    tool: row.tool,
    argsHash: row.args_hash === '' ? null : row.args_hash,
    definitionHash: row.definition_hash,
    effect: row.effect as StoredDecision['effect'],
    riskTier: row.risk_tier as RiskTier,
    grantedAt: row.granted_at,
    expiresAt: row.expires_at,
    grantedBy: row.granted_by,
  };
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

// Credentials (the token vault's sealed records), the same columns in SQLite and PostgreSQL.

export const CREDENTIAL_COLUMNS = 'kind, user_id, server_identity, issuer, sealed, updated_at';

export interface CredentialRow {
  readonly kind: CredentialKind;
  readonly user_id: string;
  readonly server_identity: string;
  readonly issuer: string;
  readonly sealed: string;
  readonly updated_at: number;
}

export function credentialFromRow(row: CredentialRow): CredentialRecord {
  return {
    key: { kind: row.kind, userId: row.user_id, serverIdentity: row.server_identity, issuer: row.issuer },
    sealed: row.sealed,
    updatedAt: row.updated_at,
  };
}

export function credentialKeyParams(key: CredentialKey): [string, string, string, string] {
  return [key.kind, key.userId, key.serverIdentity, key.issuer];
}

import type { SealedAuditInput } from '../audit/audit-chain.js';
import type { AuditEvent, AuditEventInput } from '../store/audit-record.js';
import { AUDIT_EVENT_TYPES } from '../store/audit-record.js';
import { auditInputFields, sealAuditInput } from '../audit/audit-chain.js';
import type { AuditSealer } from '../audit/audit-sealer.js';
import { canonicalJson, flatCanonicalJson } from '../audit/canonical-json.js';
import { HostError } from '../errors/host-error.js';
import { isTerminalState, transition as checkMove } from '../store/invocation-state.js';
import type { RiskTier } from '../store/decision-record.js';
import type { StoredDecision } from '../store/decision-record.js';
import type { AuditQuery, RetentionQuery } from '../store/host-store.js';
import type {
  InvocationRecord,
  ListInvocationsOptions,
  ResultRecord,
  TransitionRecord,
} from '../store/invocation-record.js';

// Checks shared by every HostStore, so that each backend refuses exactly the same writes with the same codes and the
// contract suite can hold them all to it. Internal to storage/: not part of the public entry.

/** The page size when the caller names none. */
export const DEFAULT_PAGE_SIZE = 50;

/** The largest page a store returns; bigger requests are cut to this. */
export const MAX_PAGE_SIZE = 500;

/**
 * Refuses a first transition that does not open the invocation it comes with: it must be seq 1, from nothing, into
 * the record's state, and that state must be pending (the only state a call starts in).
 */
export function checkFirstTransition(record: InvocationRecord, first: TransitionRecord): void {
  if (first.invocationId !== record.id) {
    throw new HostError('invalid_transition', `the first transition names ${first.invocationId}, not ${record.id}`, {
      data: { invocationId: record.id },
    });
  }
  if (record.state !== 'pending' || first.seq !== 1 || first.from !== null || first.to !== record.state) {
    throw new HostError(
      'invalid_transition',
      `invocation ${record.id} must start pending with transition 1 from nothing to pending`,
      { data: { invocationId: record.id, state: record.state, seq: first.seq, from: first.from, to: first.to } },
    );
  }
}

/**
 * Refuses a transition the state machine does not allow, and a result that does not come with the transition that
 * ends the call (a stored result always belongs to a finished call).
 */
export function checkTransition(transition: TransitionRecord, result: ResultRecord | undefined): void {
  if (transition.from === null) {
    throw new HostError('invalid_transition', `only the first transition of ${transition.invocationId} has no from`, {
      data: { invocationId: transition.invocationId, seq: transition.seq },
    });
  }
  checkMove(transition.from, transition.to);
  if (result === undefined) return;
  if (result.invocationId !== transition.invocationId) {
    throw new HostError(
      'invalid_transition',
      `the result names ${result.invocationId}, the transition ${transition.invocationId}`,
      { data: { invocationId: transition.invocationId } },
    );
  }
  if (!isTerminalState(transition.to)) {
    throw new HostError(
      'invalid_transition',
      `a result is stored only with the transition that ends the call, not with one into ${transition.to}`,
      { data: { invocationId: transition.invocationId, to: transition.to } },
    );
  }
}

/** The row count a list returns: 50 unless told, never above 500; a limit below 1 or not an integer is refused. */
export function pageSize(options: ListInvocationsOptions | undefined): number {
  const limit = options?.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new HostError('invalid_arguments', `limit must be an integer of at least 1, not ${String(limit)}`);
  }
  const before = options?.before;
  if (before !== undefined && (typeof before !== 'number' || Number.isNaN(before))) {
    throw new HostError('invalid_arguments', `before must be a time in milliseconds, not ${String(before)}`);
  }
  const modelCallId = options?.modelCallId;
  if (modelCallId !== undefined && (typeof modelCallId !== 'string' || modelCallId === '')) {
    throw new HostError('invalid_arguments', `modelCallId must be a non-empty string, not ${String(modelCallId)}`);
  }
  return Math.min(limit, MAX_PAGE_SIZE);
}

/** The error for a write to an id the caller's scope does not hold (absent, or another tenant's: the same answer). */
export function notFound(invocationId: string): HostError {
  return new HostError('not_found', `no invocation ${invocationId} in this scope`, { data: { invocationId } });
}

/** The error for a transition whose `from` is not the state the store holds (a stale or repeated write). */
export function staleTransition(transition: TransitionRecord, stored: string): HostError {
  return new HostError(
    'invalid_transition',
    `invocation ${transition.invocationId} is ${stored}, so a transition from ${String(transition.from)} cannot apply`,
    { data: { invocationId: transition.invocationId, stored, from: transition.from, to: transition.to } },
  );
}

/** The error for a transition whose seq the invocation already has. */
export function duplicateSeq(transition: TransitionRecord, cause?: unknown): HostError {
  return new HostError(
    'store_error',
    `invocation ${transition.invocationId} already has a transition ${transition.seq}`,
    { data: { invocationId: transition.invocationId, seq: transition.seq }, ...(cause === undefined ? {} : { cause }) },
  );
}

/** The error for creating an id that is already taken. */
export function duplicateInvocation(invocationId: string, cause?: unknown): HostError {
  return new HostError('store_error', `an invocation ${invocationId} already exists`, {
    data: { invocationId },
    ...(cause === undefined ? {} : { cause }),
  });
}

/** The error every call after `close()` rejects with. */
export function closedError(store: string): HostError {
  return new HostError('closed', `the ${store} is closed`);
}

/** The audit page size when the query names none. */
export const DEFAULT_AUDIT_PAGE_SIZE = 1000;

/** The largest audit page a store returns; bigger requests are cut to this. */
export const MAX_AUDIT_PAGE_SIZE = 10_000;

const AUDIT_TYPES: ReadonlySet<string> = new Set(AUDIT_EVENT_TYPES);

const EFFECTS: Record<StoredDecision['effect'], true> = { allow: true, deny: true };

const RISK_TIERS: Record<RiskTier, true> = { low: true, medium: true, high: true };

function invalid(message: string, data?: Record<string, unknown>, cause?: unknown): HostError {
  return new HostError('invalid_arguments', message, {
    ...(data === undefined ? {} : { data }),
    ...(cause === undefined ? {} : { cause }),
  });
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function requireText(value: unknown, field: string, nullable: boolean): void {
  if (typeof value === 'string' || (nullable && value === null)) return;
  throw invalid(`${field} must be a string${nullable ? ' or null' : ''}, not ${typeof value}`, { field });
}

/** Refuses, as `invalid_arguments`, an audit event input a store could not keep (see `storedAuditInput`). */
function checkAuditInput(input: AuditEventInput): void {
  if (typeof input !== 'object' || input === null) throw invalid('an audit event must be an object');
  if (!AUDIT_TYPES.has(input.type)) {
    throw invalid(`unknown audit event type ${String(input.type)}`, { type: input.type });
  }
  if (!isTime(input.at)) throw invalid(`an audit event's at must be a time in milliseconds, not ${String(input.at)}`);
  requireText(input.userId, 'userId', false);
  requireText(input.workspaceId, 'workspaceId', false);
  for (const field of ['conversationId', 'serverId', 'tool', 'argsHash', 'riskTier', 'invocationId'] as const) {
    requireText(input[field], field, true);
  }
  if (typeof input.data !== 'object' || input.data === null || Array.isArray(input.data)) {
    throw invalid("an audit event's data must be an object");
  }
}

/** An audit event's data as its JSON round trip, refused as `invalid_arguments` when it has no JSON form. */
function jsonCopy(input: AuditEventInput): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(input.data)) as Record<string, unknown>;
  } catch (error) {
    throw invalid(
      `an audit event's data has no JSON form: ${error instanceof Error ? error.message : String(error)}`,
      { type: input.type },
      error,
    );
  }
}

/**
 * The audit event input exactly as a store keeps it, refused as `invalid_arguments` when it cannot be kept.
 *
 * The hash of an event covers everything the event holds, and `verifyChain` recomputes it from what the store gives
 * back, so an event must be sealed in its stored form: exactly the eleven fields (a property the store would not keep
 * would be hashed and then lost), and `data` as its JSON round trip (a value JSON drops or changes, such as
 * `undefined`, a function or a sparse array, would be hashed one way and read back another). Every store seals this
 * form (`MemoryStore` through this function, `SqliteStore` through `sealStoredAuditInput`), so the chains of the same
 * inputs are the same chain.
 */
export function storedAuditInput(input: AuditEventInput): AuditEventInput {
  checkAuditInput(input);
  return auditInputFields(input, jsonCopy(input));
}

/**
 * Seals the stored form of an input (see `storedAuditInput`) as the next event after `prev`, without building the
 * copy: data of plain values is its own JSON round trip, so its canonical JSON is written from it directly. A store
 * sealing many events in a row passes its `AuditSealer`, which gives the same hash for less.
 */
export function sealStoredAuditInput(
  input: AuditEventInput,
  prev: Pick<AuditEvent, 'seq' | 'hash'> | undefined,
  sealer?: AuditSealer,
): SealedAuditInput {
  checkAuditInput(input);
  const dataJson = flatCanonicalJson(input.data) ?? canonicalJson(jsonCopy(input));
  const fields = auditInputFields(input);
  return sealer === undefined ? sealAuditInput(fields, prev, dataJson) : sealer.seal(fields, prev, dataJson);
}

/**
 * The decision exactly as a store keeps it (its thirteen fields, and its conversation when it holds in one), refused
 * as `invalid_arguments` when a store could not keep it faithfully: an unknown effect or risk tier, a time that is not
 * a number, or an args hash or a conversation id of '' (the stored form of "per tool" and "every conversation", which
 * would silently widen the decision).
 */
export function storedDecision(decision: StoredDecision): StoredDecision {
  const d = decision;
  for (const field of ['id', 'userId', 'workspaceId', 'serverId', 'serverIdentity', 'tool'] as const) {
    requireText(d[field], field, false);
  }
  for (const field of ['definitionHash', 'grantedBy'] as const) requireText(d[field], field, false);
  requireText(d.argsHash, 'argsHash', true);
  if (d.argsHash === '') {
    throw invalid('argsHash must be null for a per-tool decision, not an empty string', { id: d.id });
  }
  if (d.conversationId !== undefined) {
    requireText(d.conversationId, 'conversationId', false);
    if (d.conversationId === '')
      throw invalid('conversationId must be absent or a conversation id, not ""', { id: d.id });
  }
  if (!Object.hasOwn(EFFECTS, d.effect)) throw invalid(`unknown effect ${String(d.effect)}`, { id: d.id });
  if (!Object.hasOwn(RISK_TIERS, d.riskTier)) throw invalid(`unknown risk tier ${String(d.riskTier)}`, { id: d.id });
  if (!isTime(d.grantedAt)) throw invalid(`grantedAt must be a time in milliseconds`, { id: d.id });
  if (d.expiresAt !== null && !isTime(d.expiresAt)) {
    throw invalid(`expiresAt must be a time in milliseconds or null`, { id: d.id });
  }
  return {
    id: d.id,
    userId: d.userId,
    workspaceId: d.workspaceId,
    serverId: d.serverId,
    serverIdentity: d.serverIdentity,
    tool: d.tool,
    argsHash: d.argsHash,
    ...(d.conversationId === undefined ? {} : { conversationId: d.conversationId }),
    definitionHash: d.definitionHash,
    effect: d.effect,
    riskTier: d.riskTier,
    grantedAt: d.grantedAt,
    expiresAt: d.expiresAt,
    grantedBy: d.grantedBy,
  };
}

/** The error for a decision whose id another key's decision already has. */
export function duplicateDecision(id: string, cause?: unknown): HostError {
  return new HostError('store_error', `a decision ${id} already exists for another tool or tenant`, {
    data: { decisionId: id },
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * The error for a write of a kind the store does not know: a batch that crossed a thread or a version boundary may
 * hold one, and it is refused (with the whole batch) rather than skipped.
 */
export function unknownWrite(write: never): HostError {
  const kind = (write as { kind?: unknown } | null)?.kind;
  return new HostError('invalid_arguments', `unknown store write kind: ${String(kind)}`);
}

/** What an audit query pages by, checked: the row count (1000 unless told, never above 10000) and the seq to start after. */
export interface AuditPage {
  readonly limit: number;
  readonly afterSeq: number;
}

/**
 * Checks an audit query and resolves its page. A limit below 1 or not an integer, an afterSeq that is not a whole
 * number, a time bound that is not a number, or a filter that is not a string is refused as `invalid_arguments`.
 */
export function auditPage(query: AuditQuery): AuditPage {
  const limit = query.limit ?? DEFAULT_AUDIT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1) {
    throw invalid(`limit must be an integer of at least 1, not ${String(limit)}`);
  }
  const afterSeq = query.afterSeq ?? 0;
  if (!Number.isInteger(afterSeq) || afterSeq < 0) {
    throw invalid(`afterSeq must be a whole number, not ${String(afterSeq)}`);
  }
  for (const field of ['since', 'until'] as const) {
    const value = query[field];
    if (value !== undefined && !isTime(value)) throw invalid(`${field} must be a time in milliseconds`);
  }
  for (const field of ['userId', 'workspaceId', 'type', 'serverId', 'tool', 'invocationId'] as const) {
    if (query[field] !== undefined) requireText(query[field], field, false);
  }
  return { limit: Math.min(limit, MAX_AUDIT_PAGE_SIZE), afterSeq };
}

/** The most candidates one retention read returns. */
export const MAX_RETENTION_PAGE = 1_000;

/**
 * Checks a retention query (refused as `invalid_arguments`, naming the field) and returns its limit, cut to
 * `MAX_RETENTION_PAGE`.
 */
export function retentionLimit(query: RetentionQuery): number {
  if (query.kind !== 'results' && query.kind !== 'invocations') {
    throw invalid(`a retention query's kind must be results or invocations, not ${String(query.kind)}`);
  }
  if (!isTime(query.before)) throw invalid("a retention query's before must be a time in milliseconds");
  if (!Number.isInteger(query.limit) || query.limit < 1) {
    throw invalid(`a retention query's limit must be an integer of at least 1, not ${String(query.limit)}`);
  }
  if (query.workspaceId !== undefined) requireText(query.workspaceId, 'workspaceId', false);
  for (const w of query.exceptWorkspaces ?? []) requireText(w, 'exceptWorkspaces', false);
  return Math.min(query.limit, MAX_RETENTION_PAGE);
}

/** True when a call of this workspace is in the query's workspaces. */
export function inRetentionWorkspaces(workspaceId: string, query: RetentionQuery): boolean {
  return (
    (query.workspaceId === undefined || workspaceId === query.workspaceId) &&
    !(query.exceptWorkspaces ?? []).includes(workspaceId)
  );
}

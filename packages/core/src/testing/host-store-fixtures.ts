import { expect } from 'vitest';
import type { AuditEvent, AuditEventInput } from '../store/audit-record.js';
import type { HostError, HostErrorCode } from '../errors/host-error.js';
import type { StoredDecision } from '../store/decision-record.js';
import type { Scope } from '../scope.js';
import type { InvocationRecord, ResultRecord, TransitionRecord } from '../store/invocation-record.js';
import type { DecisionTenant, StoreWrite } from '../store/host-store.js';

// Rows and assertions shared by the HostStore contract and the backends' own tests.

/** The tenant every case writes as, unless it says otherwise. */
export const SCOPE: Scope = { userId: 'user-a', workspaceId: 'workspace-a', conversationId: 'conversation-a' };

let made = 0;

/** A pending invocation created at `createdAt` (default: a fixed time), with a fresh id. */
export function invocation(overrides: Partial<InvocationRecord> = {}): InvocationRecord {
  made += 1;
  const createdAt = overrides.createdAt ?? 1_700_000_000_000;
  return {
    id: `inv-${made}-${Math.random().toString(36).slice(2)}`,
    scope: SCOPE,
    caller: { kind: 'app', serverId: 'files' },
    tool: 'files__read',
    serverId: 'files',
    originalName: 'read',
    definitionHash: 'def-hash',
    args: { path: '/tmp/a.txt', options: { lines: [1, 2, 3], follow: false } },
    argsHash: 'args-hash',
    state: 'pending',
    outcome: null,
    error: null,
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}

/** The transition that opens a record. */
export function opening(record: InvocationRecord): TransitionRecord {
  return {
    invocationId: record.id,
    seq: 1,
    from: null,
    to: 'pending',
    at: record.createdAt,
    outcome: null,
    error: null,
  };
}

/** A result for `invocationId` whose full text is `fullText`. */
export function resultFor(invocationId: string, fullText = 'line one\nline two ✓ 𝄞'): ResultRecord {
  return {
    invocationId,
    model: {
      content: [{ type: 'text', text: fullText.slice(0, 20) }],
      text: fullText.slice(0, 20),
      isError: false,
      truncation: {
        totalChars: fullText.length,
        cutFrom: 10,
        cutTo: 12,
        cutChars: 2,
        totalLines: 2,
        cutFromLine: 1,
        cutToLine: 2,
        handle: `airlock-result:${invocationId}`,
      },
    },
    screen: {
      blocks: [
        { type: 'text', text: fullText.slice(0, 20), totalChars: fullText.length, truncated: true },
        { type: 'image', mimeType: 'image/png', bytes: 600_000 },
      ],
      isError: false,
      structuredContent: { rows: [{ a: 1, b: null, c: 'ü' }] },
      meta: { 'io.example/trace': 'abc' },
      handle: `airlock-result:${invocationId}`,
    },
    fullText,
    rawJson: JSON.stringify({ content: [{ type: 'text', text: fullText }] }),
  };
}

/**
 * The rejection of `promise`, which must be a `HostError` with `code`. A `HostError` is known by its name and code,
 * not by class identity: a store under test may load its own copy of `@airlock/core` (a store package with its own
 * dependency, a store built apart from this suite), whose `HostError` is another class of the same shape.
 */
export async function expectRejection(promise: Promise<unknown>, code: HostErrorCode): Promise<HostError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error, `expected a rejection with code ${code}`).toBeInstanceOf(Error);
  expect((error as Error).name, `expected a HostError with code ${code}`).toBe('HostError');
  expect((error as HostError).code).toBe(code);
  return error as HostError;
}

/** Transition `seq` of `record`, taken `seq - 1` milliseconds after it was created. */
export function move(
  record: InvocationRecord,
  seq: number,
  from: TransitionRecord['from'],
  to: TransitionRecord['to'],
  outcome: TransitionRecord['outcome'] = null,
  error: TransitionRecord['error'] = null,
): TransitionRecord {
  return { invocationId: record.id, seq, from, to, at: record.createdAt + seq - 1, outcome, error };
}

/** The tenant (user and workspace) of `SCOPE`, as decisions are scoped. */
export const TENANT = { userId: SCOPE.userId, workspaceId: SCOPE.workspaceId } as const;

/** An allow-always decision of `TENANT` for the tool `read` of the server `files`, per tool, with a fresh id. */
export function decision(overrides: Partial<StoredDecision> = {}): StoredDecision {
  made += 1;
  return {
    id: `dec-${made}-${Math.random().toString(36).slice(2)}`,
    ...TENANT,
    serverId: 'files',
    serverIdentity: 'identity-of-files',
    tool: 'read',
    argsHash: null,
    definitionHash: 'def-hash',
    effect: 'allow',
    riskTier: 'low',
    grantedAt: 1_700_000_000_000,
    expiresAt: null,
    grantedBy: SCOPE.userId,
    ...overrides,
  };
}

/** A permission-decision audit event of `SCOPE`, labelled in its data so a test can tell events apart. */
export function auditInput(label: string, overrides: Partial<AuditEventInput> = {}): AuditEventInput {
  return {
    type: 'permission.decision',
    at: 1_700_000_000_000,
    userId: SCOPE.userId,
    workspaceId: SCOPE.workspaceId,
    conversationId: SCOPE.conversationId,
    serverId: 'files',
    tool: 'read',
    argsHash: null,
    riskTier: 'low',
    invocationId: null,
    data: { label, decision: 'allow_always', origin: 'user_prompt' },
    ...overrides,
  };
}

/** The audit event of storing or revoking `d`, labelled `label`. */
export function decisionAudit(d: StoredDecision, label: string): AuditEventInput {
  return auditInput(label, {
    userId: d.userId,
    workspaceId: d.workspaceId,
    conversationId: null,
    serverId: d.serverId,
    tool: d.tool,
    argsHash: d.argsHash,
    riskTier: d.riskTier,
    data: { label, decision: d.effect, origin: 'user_prompt', decisionId: d.id },
  });
}

/** The labels of events, in their order. */
export function labels(events: readonly AuditEvent[]): unknown[] {
  return events.map((e) => e.data['label']);
}

/** Decisions sorted by id, to compare lists whose order a store does not promise. */
export function byId(decisions: readonly StoredDecision[]): StoredDecision[] {
  return [...decisions].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The write that creates `record` with its opening transition (and, when given, the audit event of it). */
export function createWrite(record: InvocationRecord, audit?: AuditEventInput): StoreWrite {
  return { kind: 'create', record, first: opening(record), ...(audit === undefined ? {} : { audit }) };
}

/** The write of one transition, as `SCOPE` unless told, with the result and audit event when given. */
export function transitionWrite(
  transition: TransitionRecord,
  options: { readonly scope?: Scope; readonly result?: ResultRecord; readonly audit?: AuditEventInput } = {},
): StoreWrite {
  return {
    kind: 'transition',
    scope: options.scope ?? SCOPE,
    transition,
    ...(options.result === undefined ? {} : { result: options.result }),
    ...(options.audit === undefined ? {} : { audit: options.audit }),
  };
}

/** One audit write per event, in order. */
export function auditWrites(events: readonly AuditEventInput[]): StoreWrite[] {
  return events.map((audit) => ({ kind: 'audit', audit }));
}

/** The write that stores `d` with its audit event. */
export function putWrite(d: StoredDecision, audit: AuditEventInput): StoreWrite {
  return { kind: 'decision.put', decision: d, audit };
}

/** The write that deletes the decisions `ids` of `scope` (default `TENANT`), with its audit events. */
export function deleteWrite(
  ids: readonly string[],
  audit: readonly AuditEventInput[],
  scope: DecisionTenant = TENANT,
): StoreWrite {
  return { kind: 'decision.delete', scope, ids, audit };
}

import type { AuditEvent, AuditEventInput } from '../store/audit-record.js';
import { canonicalJson, sha256Hex } from './canonical-json.js';

/** The hash before the first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** The keys of a sealed event but its hash. */
const SEALED_KEYS = new Set([
  'argsHash',
  'at',
  'conversationId',
  'data',
  'invocationId',
  'prevHash',
  'riskTier',
  'seq',
  'serverId',
  'tool',
  'type',
  'userId',
  'workspaceId',
]);

const TEXT_FIELDS = [
  'argsHash',
  'conversationId',
  'invocationId',
  'riskTier',
  'serverId',
  'tool',
  'type',
  'userId',
  'workspaceId',
] as const;

/** True when every top-level value is what the written-out sealed text expects: text or null, and finite numbers. */
function plainFields(fields: AuditEventInput, seq: unknown, prevHash: unknown): boolean {
  for (const key of TEXT_FIELDS) {
    const value: unknown = fields[key];
    if (typeof value !== 'string' && value !== null) return false;
  }
  return Number.isFinite(fields.at) && Number.isFinite(seq) && typeof prevHash === 'string';
}

/**
 * The RFC 8785 canonical JSON of a sealed event but its hash, written out in sorted key order with the data's
 * canonical JSON given: the same text `canonicalJson` gives for such an event, without sorting or walking it. Every
 * call writes several events, and this is most of what sealing one costs.
 */
function sealedText(fields: AuditEventInput, dataJson: string, seq: number, prevHash: string): string {
  const s = JSON.stringify;
  return (
    `{"argsHash":${s(fields.argsHash)},"at":${s(fields.at)},"conversationId":${s(fields.conversationId)},` +
    `"data":${dataJson},"invocationId":${s(fields.invocationId)},"prevHash":${s(prevHash)},` +
    `"riskTier":${s(fields.riskTier)},"seq":${s(seq)},"serverId":${s(fields.serverId)},"tool":${s(fields.tool)},` +
    `"type":${s(fields.type)},"userId":${s(fields.userId)},"workspaceId":${s(fields.workspaceId)}}`
  );
}

/**
 * The RFC 8785 canonical JSON of a sealed event but its hash (what the hash covers), the same text `canonicalJson`
 * gives. An event with exactly the known keys and plain top-level values is written out directly; anything else
 * takes the general path.
 */
export function canonicalEventJson(event: Omit<AuditEvent, 'hash'>): string {
  const keys = Object.keys(event);
  if (keys.length !== SEALED_KEYS.size || !keys.every((key) => SEALED_KEYS.has(key))) return canonicalJson(event);
  if (!plainFields(event, event.seq, event.prevHash) || typeof event.data !== 'object' || event.data === null) {
    return canonicalJson(event);
  }
  return sealedText(event, canonicalJson(event.data), event.seq, event.prevHash);
}

/** sha256 of the canonical JSON of everything in the event but its own hash. */
export function auditHash(event: Omit<AuditEvent, 'hash'>): string {
  return sha256Hex(canonicalEventJson(event));
}

/**
 * An audit input with exactly its own fields (anything else an object carries is left behind), `data` replaced when
 * given: the form stores keep and the chain seals, so a sealed event always takes the fast canonical path.
 */
export function auditInputFields(
  input: AuditEventInput,
  data: Readonly<Record<string, unknown>> = input.data,
): AuditEventInput {
  return {
    type: input.type,
    at: input.at,
    userId: input.userId,
    workspaceId: input.workspaceId,
    conversationId: input.conversationId,
    serverId: input.serverId,
    tool: input.tool,
    argsHash: input.argsHash,
    riskTier: input.riskTier,
    invocationId: input.invocationId,
    data,
  };
}

/**
 * An event sealed for storing, before any event object is built: the input, its data as canonical JSON (the text
 * the hash covers and the text a store keeps), its number and both hashes.
 */
export interface SealedAuditInput {
  readonly input: AuditEventInput;
  readonly dataJson: string;
  readonly seq: number;
  readonly prevHash: string;
  readonly hash: string;
}

/**
 * Seals an input as the next event after `prev` (or the first). `dataJson`, when given, is the canonical JSON of
 * `input.data`, already worked out by the caller.
 */
export function sealAuditInput(
  input: AuditEventInput,
  prev: Pick<AuditEvent, 'seq' | 'hash'> | undefined,
  dataJson: string = canonicalJson(input.data),
): SealedAuditInput {
  const seq = (prev?.seq ?? 0) + 1;
  const prevHash = prev?.hash ?? GENESIS_HASH;
  const text = plainFields(input, seq, prevHash)
    ? sealedText(input, dataJson, seq, prevHash)
    : canonicalEventJson(sealedEvent(input, JSON.parse(dataJson) as Record<string, unknown>, seq, prevHash, ''));
  return { input, dataJson, seq, prevHash, hash: sha256Hex(text) };
}

function sealedEvent(
  input: AuditEventInput,
  data: Readonly<Record<string, unknown>>,
  seq: number,
  prevHash: string,
  hash: string,
): AuditEvent {
  const event = auditInputFields(input, data) as { -readonly [K in keyof AuditEvent]?: unknown };
  event.seq = seq;
  event.prevHash = prevHash;
  event.hash = hash;
  return event as AuditEvent;
}

/** The event a sealed input stands for, its data read back from the sealed JSON (so it shares nothing with the input). */
export function auditEventOf(sealed: SealedAuditInput): AuditEvent {
  const data = JSON.parse(sealed.dataJson) as Record<string, unknown>;
  return sealedEvent(sealed.input, data, sealed.seq, sealed.prevHash, sealed.hash);
}

/** Seals an input as the next event after `prev` (or the first). */
export function chainEvent(input: AuditEventInput, prev: Pick<AuditEvent, 'seq' | 'hash'> | undefined): AuditEvent {
  const sealed = sealAuditInput(input, prev);
  return sealedEvent(input, input.data, sealed.seq, sealed.prevHash, sealed.hash);
}

/** The verdict of `verify`: where the chain first breaks, and how. */
export type AuditVerification =
  | { readonly ok: true; readonly count: number; readonly lastSeq: number; readonly lastHash: string }
  | { readonly ok: false; readonly count: number; readonly seq: number; readonly problem: string };

/**
 * Walks events in stored order and checks each one's number, link and hash: an edited event fails its hash, a
 * removed one breaks the numbering and the link, a reordered one breaks the link.
 */
export function verifyChain(
  events: Iterable<AuditEvent>,
  start?: { readonly prev: Pick<AuditEvent, 'seq' | 'hash'>; readonly count: number },
): AuditVerification {
  let prev: Pick<AuditEvent, 'seq' | 'hash'> | undefined = start?.prev;
  let count = start?.count ?? 0;
  for (const event of events) {
    count += 1;
    const expectedSeq = (prev?.seq ?? 0) + 1;
    if (event.seq !== expectedSeq) {
      return {
        ok: false,
        count,
        seq: event.seq,
        problem: `expected event ${expectedSeq} but found ${event.seq}: an event was removed or reordered`,
      };
    }
    if (event.prevHash !== (prev?.hash ?? GENESIS_HASH)) {
      return { ok: false, count, seq: event.seq, problem: `event ${event.seq} does not link to the event before it` };
    }
    const { hash, ...rest } = event;
    if (auditHash(rest) !== hash) {
      return {
        ok: false,
        count,
        seq: event.seq,
        problem: `event ${event.seq} was edited: its content does not match its hash`,
      };
    }
    prev = event;
  }
  return { ok: true, count, lastSeq: prev?.seq ?? 0, lastHash: prev?.hash ?? GENESIS_HASH };
}

import { canonicalJson, sha256Hex } from './canonical-json.js';

/** What an audit event records: permission decisions, invocation transitions, elicitations. */
export type AuditEventType = 'permission.decision' | 'invocation.transition' | 'elicitation';

/** Where a permission decision came from. */
export type DecisionOrigin = 'user_prompt' | 'cache_hit' | 'rule' | 'expired_renewal' | 'no_surface' | 'prompt_timeout';

/** An audit event before it joins the chain. Never holds argument values: only their hash. */
export interface AuditEventInput {
  readonly type: AuditEventType;
  readonly at: number;
  readonly userId: string;
  readonly workspaceId: string;
  readonly conversationId: string | null;
  readonly serverId: string | null;
  readonly tool: string | null;
  readonly argsHash: string | null;
  readonly riskTier: string | null;
  readonly invocationId: string | null;
  /** Type-specific detail: decision and origin; from and to state and outcome; elicitation answer kind. */
  readonly data: Readonly<Record<string, unknown>>;
}

/** An event in the chain: numbered, linked to the one before by its hash. */
export interface AuditEvent extends AuditEventInput {
  readonly seq: number;
  readonly prevHash: string;
  readonly hash: string;
}

/** The hash before the first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** The keys of a sealed event but its hash, in RFC 8785 order (sorted by UTF-16 code units). */
const SEALED_KEYS = [
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
] as const;

/**
 * The RFC 8785 canonical JSON of a sealed event, the same text `canonicalJson` gives, built without sorting or
 * walking the known keys: every call writes several events, and this is most of what sealing one costs. Anything
 * but exactly the known keys with JSON-ready top-level values takes the general path.
 */
export function canonicalEventJson(event: Omit<AuditEvent, 'hash'>): string {
  const record = event as unknown as Record<string, unknown>;
  if (Object.keys(record).length !== SEALED_KEYS.length) return canonicalJson(event);
  let text = '{';
  for (const key of SEALED_KEYS) {
    if (!Object.hasOwn(record, key)) return canonicalJson(event);
    const value = record[key];
    let json: string;
    if (typeof value === 'string' || value === null || typeof value === 'boolean') json = JSON.stringify(value);
    else if (typeof value === 'number' && Number.isFinite(value)) json = JSON.stringify(value);
    else if (key === 'data' && typeof value === 'object') json = canonicalJson(value);
    else return canonicalJson(event);
    text += `${text.length === 1 ? '' : ','}"${key}":${json}`;
  }
  return `${text}}`;
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

/** Seals an input as the next event after `prev` (or the first). */
export function chainEvent(input: AuditEventInput, prev: Pick<AuditEvent, 'seq' | 'hash'> | undefined): AuditEvent {
  const unsealed = auditInputFields(input) as { -readonly [K in keyof Omit<AuditEvent, 'hash'>]?: unknown };
  unsealed.seq = (prev?.seq ?? 0) + 1;
  unsealed.prevHash = prev?.hash ?? GENESIS_HASH;
  const event = unsealed as Omit<AuditEvent, 'hash'>;
  return { ...event, hash: auditHash(event) };
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

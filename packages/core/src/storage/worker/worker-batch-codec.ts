import type { AuditEventInput } from '../../store/audit-record.js';
import type { ModelPayload } from '../../store/bounded-result-types.js';
import type { InvocationRecord, ResultRecord, TransitionRecord } from '../../store/invocation-record.js';
import type { Scope } from '../../scope.js';
import type { StoreWrite } from '../../store/host-store.js';

// How a batch crosses to the store's worker. Structured cloning writes every key of every object again: a call's four
// writes (its record, three transitions, four audit events, its result) were about 3 KB and 8 µs of the calling
// thread's CPU. The call path's own kinds cross as arrays of their fields' values in a fixed order (half the cloning
// work), and an audit event sends only the fields that differ from the batch's audit event before it (a call's events
// share their tenant, tool, arguments' hash and call); every other write, and any write that is not of the shape its
// kind names, crosses as it is. Internal to storage/worker/.

/** A write as it crosses: the call path's kinds as their values, tagged; anything else as it is. */
export type WireWrite = StoreWrite | unknown[];

const CREATE = 1;
const TRANSITION = 2;
const AUDIT = 3;

/** An audit event's fields but its data, in the order they cross. */
const AUDIT_FIELDS = [
  'type',
  'at',
  'userId',
  'workspaceId',
  'conversationId',
  'serverId',
  'tool',
  'argsHash',
  'riskTier',
  'invocationId',
] as const satisfies readonly (keyof AuditEventInput)[];

/** No audit event: the flag a write without one sends. */
const NO_AUDIT = -1;

/** What no field holds: the fields before a batch's first audit event. */
const NOTHING: unknown = Symbol('nothing');

/**
 * The audit events of one batch, each after the one before: a flag (`NO_AUDIT`, or a bit per field that is the same
 * as the event before's, which is then not sent), the other fields in `AUDIT_FIELDS` order, and the data.
 */
class AuditDelta {
  readonly #last: unknown[] = AUDIT_FIELDS.map(() => NOTHING);
  readonly #read: unknown[] = AUDIT_FIELDS.map(() => NOTHING);

  push(out: unknown[], a: AuditEventInput | undefined): unknown[] {
    if (a === undefined) {
      out.push(NO_AUDIT);
      return out;
    }
    // Read whole first: a getter that throws leaves the delta as it was (the write then crosses as it is).
    const values = this.#read;
    values[0] = a.type;
    values[1] = a.at;
    values[2] = a.userId;
    values[3] = a.workspaceId;
    values[4] = a.conversationId;
    values[5] = a.serverId;
    values[6] = a.tool;
    values[7] = a.argsHash;
    values[8] = a.riskTier;
    values[9] = a.invocationId;
    const data = a.data;
    const flagAt = out.length;
    let same = 0;
    out.push(0);
    for (let i = 0; i < values.length; i++) {
      if (values[i] === this.#last[i]) same |= 1 << i;
      else out.push(values[i]);
      this.#last[i] = values[i];
    }
    out[flagAt] = same;
    out.push(data);
    return out;
  }

  read(r: Reader): AuditEventInput | undefined {
    const same = r.next<number>();
    if (same === NO_AUDIT) return undefined;
    for (let i = 0; i < AUDIT_FIELDS.length; i++) if ((same & (1 << i)) === 0) this.#last[i] = r.next();
    const v = this.#last;
    return {
      type: v[0],
      at: v[1],
      userId: v[2],
      workspaceId: v[3],
      conversationId: v[4],
      serverId: v[5],
      tool: v[6],
      argsHash: v[7],
      riskTier: v[8],
      invocationId: v[9],
      data: r.next(),
    } as AuditEventInput;
  }
}

/** In a sent result, a text that is the result's `fullText` (sent once); a model content that is that one text. */
const SAME_AS_FULL = 0;
const ONE_FULL_TEXT = 1;

/**
 * A result as it crosses: its framed text is usually held three times (the model's content block, the model's text and
 * `fullText`), and cloning writes a string again each time it meets it. Sent as its values in a fixed order, each copy
 * of `fullText` as a number; a result with any field this does not name crosses as it is.
 */
function encodeResult(r: ResultRecord | undefined): unknown {
  if (r === undefined) return undefined;
  const m: ModelPayload = r.model;
  const full = r.fullText;
  if (!plainWith(r, RESULT_KEYS) || !plainWith(m, MODEL_KEYS)) return r;
  if (typeof full !== 'string' || typeof m.text !== 'string' || !Array.isArray(m.content)) return r;
  const content: readonly unknown[] = m.content;
  const only = content.length === 1 ? (content[0] as { type?: unknown; text?: unknown } | undefined) : undefined;
  const oneText =
    typeof only === 'object' &&
    only !== null &&
    only.type === 'text' &&
    only.text === full &&
    plainWith(only, TEXT_KEYS);
  return [
    r.invocationId,
    oneText ? ONE_FULL_TEXT : m.content,
    m.text === full ? SAME_AS_FULL : m.text,
    m.isError,
    m.truncation,
    r.screen,
    full,
    r.rawJson,
    r.expiredAt,
  ];
}

function decodeResult(value: unknown): ResultRecord | undefined {
  if (!Array.isArray(value)) return value as ResultRecord | undefined;
  const [invocationId, content, text, isError, truncation, screen, fullText, rawJson, expiredAt] = value as [
    string,
    ModelPayload['content'] | typeof ONE_FULL_TEXT,
    string | typeof SAME_AS_FULL,
    boolean,
    ModelPayload['truncation'],
    ResultRecord['screen'],
    string,
    string,
    number | undefined,
  ];
  const model: ModelPayload = {
    content: content === ONE_FULL_TEXT ? [{ type: 'text', text: fullText }] : content,
    text: text === SAME_AS_FULL ? fullText : text,
    isError,
    ...(truncation === undefined ? {} : { truncation }),
  };
  return { invocationId, model, screen, fullText, rawJson, ...(expiredAt === undefined ? {} : { expiredAt }) };
}

const RESULT_KEYS: ReadonlySet<string> = new Set([
  'invocationId',
  'model',
  'screen',
  'fullText',
  'rawJson',
  'expiredAt',
]);
const MODEL_KEYS: ReadonlySet<string> = new Set(['content', 'text', 'isError', 'truncation']);
const TEXT_KEYS: ReadonlySet<string> = new Set(['type', 'text']);

/** True for a plain object whose own keys are all named (a key holding undefined would not survive, so it is refused). */
function plainWith(o: object, keys: ReadonlySet<string>): boolean {
  if (Object.getPrototypeOf(o) !== Object.prototype) return false;
  for (const k in o) if (!keys.has(k) || (o as Record<string, unknown>)[k] === undefined) return false;
  return true;
}

function pushTransition(out: unknown[], t: TransitionRecord): void {
  out.push(t.invocationId, t.seq, t.from, t.to, t.at, t.outcome, t.error);
}

function encodeWrite(w: StoreWrite, audits: AuditDelta): WireWrite {
  switch (w.kind) {
    case 'create': {
      const r = w.record;
      const out: unknown[] = [CREATE, r.id, r.scope, r.caller, r.tool, r.serverId, r.originalName];
      out.push(r.definitionHash, r.args, r.argsHash, r.state, r.outcome, r.error, r.createdAt, r.updatedAt);
      out.push(r.modelCallId ?? null, r.messageId ?? null);
      pushTransition(out, w.first);
      return audits.push(out, w.audit);
    }
    case 'transition': {
      const out: unknown[] = [TRANSITION, w.scope];
      pushTransition(out, w.transition);
      out.push(encodeResult(w.result));
      return audits.push(out, w.audit);
    }
    case 'audit':
      return audits.push([AUDIT], w.audit);
    default:
      return w;
  }
}

/** The batch as it crosses to the worker (`decodeBatch` gives it back). */
export function encodeBatch(batch: readonly StoreWrite[]): WireWrite[] {
  const out: WireWrite[] = [];
  const audits = new AuditDelta();
  for (const w of batch) {
    try {
      out.push(encodeWrite(w, audits));
    } catch {
      // Not the shape its kind names (a caller's mistake the store refuses): it crosses as it is.
      out.push(w);
    }
  }
  return out;
}

/** Reads a value of the wire at `at`. */
class Reader {
  constructor(
    readonly values: readonly unknown[],
    public at: number,
  ) {}

  next<T>(): T {
    return this.values[this.at++] as T;
  }

  transition(): TransitionRecord {
    return {
      invocationId: this.next(),
      seq: this.next(),
      from: this.next(),
      to: this.next(),
      at: this.next(),
      outcome: this.next(),
      error: this.next(),
    };
  }
}

function decodeWrite(values: readonly unknown[], audits: AuditDelta): StoreWrite {
  const r = new Reader(values, 1);
  switch (values[0]) {
    case CREATE: {
      const fields: InvocationRecord = {
        id: r.next(),
        scope: r.next(),
        caller: r.next(),
        tool: r.next(),
        serverId: r.next(),
        originalName: r.next(),
        definitionHash: r.next(),
        args: r.next(),
        argsHash: r.next(),
        state: r.next(),
        outcome: r.next(),
        error: r.next(),
        createdAt: r.next(),
        updatedAt: r.next(),
      };
      const modelCallId = r.next<string | null>();
      const messageId = r.next<string | null>();
      const withModel = modelCallId === null ? fields : { ...fields, modelCallId };
      const record = messageId === null ? withModel : { ...withModel, messageId };
      const first = r.transition();
      const audit = audits.read(r);
      return audit === undefined ? { kind: 'create', record, first } : { kind: 'create', record, first, audit };
    }
    case TRANSITION: {
      const scope = r.next<Scope>();
      const transition = r.transition();
      const result = decodeResult(r.next());
      const audit = audits.read(r);
      return {
        kind: 'transition',
        scope,
        transition,
        ...(result === undefined ? {} : { result }),
        ...(audit === undefined ? {} : { audit }),
      };
    }
    default:
      return { kind: 'audit', audit: audits.read(r) as AuditEventInput };
  }
}

/** The batch `encodeBatch` sent, as the store takes it; a write that crossed as it is stays as it is. */
export function decodeBatch(wire: readonly WireWrite[]): StoreWrite[] {
  const audits = new AuditDelta();
  return wire.map((w) => (Array.isArray(w) ? decodeWrite(w, audits) : w));
}

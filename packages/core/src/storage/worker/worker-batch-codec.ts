import type { AuditEventInput } from '../../audit/audit-event.js';
import type { InvocationRecord, ResultRecord, TransitionRecord } from '../../invocations/invocation-record.js';
import type { Scope } from '../../scope.js';
import type { StoreWrite } from '../host-store.js';

// How a batch crosses to the store's worker. Structured cloning writes every key of every object again: a call's four
// writes (its record, three transitions, four audit events, its result) were about 3 KB and 8 µs of the calling
// thread's CPU. The call path's own kinds cross as arrays of their fields' values in a fixed order (half the cloning
// work); every other write, and any write that is not of the shape its kind names, crosses as it is. Internal to
// storage/worker/.

/** A write as it crosses: the call path's kinds as their values, tagged; anything else as it is. */
export type WireWrite = StoreWrite | unknown[];

const CREATE = 1;
const TRANSITION = 2;
const AUDIT = 3;

/** The values of an audit event, appended to `out` after a presence flag (0: the write has none). */
function pushAudit(out: unknown[], a: AuditEventInput | undefined): unknown[] {
  if (a === undefined) out.push(0);
  else {
    out.push(1, a.type, a.at, a.userId, a.workspaceId, a.conversationId, a.serverId, a.tool, a.argsHash);
    out.push(a.riskTier, a.invocationId, a.data);
  }
  return out;
}

function pushTransition(out: unknown[], t: TransitionRecord): void {
  out.push(t.invocationId, t.seq, t.from, t.to, t.at, t.outcome, t.error);
}

function encodeWrite(w: StoreWrite): WireWrite {
  switch (w.kind) {
    case 'create': {
      const r = w.record;
      const out: unknown[] = [CREATE, r.id, r.scope, r.caller, r.tool, r.serverId, r.originalName];
      out.push(r.definitionHash, r.args, r.argsHash, r.state, r.outcome, r.error, r.createdAt, r.updatedAt);
      pushTransition(out, w.first);
      return pushAudit(out, w.audit);
    }
    case 'transition': {
      const out: unknown[] = [TRANSITION, w.scope];
      pushTransition(out, w.transition);
      out.push(w.result);
      return pushAudit(out, w.audit);
    }
    case 'audit':
      return pushAudit([AUDIT], w.audit);
    default:
      return w;
  }
}

/** The batch as it crosses to the worker (`decodeBatch` gives it back). */
export function encodeBatch(batch: readonly StoreWrite[]): WireWrite[] {
  const out: WireWrite[] = [];
  for (const w of batch) {
    try {
      out.push(encodeWrite(w));
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

  /** The audit event, or undefined when the write had none. */
  audit(): AuditEventInput | undefined {
    if (this.next<number>() === 0) return undefined;
    return {
      type: this.next(),
      at: this.next(),
      userId: this.next(),
      workspaceId: this.next(),
      conversationId: this.next(),
      serverId: this.next(),
      tool: this.next(),
      argsHash: this.next(),
      riskTier: this.next(),
      invocationId: this.next(),
      data: this.next(),
    };
  }
}

function decodeWrite(values: readonly unknown[]): StoreWrite {
  const r = new Reader(values, 1);
  switch (values[0]) {
    case CREATE: {
      const record: InvocationRecord = {
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
      const first = r.transition();
      const audit = r.audit();
      return audit === undefined ? { kind: 'create', record, first } : { kind: 'create', record, first, audit };
    }
    case TRANSITION: {
      const scope = r.next<Scope>();
      const transition = r.transition();
      const result = r.next<ResultRecord | undefined>();
      const audit = r.audit();
      return {
        kind: 'transition',
        scope,
        transition,
        ...(result === undefined ? {} : { result }),
        ...(audit === undefined ? {} : { audit }),
      };
    }
    default:
      return { kind: 'audit', audit: r.audit() as AuditEventInput };
  }
}

/** The batch `encodeBatch` sent, as the store takes it; a write that crossed as it is stays as it is. */
export function decodeBatch(wire: readonly WireWrite[]): StoreWrite[] {
  return wire.map((w) => (Array.isArray(w) ? decodeWrite(w) : w));
}

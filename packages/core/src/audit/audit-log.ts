import { HostError } from '../errors/host-error.js';
import type { AuditQuery, HostStore } from '../storage/host-store.js';
import type { AuditEvent, AuditVerification } from './audit-event.js';
import { verifyChain } from './audit-event.js';

const PAGE = 5_000;

/** A tenant's view of the audit log: only its own events. */
export interface AuditQueryOptions extends Omit<AuditQuery, 'userId' | 'workspaceId'> {
  readonly scope: { readonly userId: string; readonly workspaceId: string };
}

/**
 * The audit log as the host exposes it: query a tenant's events, export them as NDJSON, and verify the whole hash
 * chain. Reads wait for queued history writes first, so the log never lags what callers were told.
 */
export class AuditLog {
  constructor(
    private readonly store: HostStore,
    /** The history writer: a read first brings in what it has queued (only `drain` is needed of it). */
    private readonly writes: { drain(): Promise<void> },
  ) {}

  async query(options: AuditQueryOptions): Promise<AuditEvent[]> {
    const { scope, ...filters } = options;
    if (typeof scope?.userId !== 'string' || typeof scope.workspaceId !== 'string') {
      throw new HostError('invalid_scope', 'audit queries need scope.userId and scope.workspaceId');
    }
    await this.writes.drain();
    return this.store.queryAudit({ ...filters, userId: scope.userId, workspaceId: scope.workspaceId });
  }

  /** The tenant's events (or, with `all`, every tenant's: an operator's export) as NDJSON, oldest first. */
  async export(options: { scope: { userId: string; workspaceId: string } } | { all: true }): Promise<string> {
    await this.writes.drain();
    const filter = 'all' in options ? {} : { userId: options.scope.userId, workspaceId: options.scope.workspaceId };
    const lines: string[] = [];
    for await (const page of this.#pages(filter)) for (const event of page) lines.push(JSON.stringify(event));
    return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  }

  /** Walks the whole chain and reports the first edited, removed or reordered event. */
  async verify(): Promise<AuditVerification> {
    await this.writes.drain();
    let state: AuditVerification = { ok: true, count: 0, lastSeq: 0, lastHash: '' };
    for await (const page of this.#pages({})) {
      if (!state.ok) break;
      state = verifyChain(
        page,
        state.count === 0 ? undefined : { prev: { seq: state.lastSeq, hash: state.lastHash }, count: state.count },
      );
    }
    if (state.ok && state.count === 0) return verifyChain([]);
    return state;
  }

  async *#pages(filter: AuditQuery): AsyncGenerator<AuditEvent[]> {
    let afterSeq = 0;
    for (;;) {
      const page = await this.store.queryAudit({ ...filter, afterSeq, limit: PAGE });
      if (page.length === 0) return;
      yield page;
      afterSeq = page[page.length - 1]!.seq;
      if (page.length < PAGE) return;
    }
  }
}

import type { Clock } from '../clock.js';
import { systemClock } from '../clock.js';
import { HostError } from '../errors/host-error.js';
import type { AuditQuery, HostStore, StoreWrite } from '../store/host-store.js';
import type { AuditAnchor } from './audit-anchor.js';
import { appendAnchor } from './audit-anchor.js';
import { checkpointInput } from './audit-checkpoint.js';
import type { AuditVerification } from './audit-chain.js';
import type { AuditEvent } from '../store/audit-record.js';
import { GENESIS_HASH } from './audit-chain.js';
import { checkAnchors, findCheckpoint, walkChain } from './chain-walk.js';
import { seedDecisionEvent } from './seed-decision-event.js';

const PAGE = 5_000;

/** The most events one prune deletes in one write: a long retention backlog goes in several short transactions. */
export const PRUNE_BATCH = 5_000;

/** A tenant's view of the audit log: only its own events. */
export interface AuditQueryOptions extends Omit<AuditQuery, 'userId' | 'workspaceId'> {
  readonly scope: { readonly userId: string; readonly workspaceId: string };
}

/** What `export` writes: `ndjson` (default) every event as stored; `seed` decision events in seed 003 R6's schema. */
export type AuditExportFormat = 'ndjson' | 'seed';

/** The verdict of `AuditLog.verify`: the chain's, plus where the walk started (0: genesis; else a checkpoint's event). */
export type AuditLogVerification = AuditVerification & {
  /** The walk started after this event: 0 from genesis, else the last event the latest checkpoint pruned. */
  readonly startedAfter: number;
  /** The checkpoint it started from, or null from genesis. */
  readonly checkpointSeq: number | null;
  /** How many anchors were checked. */
  readonly anchors: number;
};

/** What one prune did: the events deleted and the checkpoint written (none when there was nothing to prune). */
export interface PruneReport {
  readonly pruned: number;
  readonly throughSeq: number | null;
  readonly checkpointSeq: number | null;
}

/** Where and how often the chain head is anchored. */
export interface AuditAnchorConfig {
  /** NDJSON file, outside the data directory, that `anchor()` appends each head to. */
  readonly anchorFile?: string;
  /** Anchor every this many milliseconds of the host's clock (needs `anchorFile`). */
  readonly anchorEveryMs?: number;
}

/**
 * The audit log as the host exposes it: query a tenant's events, export them (NDJSON, or the seed's schema), verify
 * the hash chain from its latest checkpoint and against anchors, prune old events behind a checkpoint, and anchor
 * the chain head outside the store. Reads wait for queued history writes first, so the log never lags what callers
 * were told.
 */
export class AuditLog {
  readonly #clock: Clock;
  readonly #config: AuditAnchorConfig;
  #stopAnchoring: (() => void) | undefined;
  #lastHead: number | undefined;
  #scheduled: Promise<AuditAnchor | undefined> = Promise.resolve(undefined);

  constructor(
    private readonly store: HostStore,
    /** The history writer: a read first brings in what it has queued; a prune commits through it, in order. */
    private readonly writes: { drain(): Promise<void>; commit(write: StoreWrite): Promise<void> },
    options: { readonly clock?: Clock } & AuditAnchorConfig = {},
  ) {
    this.#clock = options.clock ?? systemClock;
    this.#config = options;
  }

  async query(options: AuditQueryOptions): Promise<AuditEvent[]> {
    const { scope, ...filters } = options;
    if (typeof scope?.userId !== 'string' || typeof scope.workspaceId !== 'string') {
      throw new HostError('invalid_scope', 'audit queries need scope.userId and scope.workspaceId');
    }
    await this.writes.drain();
    return this.store.queryAudit({ ...filters, userId: scope.userId, workspaceId: scope.workspaceId });
  }

  /**
   * The tenant's events (or, with `all`, every tenant's: an operator's export), oldest first, one JSON object a line.
   * `format: 'seed'` writes only permission decisions, in seed 003 R6's schema (see `seedDecisionEvent`).
   */
  async export(
    options: ({ scope: { userId: string; workspaceId: string } } | { all: true }) & { format?: AuditExportFormat },
  ): Promise<string> {
    const format = options.format ?? 'ndjson';
    if (format !== 'ndjson' && format !== 'seed') {
      throw new HostError('invalid_arguments', `unknown audit export format ${String(format)}: use ndjson or seed`);
    }
    await this.writes.drain();
    const filter: AuditQuery =
      'all' in options ? {} : { userId: options.scope.userId, workspaceId: options.scope.workspaceId };
    if (format === 'seed') Object.assign(filter, { type: 'permission.decision' });
    const lines: string[] = [];
    for await (const page of this.#pages(filter)) {
      for (const event of page) {
        const shaped = format === 'seed' ? seedDecisionEvent(event) : event;
        if (shaped !== undefined) lines.push(JSON.stringify(shaped));
      }
    }
    return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  }

  /**
   * Walks the chain from its latest checkpoint (or genesis) and reports the first edited, removed or reordered event;
   * with `anchors`, also that the chain still reaches every anchored head (the event is there with that hash, or a
   * checkpoint covers it), so deleting the newest events after an anchor is reported.
   */
  async verify(options: { anchors?: readonly AuditAnchor[] } = {}): Promise<AuditLogVerification> {
    await this.writes.drain();
    const checkpoint = await findCheckpoint(this.#pages({ type: 'audit.checkpoint' }));
    const startedAfter = checkpoint?.throughSeq ?? 0;
    const anchors = options.anchors ?? [];
    const walked = await walkChain(
      this.#pages({ afterSeq: startedAfter }),
      checkpoint === undefined ? undefined : { seq: checkpoint.throughSeq, hash: checkpoint.throughHash },
      anchors,
    );
    const verdict = walked.verdict.ok ? checkAnchors(walked, anchors, checkpoint) : walked.verdict;
    return { ...verdict, startedAfter, checkpointSeq: checkpoint?.seq ?? null, anchors: anchors.length };
  }

  /**
   * Deletes every event up to `throughSeq`, or every event stamped before `before`, behind a checkpoint event (see
   * the `audit.prune` store write), at most `PRUNE_BATCH` events per write. `verify` then starts from the checkpoint.
   */
  async prune(options: { throughSeq?: number; before?: number }): Promise<PruneReport> {
    await this.writes.drain();
    let pruned = 0;
    let last: { throughSeq: number; checkpointSeq: number } | undefined;
    for (;;) {
      const head = await this.store.queryAudit({ limit: PRUNE_BATCH + 1 });
      const first = head[0];
      if (first === undefined) break;
      let through: AuditEvent | undefined;
      for (const event of head.slice(0, PRUNE_BATCH)) {
        const wanted =
          (options.throughSeq === undefined || event.seq <= options.throughSeq) &&
          (options.before === undefined || event.at < options.before);
        if (!wanted) break;
        through = event;
      }
      if (through === undefined) break;
      const count = through.seq - first.seq + 1;
      const checkpoint = checkpointInput(through, count, this.#clock.now());
      await this.writes.commit({ kind: 'audit.prune', throughSeq: through.seq, checkpoint });
      pruned += count;
      last = { throughSeq: through.seq, checkpointSeq: (await this.#head())?.seq ?? 0 };
      if (count < PRUNE_BATCH) break;
    }
    return { pruned, throughSeq: last?.throughSeq ?? null, checkpointSeq: last?.checkpointSeq ?? null };
  }

  /** How many events are stamped before `before`, counting at most `cap` (a dry run of a prune). */
  async countBefore(before: number, cap: number): Promise<number> {
    await this.writes.drain();
    let count = 0;
    for await (const page of this.#pages({ until: before - 1 })) {
      count += page.length;
      if (count >= cap) return cap;
    }
    return count;
  }

  /** The configured anchor file, if any: where `anchor()` appends by default. */
  get anchorFile(): string | undefined {
    return this.#config.anchorFile;
  }

  /** The chain head now, `{ seq, hash, at }`; appended to `anchorFile` when configured (or to `file` when given). */
  async anchor(options: { file?: string } = {}): Promise<AuditAnchor> {
    await this.writes.drain();
    const head = await this.#head();
    const anchor = { seq: head?.seq ?? 0, hash: head?.hash ?? GENESIS_HASH, at: this.#clock.now() };
    const file = options.file ?? this.#config.anchorFile;
    if (file !== undefined) await appendAnchor(file, anchor);
    return anchor;
  }

  /**
   * Anchors the head every `anchorEveryMs` on the host's clock, when configured; `onError` hears a failed anchor
   * (the schedule goes on). Returns what stops it.
   */
  startAnchoring(onError: (error: unknown) => void): () => void {
    const every = this.#config.anchorEveryMs;
    if (every === undefined || this.#config.anchorFile === undefined) return () => undefined;
    if (!Number.isFinite(every) || every <= 0) {
      throw new HostError('config_invalid', `audit.anchorEveryMs must be a positive number, not ${String(every)}`);
    }
    const tick = () => {
      this.#stopAnchoring = this.#clock.setTimer(tick, every);
      this.#scheduled = this.anchor().catch((error: unknown) => {
        onError(error);
        return undefined;
      });
    };
    this.#stopAnchoring = this.#clock.setTimer(tick, every);
    return () => this.#stopAnchoring?.();
  }

  /**
   * The last scheduled anchor, once appended (undefined before the first, or when it failed): what a test awaits
   * after moving the clock, and what closing waits for so no anchor is cut off mid-write.
   */
  anchoring(): Promise<AuditAnchor | undefined> {
    return this.#scheduled;
  }

  /**
   * The newest event: the store's pages are oldest first, so the last page's last event. The walk starts at the head
   * found last time (a whole walk only when that event is gone), so a schedule of anchors does not re-read the chain.
   */
  async #head(): Promise<AuditEvent | undefined> {
    let head: AuditEvent | undefined;
    const from = this.#lastHead;
    if (from !== undefined) {
      for await (const page of this.#pages({ afterSeq: from - 1 })) head = page.at(-1);
      if (head !== undefined && head.seq >= from) return this.#remember(head);
    }
    for await (const page of this.#pages({})) head = page.at(-1);
    return this.#remember(head);
  }

  #remember(head: AuditEvent | undefined): AuditEvent | undefined {
    this.#lastHead = head?.seq;
    return head;
  }

  async *#pages(filter: AuditQuery): AsyncGenerator<AuditEvent[]> {
    let afterSeq = filter.afterSeq ?? 0;
    for (;;) {
      const page = await this.store.queryAudit({ ...filter, afterSeq, limit: PAGE });
      if (page.length === 0) return;
      yield page;
      afterSeq = page[page.length - 1]!.seq;
      if (page.length < PAGE) return;
    }
  }
}

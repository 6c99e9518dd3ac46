import { SYSTEM_TENANT } from '../audit/audit-checkpoint.js';
import type { AuditEventInput } from '../store/audit-record.js';
import type { Clock } from '../clock.js';
import type { HostStore, RetentionQuery, StoreWrite } from '../store/host-store.js';
import { DAY_MS } from './retention-config.js';
import type { ResolvedRetention } from './retention-config.js';
import { auditEvent } from '../audit/audit-event-builder.js';
import type { StoredDecision } from '../store/decision-record.js';
import { sweepExpiredDecisions } from './sweep-expired-decisions.js';
import { sweepStaleConversations } from './sweep-stale-conversations.js';

/** What a sweep removed (or, dry, would remove). */
export interface RetentionReport {
  readonly dryRun: boolean;
  /** Results whose whole text went (the history row keeps the model and screen payloads). */
  readonly results: number;
  /** History rows deleted: calls with their transitions and results. */
  readonly invocations: number;
  /** Audit events pruned behind a checkpoint. */
  readonly auditEvents: number;
  /** Conversations deleted (`retention.conversations`). */
  readonly conversations: number;
  /** Stored permission decisions deleted, past their expiry by `retention.expiredDecisions`. */
  readonly expiredDecisions: number;
  /** True when a dry run stopped counting at a page's end: at least this much would go. */
  readonly capped: boolean;
}

/** What the sweep needs of the host: the store to read, the history writer to write through, the audit log to prune. */
export interface RetentionSweepDeps {
  readonly store: HostStore;
  readonly writes: { drain(): Promise<void>; commit(write: StoreWrite): Promise<void> };
  readonly audit: {
    prune(options: { before: number }): Promise<{ pruned: number }>;
    countBefore(before: number, cap: number): Promise<number>;
  };
  readonly clock: Clock;
  readonly retention: ResolvedRetention;
  /** Told of the expired decisions deleted, so the permission engine's copy in memory drops them too. */
  readonly forgetDecisions?: ((decisions: readonly StoredDecision[]) => void) | undefined;
}

/** The most batches of one kind one sweep writes; the next sweep goes on where it stopped. */
const MAX_BATCHES = 1_000;
/** How many rows a dry run counts of each kind before saying "at least". */
const DRY_RUN_CAP = 1_000;

/** One group of workspaces that share windows: one named workspace, or every workspace but the named ones. */
interface Group {
  readonly where: Pick<RetentionQuery, 'workspaceId' | 'exceptWorkspaces'>;
  readonly results: number | null;
  readonly history: number | null;
}

function sweepEvent(at: number, data: Record<string, unknown>): AuditEventInput {
  return auditEvent({ type: 'retention.sweep', at, scope: SYSTEM_TENANT, data });
}

/**
 * Removes what the retention windows say has aged out, in small batches (one store write per batch, each with its own
 * `retention.sweep` audit event saying what it removed), so no sweep holds the store in one long transaction. Only
 * ended calls are candidates (the store re-checks it inside each write), so a running call, and the open question
 * or progress it holds, is never touched. Conversations not updated within their window, and decisions past their
 * expiry by theirs, go too. `dryRun` counts what would go and changes nothing.
 */
export async function sweepRetention(
  deps: RetentionSweepDeps,
  options: { dryRun?: boolean } = {},
): Promise<RetentionReport> {
  const { retention, clock } = deps;
  const dryRun = options.dryRun === true;
  // What callers were told has ended is in the store before the sweep reads it.
  await deps.writes.drain();
  const now = clock.now();
  const named = Object.keys(retention.workspaces);
  const groups: Group[] = [
    {
      where: named.length === 0 ? {} : { exceptWorkspaces: named },
      results: retention.results,
      history: retention.history,
    },
    ...named.map((id) => ({ where: { workspaceId: id }, ...retention.workspaces[id]! })),
  ];
  let results = 0;
  let invocations = 0;
  let capped = false;
  for (const group of groups) {
    for (const kind of ['results', 'invocations'] as const) {
      const window = kind === 'results' ? group.results : group.history;
      if (window === null) continue;
      const before = now - window * DAY_MS;
      const swept = await sweepKind(deps, { ...group.where, kind, before }, dryRun);
      if (kind === 'results') results += swept.count;
      else invocations += swept.count;
      capped ||= swept.capped;
    }
  }
  let auditEvents = 0;
  if (retention.audit !== null) {
    const before = now - retention.audit * DAY_MS;
    if (dryRun) {
      auditEvents = await deps.audit.countBefore(before, DRY_RUN_CAP);
      capped ||= auditEvents >= DRY_RUN_CAP;
    } else auditEvents = (await deps.audit.prune({ before })).pruned;
  }
  let conversations = 0;
  if (retention.conversations !== null) {
    const before = now - retention.conversations * DAY_MS;
    const options = { before, batch: retention.batch, maxBatches: MAX_BATCHES, dryRun, cap: DRY_RUN_CAP };
    const swept = await sweepStaleConversations(deps, options);
    conversations = swept.count;
    capped ||= swept.capped;
  }
  let expiredDecisions = 0;
  if (retention.expiredDecisions !== null) {
    const before = now - retention.expiredDecisions * DAY_MS;
    const forget = deps.forgetDecisions;
    expiredDecisions = await sweepExpiredDecisions({ ...deps, forget }, { before, batch: retention.batch, dryRun });
  }
  return { dryRun, results, invocations, auditEvents, conversations, expiredDecisions, capped };
}

async function sweepKind(
  deps: RetentionSweepDeps,
  query: Omit<RetentionQuery, 'limit'>,
  dryRun: boolean,
): Promise<{ count: number; capped: boolean }> {
  const batch = deps.retention.batch;
  if (dryRun) {
    const found = await deps.store.listRetention({ ...query, limit: DRY_RUN_CAP });
    return { count: found.length, capped: found.length >= DRY_RUN_CAP };
  }
  let count = 0;
  for (let i = 0; i < MAX_BATCHES; i += 1) {
    const found = await deps.store.listRetention({ ...query, limit: batch });
    if (found.length === 0) break;
    const ids = found.map((c) => c.invocationId);
    const at = deps.clock.now();
    await deps.writes.commit({
      kind: 'retention.delete',
      expireResults: query.kind === 'results' ? ids : [],
      deleteInvocations: query.kind === 'invocations' ? ids : [],
      at,
      audit: sweepEvent(at, {
        kind: query.kind,
        count: ids.length,
        before: query.before,
        workspaceId: query.workspaceId ?? null,
        exceptWorkspaces: query.exceptWorkspaces ?? [],
        oldestEndedAt: found[0]!.endedAt,
        newestEndedAt: found.at(-1)!.endedAt,
      }),
    });
    count += ids.length;
    if (found.length < batch) break;
  }
  return { count, capped: false };
}

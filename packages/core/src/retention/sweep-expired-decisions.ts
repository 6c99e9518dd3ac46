import { auditEvent } from '../audit/audit-event-builder.js';
import type { Clock } from '../clock.js';
import type { StoredDecision } from '../store/decision-record.js';
import type { HostStore, StoreWrite } from '../store/host-store.js';

/** What deleting expired decisions needs: the store, the history writer, the clock, and the engine to tell. */
export interface ExpiredDecisionDeps {
  readonly store: Pick<HostStore, 'listDecisions'>;
  readonly writes: { commit(write: StoreWrite): Promise<void> };
  readonly clock: Clock;
  /** Told of what went, so the permission engine's copy in memory drops it too. */
  readonly forget?: ((decisions: readonly StoredDecision[]) => void) | undefined;
}

const tenantKey = (d: StoredDecision) => JSON.stringify([d.userId, d.workspaceId]);

/**
 * Deletes stored decisions that expired before `before` (an allow for one conversation of a gateway session long
 * ended, an allow always run out), in batches of at most `batch` ids of one tenant per store write, each with a
 * `permission.decision` audit event per decision saying retention removed it. `dryRun` only counts. Decisions are
 * few (the engine holds them all in memory), so one read of them all is the candidates.
 */
export async function sweepExpiredDecisions(
  deps: ExpiredDecisionDeps,
  options: { before: number; batch: number; dryRun: boolean },
): Promise<number> {
  const expired = (await deps.store.listDecisions({})).filter(
    (d) => d.expiresAt !== null && d.expiresAt < options.before,
  );
  if (options.dryRun || expired.length === 0) return expired.length;
  const byTenant = new Map<string, StoredDecision[]>();
  for (const d of expired) byTenant.set(tenantKey(d), [...(byTenant.get(tenantKey(d)) ?? []), d]);
  for (const decisions of byTenant.values()) {
    for (let i = 0; i < decisions.length; i += options.batch) {
      const doomed = decisions.slice(i, i + options.batch);
      const at = deps.clock.now();
      await deps.writes.commit({
        kind: 'decision.delete',
        scope: { userId: doomed[0]!.userId, workspaceId: doomed[0]!.workspaceId },
        ids: doomed.map((d) => d.id),
        audit: doomed.map((d) =>
          auditEvent({
            type: 'permission.decision',
            at,
            scope: d,
            serverId: d.serverId,
            tool: d.tool,
            argsHash: d.argsHash,
            riskTier: d.riskTier,
            data: { decision: 'revoke', via: 'retention', decisionId: d.id, expiredAt: d.expiresAt },
          }),
        ),
      });
      deps.forget?.(doomed);
    }
  }
  return expired.length;
}

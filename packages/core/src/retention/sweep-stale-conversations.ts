import { SYSTEM_TENANT } from '../audit/audit-checkpoint.js';
import { auditEvent } from '../audit/audit-event-builder.js';
import type { Clock } from '../clock.js';
import type { HostStore, StoreWrite } from '../store/host-store.js';

/** What deleting old conversations needs: the store, the history writer (drained before each batch), the clock. */
export interface StaleConversationDeps {
  readonly store: Pick<HostStore, 'listStaleConversations' | 'write'>;
  readonly writes: { drain(): Promise<void> };
  readonly clock: Clock;
}

/**
 * Deletes every tenant's conversations last updated before `before`, a batch per store write (with a
 * `retention.sweep` audit event saying how many and of which age), at most `maxBatches`; `dryRun` counts at most
 * `cap`. Returns how many went (or would go) and whether a dry count stopped at its cap.
 */
export async function sweepStaleConversations(
  deps: StaleConversationDeps,
  options: { before: number; batch: number; maxBatches: number; dryRun: boolean; cap: number },
): Promise<{ count: number; capped: boolean }> {
  const { before, batch } = options;
  if (options.dryRun) {
    const found = await deps.store.listStaleConversations({ before, limit: options.cap });
    return { count: found.length, capped: found.length >= options.cap };
  }
  let count = 0;
  for (let i = 0; i < options.maxBatches; i += 1) {
    const found = await deps.store.listStaleConversations({ before, limit: batch });
    if (found.length === 0) break;
    const at = deps.clock.now();
    const data = {
      kind: 'conversations',
      count: found.length,
      before,
      oldestUpdatedAt: found[0]!.updatedAt,
      newestUpdatedAt: found.at(-1)!.updatedAt,
    };
    const deletes = found.map((c): StoreWrite => ({
      kind: 'conversation.delete',
      tenant: { userId: c.userId, workspaceId: c.workspaceId },
      id: c.id,
    }));
    // One store write: the conversations go with the event that tells of them, or neither does; after the queue, so
    // the audit chain keeps the order things happened in.
    await deps.writes.drain();
    await deps.store.write([
      ...deletes,
      { kind: 'audit', audit: auditEvent({ type: 'retention.sweep', at, scope: SYSTEM_TENANT, data }) },
    ]);
    count += found.length;
    if (found.length < batch) break;
  }
  return { count, capped: false };
}

import { isTerminalState } from '../../store/invocation-state.js';
import type { InvocationRecord, ResultRecord } from '../../store/invocation-record.js';
import type { RetentionCandidate, RetentionQuery } from '../../store/host-store.js';
import { inRetentionWorkspaces, retentionLimit } from '../store-checks.js';

/** What `retentionCandidates` reads of a MemoryStore entry. */
interface RetainedEntry {
  readonly record: InvocationRecord;
  readonly result: ResultRecord | undefined;
  readonly order: number;
}

/**
 * The MemoryStore's answer to `listRetention`: ended calls that last changed before `query.before`, in the query's
 * workspaces, oldest first (for `results`, only those whose result still has its whole text).
 */
export function retentionCandidates(entries: Iterable<RetainedEntry>, query: RetentionQuery): RetentionCandidate[] {
  const limit = retentionLimit(query);
  return [...entries]
    .filter(({ record, result }) => {
      if (!isTerminalState(record.state) || record.updatedAt >= query.before) return false;
      if (!inRetentionWorkspaces(record.scope.workspaceId, query)) return false;
      return query.kind === 'invocations' || (result !== undefined && result.expiredAt === undefined);
    })
    .sort((a, b) => a.record.updatedAt - b.record.updatedAt || a.order - b.order)
    .slice(0, limit)
    .map(({ record }) => ({
      invocationId: record.id,
      userId: record.scope.userId,
      workspaceId: record.scope.workspaceId,
      endedAt: record.updatedAt,
    }));
}

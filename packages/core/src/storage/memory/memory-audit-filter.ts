import type { AuditEvent } from '../../store/audit-record.js';
import type { AuditQuery } from '../../store/host-store.js';

/** True when the event passes every filter the query gives (times inclusive); paging is the caller's. */
export function matches(e: AuditEvent, q: AuditQuery): boolean {
  return (
    (q.userId === undefined || e.userId === q.userId) &&
    (q.workspaceId === undefined || e.workspaceId === q.workspaceId) &&
    (q.type === undefined || e.type === q.type) &&
    (q.serverId === undefined || e.serverId === q.serverId) &&
    (q.tool === undefined || e.tool === q.tool) &&
    (q.invocationId === undefined || e.invocationId === q.invocationId) &&
    (q.since === undefined || e.at >= q.since) &&
    (q.until === undefined || e.at <= q.until)
  );
}

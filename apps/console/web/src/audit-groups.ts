import type { AuditEvent } from '@airlock/core';

/** The events of one call (or one event not tied to a call), newest first. */
export interface AuditGroup {
  readonly invocationId: string | null;
  readonly events: readonly AuditEvent[];
}

/**
 * The audit log as a person scans it: newest first, each call's events together (its decision, its states, its
 * questions) at the place of its newest event; an event of no call (a sign-in, a retention sweep) is a group alone.
 */
export function auditGroups(events: readonly AuditEvent[]): AuditGroup[] {
  const newestFirst = [...events].sort((a, b) => b.seq - a.seq);
  const groups: { invocationId: string | null; events: AuditEvent[] }[] = [];
  const byCall = new Map<string, { invocationId: string | null; events: AuditEvent[] }>();
  for (const event of newestFirst) {
    const id = event.invocationId;
    const known = id === null ? undefined : byCall.get(id);
    if (known !== undefined) {
      known.events.push(event);
      continue;
    }
    const group = { invocationId: id, events: [event] };
    groups.push(group);
    if (id !== null) byCall.set(id, group);
  }
  return groups;
}

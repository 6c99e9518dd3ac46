import type { DecisionTenant } from '../../store/host-store.js';
import type { PgNotification } from './postgres-store-config.js';

/**
 * The channel on which every instance tells the others that a tenant's permission decisions changed: a write batch
 * that stores or deletes decisions notifies it inside its transaction, so the notification goes out exactly when the
 * change commits (and never for a batch rolled back).
 */
export const DECISIONS_CHANNEL = 'airlock_decisions';

/** The statement a batch runs before its commit: one notification per tenant whose decisions it changed. */
export const NOTIFY_DECISIONS = `SELECT pg_notify('${DECISIONS_CHANNEL}', t) FROM unnest($1::text[]) AS t`;

/** The payload naming a tenant. */
export function tenantPayload(tenant: DecisionTenant): string {
  return JSON.stringify([tenant.userId, tenant.workspaceId]);
}

/** The tenant a notification names; undefined ("any tenant", the safe answer) for a payload not ours. */
export function tenantOf(message: PgNotification): DecisionTenant | undefined {
  try {
    const parsed: unknown = JSON.parse(message.payload ?? '');
    if (Array.isArray(parsed) && typeof parsed[0] === 'string' && typeof parsed[1] === 'string') {
      return { userId: parsed[0], workspaceId: parsed[1] };
    }
  } catch {
    // Not ours to read: treated as "any tenant", the safe answer.
  }
  return undefined;
}

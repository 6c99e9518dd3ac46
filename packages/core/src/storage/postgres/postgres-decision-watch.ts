import type { DecisionTenant } from '../../store/host-store.js';
import type { Clock } from '../../clock.js';
import { PostgresListener } from './postgres-listener.js';
import type { PgNotification, PgPool } from './postgres-store-config.js';

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

function tenantOf(message: PgNotification): DecisionTenant | undefined {
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

/**
 * LISTEN on `DECISIONS_CHANNEL` (through the shared `PostgresListener`), held while anyone listens. After a lost
 * connection is made again, every listener is told "any tenant" (undefined): what was said while it was down is
 * unknown.
 */
export class DecisionWatch {
  readonly #listeners = new Set<(tenant: DecisionTenant | undefined) => void>();
  readonly #listener: PostgresListener;

  constructor(pool: PgPool, clock?: Clock) {
    this.#listener = new PostgresListener({
      pool,
      channel: DECISIONS_CHANNEL,
      ...(clock === undefined ? {} : { clock }),
      onNotification: (message) => this.#tell(tenantOf(message)),
      onListening: (again) => {
        if (again) this.#tell(undefined);
      },
    });
  }

  /** Adds a listener (starting to LISTEN with the first); returns what removes it. */
  add(listener: (tenant: DecisionTenant | undefined) => void): () => void {
    this.#listeners.add(listener);
    void this.#listener.start();
    return () => void this.#listeners.delete(listener);
  }

  /** Resolves once LISTEN is in place (immediately when nobody listens). */
  async listening(): Promise<void> {
    await this.#listener.listening();
  }

  #tell(tenant: DecisionTenant | undefined): void {
    for (const listener of this.#listeners) listener(tenant);
  }

  /** Stops listening and gives the connection back (before the pool ends). */
  async stop(): Promise<void> {
    this.#listeners.clear();
    await this.#listener.stop();
  }
}

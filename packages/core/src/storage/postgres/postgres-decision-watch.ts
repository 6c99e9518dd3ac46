import type { DecisionTenant } from '../../store/host-store.js';
import type { PgClient, PgNotification, PgPool } from './postgres-store-config.js';

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

/** How long a lost LISTEN connection waits before it is made again. */
const RELISTEN_MS = 1000;

/**
 * LISTEN on `DECISIONS_CHANNEL` over one connection of the pool, held while anyone listens. A lost connection is
 * made again, and then every listener is told "any tenant" (undefined): what was said while it was down is unknown.
 */
export class DecisionWatch {
  readonly #pool: PgPool;
  readonly #listeners = new Set<(tenant: DecisionTenant | undefined) => void>();
  #client: PgClient | undefined;
  #starting: Promise<void> | undefined;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  /** Adds a listener (starting to LISTEN with the first); returns what removes it. */
  add(listener: (tenant: DecisionTenant | undefined) => void): () => void {
    this.#listeners.add(listener);
    if (this.#client === undefined && this.#starting === undefined) this.#starting = this.#listen(false);
    return () => void this.#listeners.delete(listener);
  }

  /** Resolves once LISTEN is in place (immediately when nobody listens). */
  async listening(): Promise<void> {
    await this.#starting;
  }

  #tell(tenant: DecisionTenant | undefined): void {
    for (const listener of this.#listeners) listener(tenant);
  }

  async #listen(again: boolean): Promise<void> {
    let client: PgClient | undefined;
    try {
      client = await this.#pool.connect();
      const held = client;
      held.on('notification', (message) => {
        if (message.channel === DECISIONS_CHANNEL) this.#tell(tenantOf(message));
      });
      held.on('error', (error) => this.#lost(held, error));
      await held.query({ text: `LISTEN ${DECISIONS_CHANNEL}` });
      if (this.#stopped) {
        held.release();
        return;
      }
      this.#client = held;
      if (again) this.#tell(undefined);
    } catch (error) {
      if (client !== undefined) client.release(error instanceof Error ? error : true);
      this.#schedule();
    } finally {
      this.#starting = undefined;
    }
  }

  #lost(client: PgClient, error: Error): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    client.release(error);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#stopped || this.#retry !== undefined) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.#starting = this.#listen(true);
    }, RELISTEN_MS);
    this.#retry.unref?.();
  }

  /** Stops listening and gives the connection back (before the pool ends). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#listeners.clear();
    clearTimeout(this.#retry);
    await this.#starting;
    const client = this.#client;
    this.#client = undefined;
    if (client === undefined) return;
    try {
      await client.query({ text: `UNLISTEN ${DECISIONS_CHANNEL}` });
      client.release();
    } catch (error) {
      client.release(error instanceof Error ? error : true);
    }
  }
}

import type { Clock } from '../../clock.js';
import type { AuditEvent } from '../../store/audit-record.js';
import { HostError } from '../../errors/host-error.js';
import type {
  InvocationRecord,
  ListInvocationsOptions,
  ResultRecord,
  TransitionRecord,
} from '../../store/invocation-record.js';
import type { StoredDecision } from '../../store/decision-record.js';
import type { Scope } from '../../scope.js';
import type {
  AuditQuery,
  DecisionKeyFields,
  DecisionTenant,
  HostStore,
  RetentionCandidate,
  RetentionQuery,
  StoreWrite,
} from '../../store/host-store.js';
import { auditPage, closedError, pageSize } from '../store-checks.js';
import type { CredentialFilter, CredentialKey, CredentialRecord } from '../../store/credentials.js';
import { getCredential, listCredentials } from './postgres-credentials.js';
import { claimOpenTasks, getTask, listOpenTasks } from './postgres-tasks.js';
import { SWITCHES_CHANNEL, listSwitches } from './postgres-switches.js';
import { listViewConsents } from './postgres-view-consents.js';
import { getConversation, listConversations, listStaleConversations } from './postgres-conversations.js';
import { findKeptRead, keepRead } from './postgres-kept-reads.js';
import { withConnection } from './postgres-checkout.js';
import { DECISIONS_CHANNEL, tenantOf } from './postgres-decision-news.js';
import { PostgresNews } from './postgres-news.js';
import { applyPostgresMigrations } from './postgres-migrations.js';
import { auditRows } from './postgres-audit-queries.js';
import { retentionRows } from './postgres-retention.js';
import { PARSERS, SQL, resultFromPgRow, scopeValues, statement } from './postgres-statements.js';
import type { PgResultRow } from './postgres-statements.js';
import type { PgClient, PgPool, PgQueryResult, PostgresStoreConfig } from './postgres-store-config.js';
import { PostgresBatch } from './postgres-batch.js';
import { auditFromRow } from '../sql/audit-rows.js';
import type { AuditRow } from '../sql/audit-rows.js';
import { invocationFromRow, transitionFromRow } from '../sql/call-rows.js';
import type { InvocationRow, TransitionRow } from '../sql/call-rows.js';
import { decisionFromRow } from '../sql/decision-rows.js';
import type { DecisionRow } from '../sql/decision-rows.js';

/**
 * The `HostStore` of hosts that run several instances: history, permission decisions and the audit chain in one
 * PostgreSQL database, through a node-postgres pool the caller makes and hands over (core itself loads no driver).
 *
 * `PostgresStore.open` applies the schema migrations first, under a session advisory lock, so instances starting
 * together migrate once. Each write batch is one transaction on one pooled connection: all of it is committed, or
 * none. Every write transaction takes the chain's advisory transaction lock first, then reads the chain head, so
 * instances appending at once build one chain, each append linked to the one committed before it (the serializing
 * is in the database, never in a process). A store's own batches are applied in the order `write` was called (one
 * after the other), and `write` resolves once the server has committed: with the server's default
 * `synchronous_commit = on` a committed batch survives a crash of the host and of the server.
 *
 * A batch that stores or deletes permission decisions notifies the other instances on commit (LISTEN/NOTIFY), and
 * `watchDecisions` hears it, so every host's in-memory decisions follow a decision made or revoked anywhere.
 *
 * A result's whole text and raw JSON are BYTEA (UTF-8), so any text a tool returns, NUL characters included, is kept
 * as given. Reads run on any pooled connection, each bounded as every store bounds it (pages of 50 by default, 500 at
 * most; audit pages of 1000, at most 10000).
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const store = await PostgresStore.open({ pool: new pg.Pool({ connectionString: process.env.AIRLOCK_DATABASE_URL }) });
 * ```
 */
export class PostgresStore implements HostStore {
  readonly #pool: PgPool;
  #closed = false;
  #closing: Promise<void> | undefined;
  /** The last batch handed to the database: the next waits for it, so batches commit in the order of the calls. */
  #tail: Promise<unknown> = Promise.resolve();

  /**
   * The process's one LISTEN connection on this database: the store hears decisions and switches on it, and whatever
   * else listens on the same database (a console's questions and sessions) subscribes here rather than hold another.
   * It stops as the store closes.
   */
  readonly news: PostgresNews;

  private constructor(pool: PgPool, clock: Clock | undefined) {
    this.#pool = pool;
    this.news = new PostgresNews({ pool, ...(clock === undefined ? {} : { clock }) });
  }

  /**
   * Opens the store: migrates the database to this code's schema (waiting for another instance that is migrating)
   * and resolves with the store. Rejects with `HostError('store_error')` when the database cannot be reached or its
   * schema is newer than this code knows; the pool is then ended.
   */
  static async open(config: PostgresStoreConfig): Promise<PostgresStore> {
    try {
      await applyPostgresMigrations(config.pool);
    } catch (error) {
      await config.pool.end().catch(() => undefined);
      throw asStoreError('open the PostgreSQL store', error);
    }
    return new PostgresStore(config.pool, config.clock);
  }

  /** Applies the batch in one transaction, after the batches called before it. */
  write(batch: readonly StoreWrite[]): Promise<void> {
    if (batch.length === 0 && !this.#closed) return Promise.resolve();
    return this.#queue(batch).then(() => undefined);
  }

  /**
   * Runs `step` in one write transaction, under the chain lock (so no other batch commits meanwhile), then applies
   * the writes it returns in the same transaction; `undefined` rolls back. For a takeover: what it reads and what it
   * writes are one atomic step. Resolves with whether it committed.
   */
  writeUnder(step: (client: PgClient) => Promise<readonly StoreWrite[] | undefined>): Promise<boolean> {
    return this.#queue(step);
  }

  /** Hands a batch (or a step that makes one) to the database after the ones before it. */
  #queue(work: Parameters<PostgresStore['writeUnder']>[0] | readonly StoreWrite[]): Promise<boolean> {
    if (this.#closed) return Promise.reject(closedError('PostgreSQL store'));
    const run = this.#tail.then(() => this.#transaction(work));
    this.#tail = run.catch(() => undefined);
    return run.catch((error: unknown) => {
      throw asStoreError('store the batch', error);
    });
  }

  #transaction(batch: Parameters<PostgresStore['writeUnder']>[0] | readonly StoreWrite[]): Promise<boolean> {
    return withConnection(this.#pool, async (client, broke) => {
      try {
        // One round trip: begin, wait for the chain lock, then (statements after the lock, so a snapshot taken after
        // the last holder committed) whether this instance was fenced, and the chain head the batch's events follow.
        // A failure from here on (the lock or the reads too) rolls back, so a session is never given back inside an
        // aborted transaction. The fence check is one primary-key probe inside the same round trip.
        const opened = (await client.query({
          text: `BEGIN; ${SQL.lockChain}; ${SQL.fenced}; ${SQL.lastAudit}`,
          types: PARSERS,
        })) as unknown as PgQueryResult[];
        if (((opened.at(-2)?.rows[0] as { fenced: number } | undefined)?.fenced ?? 0) > 0) {
          throw new HostError(
            'instance_fenced',
            'this instance was taken over by another (its heartbeat went stale): its writes are refused',
          );
        }
        const head = opened.at(-1)?.rows[0] as Pick<AuditEvent, 'seq' | 'hash'> | undefined;
        const writes = typeof batch === 'function' ? await batch(client) : batch;
        if (writes === undefined) {
          await client.query({ text: 'ROLLBACK' });
          return false;
        }
        await new PostgresBatch(client, head).apply(writes);
        await client.query({ text: 'COMMIT' });
        return true;
      } catch (error) {
        await client.query({ text: 'ROLLBACK' }).catch((rollback: unknown) => {
          // A connection that cannot roll back is not given back to the pool.
          broke(rollback instanceof Error ? rollback : new Error(String(rollback)));
        });
        throw error;
      }
    });
  }

  getInvocation(scope: Scope, id: string): Promise<InvocationRecord | undefined> {
    return this.#read('read the invocation', async () => {
      const rows = await this.#rows<InvocationRow>('getInvocation', [id, ...scopeValues(scope)]);
      return rows[0] === undefined ? undefined : invocationFromRow(rows[0]);
    });
  }

  listInvocations(scope: Scope, options?: ListInvocationsOptions): Promise<InvocationRecord[]> {
    return this.#read('list invocations', async () => {
      const limit = pageSize(options);
      const before = options?.before;
      const tenant = [scope.userId, scope.workspaceId];
      const modelCallId = options?.modelCallId;
      if (modelCallId !== undefined) {
        const until = before ?? Number.MAX_SAFE_INTEGER;
        const calls = options?.allConversations
          ? await this.#rows<InvocationRow>('listTenantModelCallInvocations', [...tenant, modelCallId, until, limit])
          : await this.#rows<InvocationRow>('listModelCallInvocations', [
              ...scopeValues(scope),
              modelCallId,
              until,
              limit,
            ]);
        return calls.map(invocationFromRow);
      }
      const rows = options?.allConversations
        ? before === undefined
          ? await this.#rows<InvocationRow>('listTenantInvocations', [...tenant, limit])
          : await this.#rows<InvocationRow>('listTenantInvocationsBefore', [...tenant, before, limit])
        : before === undefined
          ? await this.#rows<InvocationRow>('listInvocations', [...scopeValues(scope), limit])
          : await this.#rows<InvocationRow>('listInvocationsBefore', [...scopeValues(scope), before, limit]);
      return rows.map(invocationFromRow);
    });
  }

  listTransitions(scope: Scope, invocationId: string): Promise<TransitionRecord[]> {
    return this.#read('list transitions', async () => {
      const rows = await this.#rows<TransitionRow>('listTransitions', [invocationId, ...scopeValues(scope)]);
      return rows.map(transitionFromRow);
    });
  }

  getResult(scope: Scope, invocationId: string): Promise<ResultRecord | undefined> {
    return this.#read('read the result', async () => {
      const rows = await this.#rows<PgResultRow>('getResult', [invocationId, ...scopeValues(scope)]);
      return rows[0] === undefined ? undefined : resultFromPgRow(rows[0]);
    });
  }

  listDecisions(filter: { readonly userId?: string; readonly workspaceId?: string }): Promise<StoredDecision[]> {
    return this.#read('list decisions', async () => {
      const { userId, workspaceId } = filter;
      const rows =
        userId !== undefined && workspaceId !== undefined
          ? await this.#rows<DecisionRow>('listDecisionsOfTenant', [userId, workspaceId])
          : userId !== undefined
            ? await this.#rows<DecisionRow>('listDecisionsOfUser', [userId])
            : workspaceId !== undefined
              ? await this.#rows<DecisionRow>('listDecisionsOfWorkspace', [workspaceId])
              : await this.#rows<DecisionRow>('listDecisions', []);
      return rows.map(decisionFromRow);
    });
  }

  findDecision(key: DecisionKeyFields): Promise<StoredDecision | undefined> {
    return this.#read('read the decision', async () => {
      const { userId, workspaceId, serverIdentity, tool, argsHash, conversationId } = key;
      const rows = await this.#rows<DecisionRow>('findDecision', [
        userId,
        workspaceId,
        serverIdentity,
        tool,
        argsHash ?? '',
        conversationId ?? '',
      ]);
      return rows[0] === undefined ? undefined : decisionFromRow(rows[0]);
    });
  }

  queryAudit(query: AuditQuery): Promise<AuditEvent[]> {
    return this.#read('query the audit log', async () => {
      const page = auditPage(query);
      return (await auditRows(this.#pool, query, page)).map((row: AuditRow) => auditFromRow(row));
    });
  }

  listRetention(query: RetentionQuery): Promise<RetentionCandidate[]> {
    return this.#read('list what retention may remove', () => retentionRows(this.#pool, query));
  }

  getCredential(key: CredentialKey): Promise<CredentialRecord | undefined> {
    return this.#read('read the credential', () => getCredential(this.#pool, key));
  }

  listCredentials(filter: CredentialFilter): Promise<CredentialRecord[]> {
    return this.#read('list credentials', () => listCredentials(this.#pool, filter));
  }

  getTask: HostStore['getTask'] = (scope, id) => this.#read('read the task', () => getTask(this.#pool, scope, id));

  listOpenTasks: HostStore['listOpenTasks'] = (filter) =>
    this.#read('list open tasks', () => listOpenTasks(this.#pool, filter));

  claimOpenTasks: NonNullable<HostStore['claimOpenTasks']> = ({ skipServers }) =>
    this.#read('claim open tasks', () => claimOpenTasks(this.#pool, skipServers));

  listSwitches: HostStore['listSwitches'] = () => this.#read('list switches', () => listSwitches(this.#pool));

  getConversation: HostStore['getConversation'] = (tenant, id) =>
    this.#read('read the conversation', () => getConversation(this.#pool, tenant, id));

  listConversations: HostStore['listConversations'] = (tenant, options) =>
    this.#read('list conversations', () => listConversations(this.#pool, tenant, options));

  listViewConsents: HostStore['listViewConsents'] = (tenant, filter) =>
    this.#read("list views' consents", () => listViewConsents(this.#pool, tenant, filter));
  listStaleConversations: HostStore['listStaleConversations'] = (query) =>
    this.#read('list stale conversations', () => listStaleConversations(this.#pool, query));

  keepRead: NonNullable<HostStore['keepRead']> = (read, dropBefore) =>
    this.#read('keep the read', () => keepRead(this.#pool, read, dropBefore));

  findKeptRead: NonNullable<HostStore['findKeptRead']> = (tenant, id, keptAfter) =>
    this.#read('find the kept read', () => findKeptRead(this.#pool, tenant, id, keptAfter));

  /**
   * Tells `listener` of every committed change to a tenant's decisions, by any instance on the database (this one
   * included), through LISTEN/NOTIFY on one pooled connection held from the first listener on. After a lost
   * connection is made again, listeners are told `undefined` (any tenant): changes made meanwhile were not heard.
   */
  watchDecisions(listener: (tenant: DecisionTenant | undefined) => void): () => void {
    if (this.#closed) return () => undefined;
    return this.news.add(DECISIONS_CHANNEL, {
      heard: (message) => listener(tenantOf(message)),
      listening: (again) => (again ? listener(undefined) : undefined),
    });
  }

  /**
   * Tells `listener` whenever a switch changed, by any instance on the database (this one included), or when a lost
   * LISTEN connection was made again (changes made meanwhile were not heard): the host reads the switches again.
   */
  watchSwitches(listener: () => void): () => void {
    if (this.#closed) return () => undefined;
    return this.news.add(SWITCHES_CHANNEL, {
      heard: () => listener(),
      listening: (again) => (again ? listener() : undefined),
    });
  }

  /**
   * Waits for the batches already handed over, stops listening, then ends the pool. Idempotent; every other call then
   * rejects with `closed`.
   */
  close(): Promise<void> {
    if (this.#closing !== undefined) return this.#closing;
    this.#closed = true;
    this.#closing = this.#tail
      .then(() => this.news.stop())
      .then(() => this.#pool.end())
      .catch((error: unknown) => {
        throw asStoreError('close the PostgreSQL store', error);
      });
    return this.#closing;
  }

  async #rows<T>(name: keyof typeof SQL, values: unknown[]): Promise<T[]> {
    const { rows } = await this.#pool.query(statement(name, SQL[name], values));
    return rows as T[];
  }

  /** Runs one read on the open store, turning every failure into a rejected promise of a `HostError`. */
  async #read<T>(doing: string, run: () => Promise<T>): Promise<T> {
    if (this.#closed) throw closedError('PostgreSQL store');
    try {
      return await run();
    } catch (error) {
      throw asStoreError(doing, error);
    }
  }
}

/** A driver failure as `HostError('store_error')`, with the driver's error as its cause; a `HostError` as is. */
function asStoreError(doing: string, error: unknown): HostError {
  if (error instanceof HostError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new HostError('store_error', `could not ${doing}: ${message}`, { cause: error });
}

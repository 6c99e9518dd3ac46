import { auditEvent } from '../../audit/audit-event-builder.js';
import type { Clock } from '../../clock.js';
import type { InvocationOutcome, InvocationState } from '../../store/invocation-state.js';
import type { StoreWrite } from '../../store/host-store.js';
import { DB_NOW_MS, PARSERS } from './postgres-statements.js';
import type { PgClient, PgPool } from './postgres-store-config.js';
import type { PostgresStore } from './postgres-store.js';
import { INVOCATION_COLUMNS, invocationFromRow } from '../sql/call-rows.js';
import type { InvocationRow } from '../sql/call-rows.js';

/** How often an instance says it is alive, by default. */
export const HEARTBEAT_MS = 5_000;
/** How long without a heartbeat before an instance counts as dead, by default. */
export const STALE_MS = 30_000;

/**
 * The connection option that stamps every call an instance creates with its id (`invocations.instance_id`): give it
 * to the pool of the store, e.g. `new pg.Pool({ connectionString, options: instanceOption(id) })`.
 */
export function instanceOption(instanceId: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(instanceId)) {
    throw new Error(`an instance id is 1 to 64 letters, digits, _ or -; got ${JSON.stringify(instanceId)}`);
  }
  return `-c airlock.instance=${instanceId}`;
}

// Heartbeats are written and judged on the database's clock: hosts whose clocks disagree still agree on who is alive.
const SQL = {
  // No row for a fenced instance: it beats no more (zero rows tell it it was taken over).
  beat:
    `INSERT INTO instances (id, heartbeat_at) SELECT $1, ${DB_NOW_MS} ` +
    'WHERE NOT EXISTS (SELECT 1 FROM fenced_instances WHERE id = $1) ' +
    'ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at',
  // Read after the beat, in a statement of its own: a beat that met a takeover in flight waited for it, and its own
  // check of the fence saw the snapshot from before it; this one sees the fence the takeover committed.
  fenced: 'SELECT count(*)::int AS n FROM fenced_instances WHERE id = $1',
  stale: `SELECT id FROM instances WHERE heartbeat_at < ${DB_NOW_MS} - $1 AND id <> $2 ORDER BY id`,
  // Under the chain lock, in the transaction that ends its calls: of several instances that notice at once, the one
  // whose delete finds the row takes it; a row that beat again meanwhile is not stale and stays.
  take: `DELETE FROM instances WHERE id = $1 AND heartbeat_at < ${DB_NOW_MS} - $2 RETURNING heartbeat_at`,
  fence: `INSERT INTO fenced_instances (id, fenced_at, fenced_by) VALUES ($1, ${DB_NOW_MS}, $2) ON CONFLICT (id) DO NOTHING`,
  inFlight:
    `SELECT ${INVOCATION_COLUMNS}, (SELECT MAX(seq) FROM invocation_transitions t WHERE t.invocation_id = i.id) ` +
    "AS last_seq FROM invocations i WHERE instance_id = $1 AND state IN ('pending', 'running')",
  leave: 'DELETE FROM instances WHERE id = $1',
} as const;

/** What was done for an instance found dead. */
export interface DeadInstance {
  readonly instanceId: string;
  readonly lastHeartbeat: number;
  /** The calls it had in flight, now ended. */
  readonly ended: readonly string[];
}

/**
 * An instance's heartbeat on a database several instances share, and what it does for the others: every `everyMs`
 * it stores its heartbeat, and takes any instance whose heartbeat is older than `staleMs` (one taker per dead
 * instance). Taking is one transaction under the chain lock: the instance is fenced (every later write batch of its
 * own is refused with `instance_fenced`) and its calls in flight end in history, with their audit events: a running
 * call as `error` / `transport_error`, a pending one (asked, not sent) as `cancelled`, each with the reason. `onDead`
 * is told of each, so the host can close that instance's open questions too, and take over its open tasks (left open
 * here: `host.tasks.takeOver` claims them, their owner's row being gone). An instance that was only stalled learns
 * at its next beat that it was fenced (`onFenced`, once; it beats no more): it should stop, and start again as a new
 * instance. Heartbeats are the database's clock (`now()`), so hosts' clocks never meet; the host clock only paces the
 * beats, and dates the transitions that end a dead instance's calls.
 */
export class InstanceHeartbeat {
  readonly #stopTimer: { stop: () => void } = { stop: () => undefined };
  #stopped = false;
  #running: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: {
      readonly pool: PgPool;
      readonly store: PostgresStore;
      readonly instanceId: string;
      readonly clock: Clock;
      readonly everyMs?: number;
      readonly staleMs?: number;
      readonly onDead?: (dead: DeadInstance) => Promise<void> | void;
      /** This instance was taken over by another while it ran (stalled past `staleMs`): its writes are refused. */
      readonly onFenced?: () => void;
      readonly onError?: (error: Error) => void;
    },
  ) {}

  /** Beats once now (and takes any dead instance), then every `everyMs`; resolves after the first beat. */
  start(): Promise<void> {
    const first = this.beat();
    const next = () => {
      if (this.#stopped) return;
      this.#stopTimer.stop = this.options.clock.setTimer(() => {
        this.#running = this.beat().finally(next);
      }, this.options.everyMs ?? HEARTBEAT_MS);
    };
    this.#running = first.finally(next);
    return first;
  }

  /**
   * One heartbeat, then the dead instances taken; a fenced instance's beat tells `onFenced` and stops the beating.
   * A failure is told to `onError`, never thrown.
   */
  async beat(): Promise<void> {
    const { pool, instanceId } = this.options;
    try {
      if (this.#stopped) return;
      const beat = await pool.query({ text: SQL.beat, values: [instanceId] });
      const fence = await pool.query({ text: SQL.fenced, values: [instanceId], types: PARSERS });
      if (beat.rowCount === 0 || (fence.rows[0] as { n: number }).n > 0) {
        // A row the beat made again after the takeover would show a fenced instance as alive: it goes.
        await pool.query({ text: SQL.leave, values: [instanceId] });
        this.#stopped = true;
        this.#stopTimer.stop();
        this.options.onFenced?.();
        return;
      }
      const staleMs = this.options.staleMs ?? STALE_MS;
      const stale = await pool.query({ text: SQL.stale, values: [staleMs, instanceId] });
      for (const { id } of stale.rows as { id: string }[]) {
        const dead = await this.#take(id, staleMs);
        if (dead !== undefined) await this.options.onDead?.(dead);
      }
    } catch (error) {
      this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Fences one stale instance and ends its calls in flight, in one transaction; undefined when another took it. */
  async #take(dead: string, staleMs: number): Promise<DeadInstance | undefined> {
    let taken: DeadInstance | undefined;
    await this.options.store.writeUnder(async (client) => {
      const { rows } = await client.query({ text: SQL.take, values: [dead, staleMs], types: PARSERS });
      const row = rows[0] as { heartbeat_at: number } | undefined;
      if (row === undefined) return undefined;
      await client.query({ text: SQL.fence, values: [dead, this.options.instanceId] });
      const writes = await this.#endCallsOf(client, dead, row.heartbeat_at);
      const ended = writes.flatMap((w) => (w.kind === 'transition' ? [w.transition.invocationId] : []));
      taken = { instanceId: dead, lastHeartbeat: row.heartbeat_at, ended };
      return writes;
    });
    return taken;
  }

  /** The writes that end a dead instance's calls in flight, read on the takeover's connection. */
  async #endCallsOf(client: PgClient, dead: string, lastHeartbeat: number): Promise<StoreWrite[]> {
    const { rows } = await client.query({ text: SQL.inFlight, values: [dead], types: PARSERS });
    const at = this.options.clock.now();
    const since = new Date(lastHeartbeat).toISOString();
    const writes: StoreWrite[] = (rows as (InvocationRow & { last_seq: number })[]).map((row) => {
      const call = invocationFromRow(row);
      const running = call.state === 'running';
      const to: InvocationState = running ? 'error' : 'cancelled';
      const outcome: InvocationOutcome = running ? 'transport_error' : 'cancelled';
      const error = {
        code: 'instance_lost',
        message:
          `the instance running this call (${dead}) stopped: no heartbeat since ${since}; ` +
          (running ? 'whether the server finished it is unknown' : 'it was never sent'),
      };
      const transition = {
        invocationId: call.id,
        seq: Number(row.last_seq) + 1,
        from: call.state,
        to,
        at,
        outcome,
        error,
      };
      return {
        kind: 'transition',
        scope: call.scope,
        transition,
        audit: auditEvent({
          type: 'invocation.transition',
          at,
          scope: call.scope,
          serverId: call.serverId,
          tool: call.tool,
          argsHash: call.argsHash,
          invocationId: call.id,
          data: { from: call.state, to, outcome, errorCode: error.code, caller: call.caller.kind, instance: dead },
        }),
      };
    });
    return writes;
  }

  /** Stops beating and removes this instance's row (a clean stop is not a death). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#stopTimer.stop();
    await this.#running;
    await this.options.pool.query({ text: SQL.leave, values: [this.options.instanceId] }).catch(() => undefined);
  }
}

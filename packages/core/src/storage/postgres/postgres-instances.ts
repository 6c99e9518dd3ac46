import { auditEvent } from '../../audit/audit-event-builder.js';
import type { Clock } from '../../clock.js';
import type { InvocationOutcome, InvocationState } from '../../store/invocation-state.js';
import type { HostStore, StoreWrite } from '../../store/host-store.js';
import { invocationFromRow } from '../sqlite/sqlite-rows.js';
import type { InvocationRow } from '../sqlite/sqlite-rows.js';
import { INVOCATION_COLUMNS } from '../sqlite/sqlite-rows.js';
import { PARSERS } from './postgres-statements.js';
import type { PgPool } from './postgres-store-config.js';

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

const SQL = {
  beat:
    'INSERT INTO instances (id, heartbeat_at) VALUES ($1, $2) ' +
    'ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at',
  // Taking a dead instance is deleting its row: of several instances that notice at once, one takes it.
  takeDead: 'DELETE FROM instances WHERE heartbeat_at < $1 AND id <> $2 RETURNING id, heartbeat_at',
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
 * instance), ending that instance's calls in flight in history, with their audit events: a running call as
 * `error` / `transport_error`, a pending one (asked, not sent) as `cancelled`, each with the reason. `onDead` is told
 * of each, so the host can close that instance's open questions too, and take over its open tasks (left open here:
 * `host.tasks.takeOver` claims them, their owner's row being gone). Times are the host clock's.
 */
export class InstanceHeartbeat {
  readonly #stopTimer: { stop: () => void } = { stop: () => undefined };
  #stopped = false;
  #running: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: {
      readonly pool: PgPool;
      readonly store: HostStore;
      readonly instanceId: string;
      readonly clock: Clock;
      readonly everyMs?: number;
      readonly staleMs?: number;
      readonly onDead?: (dead: DeadInstance) => Promise<void> | void;
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

  /** One heartbeat, then the dead instances taken. A failure is told to `onError`, never thrown. */
  async beat(): Promise<void> {
    const { pool, instanceId, clock } = this.options;
    try {
      const now = clock.now();
      await pool.query({ text: SQL.beat, values: [instanceId, now] });
      const dead = await pool.query({
        text: SQL.takeDead,
        values: [now - (this.options.staleMs ?? STALE_MS), instanceId],
        types: PARSERS,
      });
      for (const row of dead.rows as { id: string; heartbeat_at: number }[]) {
        const ended = await this.#endCallsOf(row.id, row.heartbeat_at);
        await this.options.onDead?.({ instanceId: row.id, lastHeartbeat: row.heartbeat_at, ended });
      }
    } catch (error) {
      this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  async #endCallsOf(dead: string, lastHeartbeat: number): Promise<string[]> {
    const { rows } = await this.options.pool.query({ text: SQL.inFlight, values: [dead], types: PARSERS });
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
    // One batch per call: a call whose row moved meanwhile (an instance that was only stalled wrote first) is told to
    // onError and the others still end.
    const ended: string[] = [];
    for (const write of writes) {
      try {
        await this.options.store.write([write]);
        if (write.kind === 'transition') ended.push(write.transition.invocationId);
      } catch (error) {
        this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
    return ended;
  }

  /** Stops beating and removes this instance's row (a clean stop is not a death). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#stopTimer.stop();
    await this.#running;
    await this.options.pool.query({ text: SQL.leave, values: [this.options.instanceId] }).catch(() => undefined);
  }
}

import { DB_NOW_MS } from '@airlock/core/postgres';
import type pg from 'pg';

const URL_FLOW = 'urlflow:';

const SQL = {
  hold:
    'INSERT INTO held_flows (id, instance_id, held_at) VALUES ($1, $2, ' +
    `${DB_NOW_MS}) ON CONFLICT (id) DO UPDATE SET instance_id = excluded.instance_id, held_at = excluded.held_at`,
  release: 'DELETE FROM held_flows WHERE id = $1 AND instance_id = $2',
  // Held by another instance that is alive (a heartbeat within $3 ms, on the database's clock, as they are written).
  signInHeldElsewhere:
    'SELECT 1 FROM held_flows f JOIN instances i ON i.id = f.instance_id WHERE f.id = $1 AND f.instance_id <> $2 ' +
    `AND i.heartbeat_at >= ${DB_NOW_MS} - $3`,
  // A URL flow is a server's question: its open_questions row (written as it was asked, long before the user can say
  // "done") names the instance whose call holds it, and stays once the question is answered.
  urlFlowHeldElsewhere:
    'SELECT 1 FROM open_questions q JOIN instances i ON i.id = q.instance_id WHERE q.id = $1 AND q.instance_id <> $2 ' +
    `AND i.heartbeat_at >= ${DB_NOW_MS} - $3`,
  // Rows of instances that are gone (no heartbeat row left): nothing will finish them.
  prune: 'DELETE FROM held_flows f WHERE NOT EXISTS (SELECT 1 FROM instances i WHERE i.id = f.instance_id)',
} as const;

/**
 * The flows a console instance holds in memory and another may be asked to finish: a sign-in by its `state` (a row in
 * `held_flows`, written before the user is sent to sign in) and an accepted URL flow by its question id (its row in
 * `open_questions`). An instance that gets a `state` or a "done, retry" it does not hold reads whether a live instance
 * holds it before asking, so an unknown one is answered at once rather than after the reply timeout.
 */
export class HeldFlows {
  constructor(
    private readonly pool: pg.Pool,
    private readonly instanceId: string,
    private readonly staleMs: number,
  ) {}

  /** Records that this instance holds `flow`. */
  async hold(flow: string): Promise<void> {
    await this.pool.query(SQL.hold, [flow, this.instanceId]);
  }

  /** Drops this instance's row for `flow` (finished, given up or forgotten). */
  async release(flow: string): Promise<void> {
    await this.pool.query(SQL.release, [flow, this.instanceId]);
  }

  /** Whether another live instance holds `flow` (`signInFlow(state)` or `urlFlow(id)`). */
  async heldElsewhere(flow: string): Promise<boolean> {
    const url = flow.startsWith(URL_FLOW);
    const { rowCount } = await this.pool.query(url ? SQL.urlFlowHeldElsewhere : SQL.signInHeldElsewhere, [
      url ? flow.slice(URL_FLOW.length) : flow,
      this.instanceId,
      this.staleMs,
    ]);
    return (rowCount ?? 0) > 0;
  }

  /** Drops the rows of instances that are gone. */
  async prune(): Promise<void> {
    await this.pool.query(SQL.prune);
  }
}

/** A sign-in's flow, by the `state` of its authorization URL. */
export const signInFlow = (state: string): string => `signin:${state}`;
/** An accepted URL flow, by the host's question id. */
export const urlFlow = (id: string): string => `${URL_FLOW}${id}`;

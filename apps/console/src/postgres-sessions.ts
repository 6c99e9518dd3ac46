import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Session, SessionStore } from './sessions.js';

const SQL = {
  save: `INSERT INTO console_sessions (id_sha256, user_id, workspace_id, created_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (id_sha256) DO UPDATE SET workspace_id = EXCLUDED.workspace_id`,
  load: 'SELECT user_id, workspace_id FROM console_sessions WHERE id_sha256 = $1',
  remove: 'DELETE FROM console_sessions WHERE id_sha256 = $1',
} as const;

const sha256 = (id: string) => createHash('sha256').update(id).digest('hex');

/**
 * Console sessions in the database every instance shares, so a user signed in on one instance is served by any
 * (a load balancer needs no sticky sessions for them). Rows are keyed by the sha256 of the session id, never the id.
 */
export class PostgresSessions implements SessionStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => number = Date.now,
  ) {}

  async save(session: Session): Promise<void> {
    await this.pool.query(SQL.save, [sha256(session.id), session.userId, session.workspaceId, this.now()]);
  }

  async load(id: string): Promise<Session | undefined> {
    const { rows } = await this.pool.query<{ user_id: string; workspace_id: string }>(SQL.load, [sha256(id)]);
    const row = rows[0];
    return row === undefined ? undefined : { id, userId: row.user_id, workspaceId: row.workspace_id };
  }

  async remove(id: string): Promise<void> {
    await this.pool.query(SQL.remove, [sha256(id)]);
  }
}

import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Session, SessionStore } from './sessions.js';

/** How long a shared session lasts after sign-in: then its cookie signs no one in, and its row goes. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60_000;

const SQL = {
  save: `INSERT INTO console_sessions (id_sha256, user_id, workspace_id, created_at) VALUES ($1, $2, $3, $4)`,
  // A plain update: a session signed out on another instance meanwhile is not brought back.
  move: 'UPDATE console_sessions SET workspace_id = $2 WHERE id_sha256 = $1',
  load: 'SELECT user_id, workspace_id FROM console_sessions WHERE id_sha256 = $1 AND created_at > $2',
  remove: 'DELETE FROM console_sessions WHERE id_sha256 = $1',
  prune: 'DELETE FROM console_sessions WHERE created_at <= $1',
} as const;

const sha256 = (id: string) => createHash('sha256').update(id).digest('hex');

/**
 * Console sessions in the database every instance shares, so a user signed in on one instance is served by any
 * (a load balancer needs no sticky sessions for them). Rows are keyed by the sha256 of the session id, never the id,
 * and last `SESSION_TTL_MS` (7 days) from sign-in.
 */
export class PostgresSessions implements SessionStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => number = Date.now,
  ) {}

  async save(session: Session): Promise<void> {
    // Each sign-in also clears the sessions that have run out (one indexed delete).
    await this.pool.query(SQL.prune, [this.now() - SESSION_TTL_MS]);
    await this.pool.query(SQL.save, [sha256(session.id), session.userId, session.workspaceId, this.now()]);
  }

  async move(session: Session): Promise<boolean> {
    const { rowCount } = await this.pool.query(SQL.move, [sha256(session.id), session.workspaceId]);
    return (rowCount ?? 0) > 0;
  }

  async load(id: string): Promise<Session | undefined> {
    const { rows } = await this.pool.query<{ user_id: string; workspace_id: string }>(SQL.load, [
      sha256(id),
      this.now() - SESSION_TTL_MS,
    ]);
    const row = rows[0];
    return row === undefined ? undefined : { id, userId: row.user_id, workspaceId: row.workspace_id };
  }

  async remove(id: string): Promise<void> {
    await this.pool.query(SQL.remove, [sha256(id)]);
  }
}

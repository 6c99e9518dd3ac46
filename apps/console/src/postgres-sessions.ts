import type { Clock } from '@airlock/core';
import { PostgresNews } from '@airlock/core/postgres';
import type pg from 'pg';
import { sessionIdSha256 } from './sessions.js';
import type { Session, SessionNews, SessionStore } from './sessions.js';

/** How long a shared session lasts after sign-in: then its cookie signs no one in, and its row goes. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60_000;

/** The channel on which a sign-out or a workspace switch is told to the other instances, as it commits. */
export const SESSIONS_CHANNEL = 'airlock_sessions';

const notify = (fields: string) => `SELECT pg_notify('${SESSIONS_CHANNEL}', json_build_object(${fields})::text)`;

const SQL = {
  save: `INSERT INTO console_sessions (id_sha256, user_id, workspace_id, created_at) VALUES ($1, $2, $3, $4)`,
  // A plain update: a session signed out on another instance meanwhile is not brought back.
  move:
    'WITH m AS (UPDATE console_sessions SET workspace_id = $2 WHERE id_sha256 = $1 RETURNING id_sha256, workspace_id) ' +
    `${notify("'kind', 'moved', 'idSha256', id_sha256, 'workspaceId', workspace_id")} FROM m`,
  load: 'SELECT user_id, workspace_id FROM console_sessions WHERE id_sha256 = $1 AND created_at > $2',
  remove:
    'WITH d AS (DELETE FROM console_sessions WHERE id_sha256 = $1 RETURNING id_sha256) ' +
    `${notify("'kind', 'ended', 'idSha256', id_sha256")} FROM d`,
  prune: 'DELETE FROM console_sessions WHERE created_at <= $1',
} as const;

/** A notification as news of a session; undefined for one not ours (read as "re-check", the safe answer). */
function newsOf(payload: string | undefined): SessionNews | undefined {
  try {
    const told = JSON.parse(payload ?? '') as Partial<Record<string, unknown>>;
    if (typeof told.idSha256 !== 'string') return undefined;
    if (told.kind === 'ended') return { kind: 'ended', idSha256: told.idSha256 };
    if (told.kind === 'moved' && typeof told.workspaceId === 'string') {
      return { kind: 'moved', idSha256: told.idSha256, workspaceId: told.workspaceId };
    }
  } catch {
    // Not ours to read.
  }
  return undefined;
}

/**
 * Console sessions in the database every instance shares, so a user signed in on one instance is served by any
 * (a load balancer needs no sticky sessions for them). Rows are keyed by the sha256 of the session id, never the id,
 * and last `SESSION_TTL_MS` (7 days) from sign-in. A sign-out or a workspace switch notifies `SESSIONS_CHANNEL` as
 * it commits, so the instances holding that session's event streams end or move them at once (`watch`).
 */
export class PostgresSessions implements SessionStore {
  /** The process's one LISTEN connection (the store's), or one of its own made at the first watch. */
  #news: PostgresNews | undefined;
  readonly #ownsNews: boolean;
  #unsubscribe: (() => void) | undefined;
  readonly #watchers = new Set<(news: SessionNews | undefined) => void>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => number = Date.now,
    private readonly clock?: Clock,
    news?: PostgresNews,
  ) {
    this.#news = news;
    this.#ownsNews = news === undefined;
  }

  /** Hears sessions ended or moved on any instance; `undefined` after a lost connection came back (re-check). */
  watch(listener: (news: SessionNews | undefined) => void): () => void {
    this.#watchers.add(listener);
    this.#news ??= new PostgresNews({ pool: this.pool, ...(this.clock === undefined ? {} : { clock: this.clock }) });
    this.#unsubscribe ??= this.#news.add(SESSIONS_CHANNEL, {
      heard: (message) => this.#tell(newsOf(message.payload)),
      listening: (again) => (again ? this.#tell(undefined) : undefined),
    });
    return () => void this.#watchers.delete(listener);
  }

  /** Resolves once LISTEN is in place (at once when nobody watches). */
  async listening(): Promise<void> {
    if (this.#unsubscribe !== undefined) await this.#news?.listening();
  }

  /** Stops listening (before the pool ends). */
  async stop(): Promise<void> {
    this.#watchers.clear();
    this.#unsubscribe?.();
    if (this.#ownsNews) await this.#news?.stop();
  }

  #tell(news: SessionNews | undefined): void {
    for (const watcher of this.#watchers) watcher(news);
  }

  async save(session: Session): Promise<void> {
    // Each sign-in also clears the sessions that have run out (one indexed delete).
    await this.pool.query(SQL.prune, [this.now() - SESSION_TTL_MS]);
    await this.pool.query(SQL.save, [sessionIdSha256(session.id), session.userId, session.workspaceId, this.now()]);
  }

  async move(session: Session): Promise<boolean> {
    const { rowCount } = await this.pool.query(SQL.move, [sessionIdSha256(session.id), session.workspaceId]);
    return (rowCount ?? 0) > 0;
  }

  async load(id: string): Promise<Session | undefined> {
    const { rows } = await this.pool.query<{ user_id: string; workspace_id: string }>(SQL.load, [
      sessionIdSha256(id),
      this.now() - SESSION_TTL_MS,
    ]);
    const row = rows[0];
    return row === undefined ? undefined : { id, userId: row.user_id, workspaceId: row.workspace_id };
  }

  async remove(id: string): Promise<void> {
    await this.pool.query(SQL.remove, [sessionIdSha256(id)]);
  }
}

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AuthMode, ConsoleUser } from './console-config.js';
import { ApiError } from './api-error.js';
import { checkName } from './check-name.js';

/** A signed-in person in one workspace. Tabs of one session share it: a workspace switch moves them all. */
export interface Session {
  readonly id: string;
  readonly userId: string;
  workspaceId: string;
}

/** What an instance hears of a session changed on another: signed out, or moved to a workspace. */
export type SessionNews =
  | { readonly kind: 'ended'; readonly idSha256: string }
  | { readonly kind: 'moved'; readonly idSha256: string; readonly workspaceId: string };

/** Where sessions are kept beside memory when several instances serve one console (PostgreSQL). */
export interface SessionStore {
  save(session: Session): Promise<void>;
  /** Moves a stored session to its new workspace; false when it is gone (signed out elsewhere). */
  move(session: Session): Promise<boolean>;
  load(id: string): Promise<Session | undefined>;
  remove(id: string): Promise<void>;
  /** Hears sessions ended or moved on any instance; `undefined` when news may have been missed. */
  watch?(listener: (news: SessionNews | undefined) => void): () => void;
}

/** What a session id is known by outside this process: its sha256 (hex), never the id. */
export const sessionIdSha256 = (id: string): string => createHash('sha256').update(id).digest('hex');

/** How many sessions are kept at once. */
const MAX_SESSIONS = 10_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * Sign-in and sessions. `local`: one person on their own machine names themselves (the console listens on loopback
 * only). `token`: each user signs in with their own token, of which the config holds only the sha256. A session id
 * is 256 random bits, kept in an HttpOnly, SameSite=Strict cookie. Alone, sessions live in memory and end with the
 * process; with a shared `store` (several instances on one database) they are kept there too, so any instance finds
 * a session another made (read once, then from memory).
 */
export class Sessions {
  readonly #sessions = new Map<string, Session>();

  constructor(
    private readonly mode: AuthMode,
    private readonly users: readonly ConsoleUser[],
    private readonly store?: SessionStore,
  ) {}

  async signIn(body: { userId?: unknown; workspaceId?: unknown; token?: unknown }): Promise<Session> {
    const workspaceId = body.workspaceId === undefined ? 'default' : checkName(body.workspaceId, 'workspaceId');
    const userId = this.mode === 'token' ? this.#userForToken(body.token) : checkName(body.userId, 'userId');
    if (this.mode === 'token' && body.userId !== undefined && body.userId !== userId) {
      throw new ApiError(401, 'unauthorized', 'the token does not belong to that user');
    }
    this.checkMember(userId, workspaceId);
    const session: Session = { id: randomBytes(32).toString('base64url'), userId, workspaceId };
    await this.store?.save(session);
    this.#keep(session);
    return session;
  }

  /**
   * The session of a cookie. With a shared store every request asks it (one indexed read): a session signed out or
   * moved to another workspace on another instance is so here at once; the object a tab holds is kept and updated.
   */
  async get(id: string | undefined): Promise<Session | undefined> {
    const session = await this.#find(id);
    // Membership is read on every request: a user taken out of a workspace (a restart with a changed config, a
    // session kept in the shared store) is signed out of it at once.
    return session === undefined || this.mayEnter(session.userId, session.workspaceId) ? session : undefined;
  }

  async #find(id: string | undefined): Promise<Session | undefined> {
    if (id === undefined) return undefined;
    const known = this.#sessions.get(id);
    if (this.store === undefined) return known;
    const shared = await this.store.load(id);
    if (shared === undefined) {
      this.#sessions.delete(id);
      return undefined;
    }
    if (known === undefined) {
      this.#keep(shared);
      return shared;
    }
    known.workspaceId = shared.workspaceId;
    return known;
  }

  /**
   * Whether a user may enter a workspace: with local sign-in any (one person on their own machine, said at start);
   * with tokens, the workspaces their entry in `console.users` lists (default only "default").
   */
  mayEnter(userId: string, workspaceId: string): boolean {
    if (this.mode === 'local') return true;
    const workspaces = this.users.find((u) => u.id === userId)?.workspaces ?? ['default'];
    return workspaces.includes('*') || workspaces.includes(workspaceId);
  }

  /** Refuses (404) a workspace the user may not enter. */
  checkMember(userId: string, workspaceId: string): void {
    // Not found, as for a workspace that does not exist: a user learns nothing of the workspaces they are not in.
    if (!this.mayEnter(userId, workspaceId)) {
      throw new ApiError(404, 'workspace_not_found', `no workspace "${workspaceId}" for ${userId}`);
    }
  }

  /** The session moved to another workspace (every tab of it moves; other instances read it from the store). */
  async moveTo(session: Session, workspaceId: string): Promise<void> {
    this.checkMember(session.userId, workspaceId);
    session.workspaceId = workspaceId;
    if (this.store !== undefined && !(await this.store.move(session))) {
      this.#sessions.delete(session.id);
      throw new ApiError(401, 'unauthorized', 'this session has ended; sign in again');
    }
  }

  /**
   * Whether the session's user is an administrator: with local sign-in (one person on their own machine, loopback
   * only) always; with tokens, a user the config marks `"admin": true`, looked up by user id on every request, so a
   * restart with a changed config takes effect at once.
   */
  isAdmin(session: Pick<Session, 'userId'>): boolean {
    if (this.mode === 'local') return true;
    return this.users.some((u) => u.id === session.userId && u.admin === true);
  }

  /**
   * Follows sessions changed on other instances (a shared store only): one signed out there ends here (`ended`), one
   * moved to another workspace moves here (`moved`); when news may have been missed, each session `open()` names (those
   * with event streams here) is read again. Returns what stops it.
   */
  follow(on: {
    readonly open: () => Iterable<string>;
    readonly ended: (id: string) => void;
    /** The session moved from workspace `from` to its `workspaceId`. */
    readonly moved: (session: Session, from: string) => void;
  }): () => void {
    if (this.store?.watch === undefined) return () => undefined;
    return this.store.watch((news) => {
      this.#heard(news, on).catch(() => undefined); // a failed read is retried by the next request's own read
    });
  }

  async #heard(news: SessionNews | undefined, on: Parameters<Sessions['follow']>[0]): Promise<void> {
    for (const id of new Set(on.open())) {
      if (news !== undefined && sessionIdSha256(id) !== news.idSha256) continue;
      const before = this.#sessions.get(id)?.workspaceId;
      const now = news?.kind === 'ended' ? undefined : await this.#find(id);
      if (now === undefined) {
        this.#sessions.delete(id);
        on.ended(id);
      } else if (before !== undefined && now.workspaceId !== before) {
        on.moved(now, before);
      }
    }
  }

  async signOut(id: string): Promise<void> {
    this.#sessions.delete(id);
    await this.store?.remove(id);
  }

  #keep(session: Session): void {
    this.#sessions.set(session.id, session);
    // Sessions live in memory: past the cap the oldest sign-in ends (that tab is asked to sign in again).
    if (this.#sessions.size > MAX_SESSIONS) this.#sessions.delete(this.#sessions.keys().next().value as string);
  }

  #userForToken(token: unknown): string {
    if (typeof token !== 'string' || token === '')
      throw new ApiError(401, 'unauthorized', 'a token is required to sign in');
    const digest = sha256(token);
    const user = this.users.find((u) => timingSafeEqual(Buffer.from(u.tokenSha256, 'hex'), digest));
    if (user === undefined) throw new ApiError(401, 'unauthorized', 'that token is not known');
    return user.id;
  }
}

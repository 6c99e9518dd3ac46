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

/** How many sessions are kept at once. */
const MAX_SESSIONS = 10_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * Sign-in and sessions. `local`: one person on their own machine names themselves (the console listens on loopback
 * only). `token`: each user signs in with their own token, of which the config holds only the sha256. A session id
 * is 256 random bits, kept in an HttpOnly, SameSite=Strict cookie; sessions live in memory and end with the process.
 */
export class Sessions {
  readonly #sessions = new Map<string, Session>();

  constructor(
    private readonly mode: AuthMode,
    private readonly users: readonly ConsoleUser[],
  ) {}

  signIn(body: { userId?: unknown; workspaceId?: unknown; token?: unknown }): Session {
    const workspaceId = body.workspaceId === undefined ? 'default' : checkName(body.workspaceId, 'workspaceId');
    const userId = this.mode === 'token' ? this.#userForToken(body.token) : checkName(body.userId, 'userId');
    if (this.mode === 'token' && body.userId !== undefined && body.userId !== userId) {
      throw new ApiError(401, 'unauthorized', 'the token does not belong to that user');
    }
    const session: Session = { id: randomBytes(32).toString('base64url'), userId, workspaceId };
    this.#sessions.set(session.id, session);
    // Sessions live in memory: past the cap the oldest sign-in ends (that tab is asked to sign in again).
    if (this.#sessions.size > MAX_SESSIONS) this.#sessions.delete(this.#sessions.keys().next().value as string);
    return session;
  }

  get(id: string | undefined): Session | undefined {
    return id === undefined ? undefined : this.#sessions.get(id);
  }

  signOut(id: string): void {
    this.#sessions.delete(id);
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

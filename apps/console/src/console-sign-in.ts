import type { Host, Scope, SignInRequest } from '@airlock/core';
import { ApiError } from './api-error.js';
import { IN_PROCESS_QUESTIONS } from './question-bus.js';
import type { QuestionBus } from './question-bus.js';
import type { Tenant } from '@airlock/web-kit';
import { signInFlow } from './held-flows.js';

/** A sign-in waiting for the user to come back from the authorization server. */
interface Waiting {
  readonly request: SignInRequest;
  readonly back: (redirect: string) => void;
  readonly giveUp: (why: Error) => void;
  /** The whole sign-in: it ends once the code is exchanged (or failed). */
  done?: Promise<void>;
  /** Its row in the flows held for other instances, once written. */
  readonly held: Promise<void>;
}

/** How a sign-in ended when the user landed back on the console (the popup says it in the user's language). */
export interface SignInOutcome {
  readonly serverId: string;
  readonly ended: 'signed_in' | 'failed' | 'unknown' | 'other_user';
  /** Why it failed, when it did. */
  readonly reason?: string;
}

/** How long a sign-in waits for the user to come back: then it is given up. */
const WAIT_MS = 10 * 60_000;

/**
 * Sign-in to remote servers from the console's tabs. A tab asks to sign in (`start`): the host's sign-in begins, and
 * when the host asks the surface to `authorize`, the tab is answered with the authorization URL to open in a popup.
 * The authorization server sends the user back to the console's callback (`callback`), matched by the flow's `state`
 * to the waiting sign-in of the same signed-in user; the callback then waits for the code exchange and tells the
 * popup how it went. A sign-in nobody comes back to is given up after ten minutes. With several instances (a shared
 * `questions` bus), a user sent back to another instance than the one whose sign-in waits is finished there: the
 * redirect is sent to the instance holding the sign-in, which tells how it ended.
 */
export class ConsoleSignIn {
  /** By the `state` of the authorization URL. */
  readonly #waiting = new Map<string, Waiting>();
  /** Tabs waiting for the authorization URL of a sign-in they started, by user and server. */
  readonly #starting = new Map<string, (request: SignInRequest) => void>();

  constructor(
    private readonly host: Host,
    private readonly questions: QuestionBus = IN_PROCESS_QUESTIONS,
  ) {}

  /** Finishes here the sign-ins whose user came back to another instance; returns what stops it. */
  followElsewhere(): () => void {
    if (!this.questions.shared) return () => undefined;
    return this.questions.listen((news) => {
      if (news.kind !== 'signin.redirect') return;
      const redirect = new URL(news.redirect);
      const waiting = this.#waiting.get(redirect.searchParams.get('state') ?? '');
      if (waiting === undefined) return; // another instance's sign-in, or none
      void this.#finish(waiting, news.tenant, redirect)
        .then((outcome) => this.questions.reply(news.replyTo, outcome))
        .catch(() => undefined);
    });
  }

  /** `Surface.authorize`: holds the flow until the user comes back to the callback. */
  authorize(request: SignInRequest, signal: AbortSignal): Promise<string> {
    const state = request.authorizationUrl.searchParams.get('state');
    if (state === null) return Promise.reject(new Error('the authorization URL has no state'));
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => end(new Error('the sign-in was not finished within 10 minutes')), WAIT_MS);
      timer.unref?.();
      const release = () => void this.questions.flows?.release(signInFlow(state)).catch(() => undefined);
      const end = (why: Error) => {
        clearTimeout(timer);
        if (!this.#waiting.delete(state)) return;
        release();
        reject(why);
      };
      signal.addEventListener('abort', () => end(new Error('the sign-in was cancelled')), { once: true });
      this.#waiting.set(state, {
        request,
        back: (redirect) => {
          clearTimeout(timer);
          this.#waiting.delete(state);
          release();
          resolve(redirect);
        },
        giveUp: end,
        held: this.questions.flows?.hold(signInFlow(state)).catch(() => undefined) ?? Promise.resolve(),
      });
      const starting = this.#starting.get(startKey(request.user.userId, request.serverId));
      // Asked with no tab waiting (a step-up during a call): the console starts sign-ins only from a tab, so it says
      // so at once rather than leave the call waiting for a page nobody sees.
      if (starting === undefined) {
        end(
          new Error(
            `"${request.serverId}" asks for more access (${request.scope ?? 'more scopes'}); sign out of it and in again ` +
              'from the server list to grant it',
          ),
        );
        return;
      }
      starting(request);
    });
  }

  /**
   * Starts signing the tab's user in to a server; resolves with the URL the tab opens for them, or rejects with why
   * the sign-in could not start (the server does not sign users in, discovery failed …).
   */
  async start(scope: Scope, serverId: string): Promise<{ authorizationUrl: string }> {
    const key = startKey(scope.userId, serverId);
    if (this.#starting.has(key)) {
      throw new ApiError(409, 'sign_in_in_progress', `a sign-in to "${serverId}" is already starting for this user`);
    }
    const asked = new Promise<SignInRequest>((resolve) => this.#starting.set(key, resolve));
    const done = this.host.auth.signIn({ scope, serverId }).then(() => undefined);
    try {
      const request = await Promise.race([asked, done.then(() => undefined)]);
      if (request === undefined) return { authorizationUrl: '' }; // a machine sign-in needs no page
      const waiting = this.#waiting.get(request.authorizationUrl.searchParams.get('state') ?? '');
      if (waiting !== undefined) waiting.done = done;
      done.catch(() => undefined); // told to the popup by `callback`
      // The user may come back to any instance: the others learn this one holds the sign-in before the user goes.
      await waiting?.held;
      return { authorizationUrl: request.authorizationUrl.href };
    } finally {
      this.#starting.delete(key);
    }
  }

  /**
   * The user came back: hands the redirect to the waiting sign-in of this user (here, or on the instance that holds
   * it), and says how the sign-in ended.
   */
  async callback(scope: Tenant | undefined, redirect: URL): Promise<SignInOutcome> {
    const state = redirect.searchParams.get('state') ?? '';
    const waiting = this.#waiting.get(state);
    if (waiting === undefined) {
      // Only a signed-in user's redirect is sent on: one without a session could only be refused there, and every
      // instance would read it.
      const elsewhere =
        scope !== undefined && this.questions.shared
          ? await this.questions.finishSignInElsewhere(
              { userId: scope.userId, workspaceId: scope.workspaceId },
              redirect.href,
            )
          : undefined;
      return elsewhere ?? { serverId: '', ended: 'unknown' };
    }
    return this.#finish(waiting, scope, redirect);
  }

  async #finish(waiting: Waiting, scope: Tenant | undefined, redirect: URL): Promise<SignInOutcome> {
    const serverId = waiting.request.serverId;
    if (scope === undefined || scope.userId !== waiting.request.user.userId) {
      // Another browser's session (or none): finishing someone else's sign-in is refused, and theirs is given up.
      waiting.giveUp(new Error('the sign-in came back to another session'));
      return { serverId, ended: 'other_user' };
    }
    waiting.back(redirect.href);
    try {
      await waiting.done;
      return { serverId, ended: 'signed_in' };
    } catch (error) {
      return { serverId, ended: 'failed', reason: (error as Error).message };
    }
  }
}

function startKey(userId: string, serverId: string): string {
  return `${userId}\u0000${serverId}`;
}

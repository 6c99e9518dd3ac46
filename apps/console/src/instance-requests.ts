import { randomUUID } from 'node:crypto';
import type { SignInOutcome } from './console-sign-in.js';
import type { ElicitationReply } from './question-bus.js';
import type { Tenant } from '@airlock/web-kit';
import { signInFlow, urlFlow } from './held-flows.js';

/** How long a request sent to the instance holding a question, a sign-in or a URL flow waits for its reply. */
export const REPLY_MS = 15_000;

/** The kinds of news that ask another instance and wait for its reply, and the reply itself. */
export const ASKED_KINDS: readonly string[] = ['elicitation.answer', 'urlflow.done', 'signin.redirect', 'reply'];

/** How requests and replies travel between instances (the questions' news). */
export interface RequestNews {
  /** Tells `news` to every instance; resolves with its seq once it is committed. */
  tell(news: Record<string, unknown>): Promise<string | undefined>;
  /** Drops the rows of an exchange that is over (what they carried, an answer or a redirect, goes). */
  forget(seqs: readonly string[]): Promise<void>;
  /** Resolves once this instance hears news, so a reply cannot pass it by. */
  hearing(): Promise<void>;
  readonly onError: (error: Error) => void;
  /** Whether another live instance holds the flow (`held-flows.ts`); a flow nobody holds is not asked for. */
  heldElsewhere?(flow: string): Promise<boolean>;
}

/**
 * What one console instance asks the instance that holds something (a server's question, a sign-in's `state`, a URL
 * flow) and waits for its answer: a request told with a `replyTo` id, then the reply told back under that id. An
 * exchange with no reply within `REPLY_MS` ends with `undefined`: no instance held it.
 */
export class InstanceRequests {
  /** Requests waiting for their reply, by reply id. */
  readonly #replies = new Map<string, (reply: unknown, seq: string) => void>();

  constructor(private readonly news: RequestNews) {}

  async answerElsewhere(tenant: Tenant, id: string, answer: unknown): Promise<ElicitationReply> {
    const replyTo = randomUUID();
    // The tenant's two names only: a session (which is a tenant too) carries its secret id.
    const { userId, workspaceId } = tenant;
    // The answer travels in its news row, so its size is bound by the API's body limit only.
    const payload = { kind: 'elicitation.answer', id, userId, workspaceId, answer, replyTo };
    const reply = await this.#ask<ElicitationReply>(payload, replyTo);
    return reply ?? { ok: false, status: 404, code: 'not_found', message: `no instance holds open question ${id}` };
  }

  async finishSignInElsewhere(tenant: Tenant | undefined, redirect: string): Promise<SignInOutcome | undefined> {
    const state = new URL(redirect).searchParams.get('state') ?? '';
    if (!(await this.#held(signInFlow(state)))) return undefined;
    const replyTo = randomUUID();
    const who = tenant === undefined ? {} : { userId: tenant.userId, workspaceId: tenant.workspaceId };
    return this.#ask<SignInOutcome>({ kind: 'signin.redirect', id: replyTo, redirect, ...who, replyTo }, replyTo);
  }

  async completeUrlFlowElsewhere(tenant: Tenant, id: string): Promise<boolean> {
    if (!(await this.#held(urlFlow(id)))) return false;
    const replyTo = randomUUID();
    const { userId, workspaceId } = tenant;
    const payload = { kind: 'urlflow.done', id, userId, workspaceId, replyTo };
    return (await this.#ask<{ ok: true }>(payload, replyTo))?.ok === true;
  }

  /** Tells the reply to the request `replyTo` back to the instance that sent it. */
  async reply(replyTo: string, reply: ElicitationReply | SignInOutcome | { readonly ok: true }): Promise<void> {
    await this.news.tell({ kind: 'reply', id: replyTo, reply });
  }

  /** A reply was heard (news row `seq`): the request waiting for it, if it is this instance's, ends with it. */
  replied(replyTo: string, reply: unknown, seq: string): void {
    this.#replies.get(replyTo)?.(reply, seq);
  }

  /** Whether another instance may hold `flow`: yes when nothing records flows (then only asking tells). */
  async #held(flow: string): Promise<boolean> {
    return this.news.heldElsewhere === undefined ? true : this.news.heldElsewhere(flow);
  }

  /** Tells `payload` and waits for its reply (by `replyTo`) from the instance it is for; undefined after `REPLY_MS`. */
  async #ask<Reply>(payload: Record<string, unknown>, replyTo: string): Promise<Reply | undefined> {
    // The reply comes by notification: listen first.
    await this.news.hearing();
    return new Promise<Reply | undefined>((resolve, reject) => {
      let requestSeq: string | undefined;
      const done = (reply: Reply | undefined, replySeq?: string) => {
        clearTimeout(timer);
        this.#replies.delete(replyTo);
        const seqs = [requestSeq, replySeq].filter((seq) => seq !== undefined);
        if (seqs.length > 0) this.news.forget(seqs).catch((error: unknown) => this.news.onError(asError(error)));
        resolve(reply);
      };
      const timer = setTimeout(() => done(undefined), REPLY_MS);
      timer.unref?.();
      this.#replies.set(replyTo, (reply, replySeq) => done(reply as Reply, replySeq));
      this.news.tell(payload).then(
        (seq) => void (requestSeq = seq),
        (error: unknown) => {
          clearTimeout(timer);
          this.#replies.delete(replyTo);
          reject(asError(error));
        },
      );
    });
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

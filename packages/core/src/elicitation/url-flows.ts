import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { Clock } from '../clock.js';
import type { Scope } from '../scope.js';
import { sameScope } from '../scope.js';

/** How many completions of flows not (yet) known are remembered, oldest dropped first. */
const MAX_EARLY_COMPLETIONS = 100;

/**
 * The URL flows a user agreed to open, waiting for the server's `notifications/elicitation/complete` (or the user's
 * own "done, retry"), and the -32042 round that opens them one by one before a call is retried. Kept apart from the
 * broker's questions: a flow outlives the question that opened it, and a completion may arrive before the question
 * is even answered.
 */
export class UrlFlows {
  /** Accepted flows by server and the server's elicitation id, with the tenant that opened them. */
  readonly #awaiting = new Map<string, Scope>();
  /** Completions that came for no known flow: a -32042 flow may still be asking the user. */
  readonly #early = new Set<string>();
  readonly #waiters = new Map<string, (done: boolean) => void>();

  constructor(
    private readonly deps: {
      clock: Clock;
      /** How long a -32042 round waits for a flow's completion. */
      timeoutMs: () => number;
      /** A flow of a known tenant completed. */
      completed: (event: { scope: Scope; serverId: string; elicitationId: string }) => void;
    },
  ) {}

  /** The user accepted a URL question carrying the server's flow id: its completion is awaited from now on. */
  accepted(serverId: string, elicitationId: string, scope: Scope): void {
    this.#awaiting.set(flowKey(serverId, elicitationId), scope);
  }

  /** `notifications/elicitation/complete` from a server: the URL flow the user opened has finished. */
  completed(serverId: string, elicitationId: unknown): void {
    if (typeof elicitationId !== 'string') return;
    const key = flowKey(serverId, elicitationId);
    const scope = this.#awaiting.get(key);
    if (scope === undefined) {
      // Unknown ids change nothing (as the spec asks); a -32042 flow may still be asking the user, so remember it.
      this.#early.add(key);
      if (this.#early.size > MAX_EARLY_COMPLETIONS) this.#early.delete(this.#early.values().next().value!);
      return;
    }
    this.#awaiting.delete(key);
    this.#waiters.get(key)?.(true);
    this.deps.completed({ scope, serverId, elicitationId });
  }

  /** The user's own "done, retry" for a URL flow of theirs; false when no such flow is waiting. */
  completeByUser(scope: Scope, serverId: string, elicitationId: string): boolean {
    const owner = this.#awaiting.get(flowKey(serverId, elicitationId));
    if (owner === undefined || !sameScope(owner, scope)) return false;
    this.completed(serverId, elicitationId);
    return true;
  }

  /**
   * A call refused with -32042: each URL is shown for consent (through `ask`, like a URL-mode question); after each
   * accept the host waits for the flow's completion until the elicitation deadline. While it waits the user is in the
   * browser, so the call holds its idle timeout (`hold`), as it does while a question is open: the deadline governs,
   * not the 60 s without progress. True when every flow completed, so the call may be retried.
   */
  async required(options: {
    serverId: string;
    elicitations: readonly unknown[];
    signal: AbortSignal;
    ask: (params: ElicitRequest['params']) => Promise<ElicitResult>;
    /** Suspends the call's idle timeout; returns the release. */
    hold: () => () => void;
  }): Promise<boolean> {
    const { serverId, signal, hold } = options;
    for (const item of options.elicitations) {
      const params = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
      let result: ElicitResult;
      try {
        result = await options.ask({ ...params, mode: 'url' } as ElicitRequest['params']);
      } catch {
        return false; // no surface for URLs, or no call to tie it to: the server's own -32042 error stands
      }
      if (result.action !== 'accept') return false;
      const id = params['elicitationId'];
      if (typeof id !== 'string') return false;
      if (!(await this.#awaitCompletion(serverId, id, signal, hold))) return false;
    }
    return true;
  }

  #awaitCompletion(
    serverId: string,
    elicitationId: string,
    signal: AbortSignal,
    hold: () => () => void,
  ): Promise<boolean> {
    const key = flowKey(serverId, elicitationId);
    if (this.#early.delete(key)) {
      // Completed while the user was still asked: told now, so a surface that shows the accepted flow closes it.
      const scope = this.#awaiting.get(key);
      this.#awaiting.delete(key);
      if (scope !== undefined) this.deps.completed({ scope, serverId, elicitationId });
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const release = hold();
      const cancel = this.deps.clock.setTimer(() => done(false), this.deps.timeoutMs());
      const onAbort = () => done(false);
      const done = (ok: boolean) => {
        cancel();
        release();
        signal.removeEventListener('abort', onAbort);
        this.#waiters.delete(key);
        this.#awaiting.delete(key);
        resolve(ok);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiters.set(key, done);
    });
  }
}

function flowKey(serverId: string, elicitationId: string): string {
  return `${serverId}\u0000${elicitationId}`;
}

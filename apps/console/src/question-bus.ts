import type { ElicitationRequest } from '@airlock/core';
import type { KitBusNews, KitQuestionBus } from '@airlock/web-kit';
import type { ApiStatus } from './api-error.js';
import type { ConsoleEventMap } from './console-events.js';
import type { SignInOutcome } from './console-sign-in.js';
import type { Tenant } from '@airlock/web-kit';

/** How a question a server asked ended, as tabs are told (`elicitation.closed`). */
export type ElicitationClosed = ConsoleEventMap['elicitation.closed'];

/** What the instance holding a server's question said of an answer sent from another instance. */
export type ElicitationReply =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly status: ApiStatus;
      readonly code: string;
      readonly message: string;
      readonly data?: Readonly<Record<string, unknown>>;
    };

/**
 * What another instance tells: the kit's news of permission questions and cancels, and the console's own of servers'
 * questions, sign-ins and URL flows (which the kit's surface ignores).
 */
export type QuestionNews =
  | KitBusNews
  | { readonly kind: 'elicitation.opened'; readonly request: ElicitationRequest }
  | {
      readonly kind: 'elicitation.closed';
      readonly id: string;
      readonly tenant: Tenant;
      readonly closed: ElicitationClosed;
    }
  | {
      readonly kind: 'elicitation.answer';
      readonly id: string;
      readonly tenant: Tenant;
      readonly answer: unknown;
      /** Where the holder's reply goes (`reply`). */
      readonly replyTo: string;
    }
  | {
      /** "Done, retry" for an accepted URL flow that a call on this instance asked, sent from another instance. */
      readonly kind: 'urlflow.done';
      readonly id: string;
      readonly tenant: Tenant;
      readonly replyTo: string;
    }
  | {
      /** A user came back from signing in to a server to another instance than the one whose sign-in waits. */
      readonly kind: 'signin.redirect';
      readonly redirect: string;
      /** The user whose session posted it, if any (the waiting instance checks it is the one who started). */
      readonly tenant: Tenant | undefined;
      readonly replyTo: string;
    };

/**
 * Where a console's permission questions are shared with its other instances. In one process (`IN_PROCESS_QUESTIONS`)
 * there is nobody to tell and the surface decides alone, as a console on SQLite always has; on PostgreSQL
 * (`PostgresQuestions`) a question asked on one instance reaches the tabs of every instance, the first answer from any
 * of them is the one applied, and a cancel reaches the instance running the call. It is the kit's bus (which the
 * surface uses) with what the console also shares: servers' questions, sign-ins and URL flows.
 */
export interface QuestionBus extends KitQuestionBus {
  /** True when other instances share the questions: answers are claimed through the bus. */
  readonly shared: boolean;
  /** Tells the other instances of a question a server asked a call here (an elicitation). */
  openElicitation(request: ElicitationRequest): Promise<void>;
  /** Tells them it closed (answered, or its call ended). */
  closeElicitation(request: ElicitationRequest, closed: ElicitationClosed): Promise<void>;
  /**
   * Sends an answer to a server's question asked on another instance, which checks it (a form against its schema)
   * and answers the server; resolves with what that instance said (`ok`, or the refusal as the API tells it).
   */
  answerElsewhere(tenant: Tenant, id: string, answer: unknown): Promise<ElicitationReply>;
  /**
   * Sends the redirect a user came back with to the instance whose sign-in waits for it (by its `state`), which
   * finishes it; resolves with how it ended there, or undefined when no instance holds that sign-in.
   */
  finishSignInElsewhere(tenant: Tenant | undefined, redirect: string): Promise<SignInOutcome | undefined>;
  /** Sends "done, retry" for a URL flow to the instance holding it; resolves with whether one did. */
  completeUrlFlowElsewhere(tenant: Tenant, id: string): Promise<boolean>;
  /**
   * Given on a shared database: records the sign-ins this instance holds (`signin:<state>`) that another may be sent,
   * so an instance sent one nobody holds says so at once.
   */
  readonly flows?: {
    hold(flow: string): Promise<void>;
    release(flow: string): Promise<void>;
  };
  /** Replies to an `elicitation.answer`, a `urlflow.done` or a `signin.redirect` heard from another instance. */
  reply(replyTo: string, reply: ElicitationReply | SignInOutcome | { readonly ok: true }): Promise<void>;
  /**
   * Hears what the instances tell (first, the questions open on the others now: a question's opening is not told to
   * its own instance); returns what stops it.
   */
  listen(listener: (news: QuestionNews) => void): () => void;
  /** Stops listening (before the database pool ends). */
  stop(): Promise<void>;
}

/** The questions of a console that runs alone: nothing to tell, every answer is claimed by the surface itself. */
export const IN_PROCESS_QUESTIONS: QuestionBus = {
  shared: false,
  open: () => Promise.resolve(),
  claim: () => Promise.resolve('first'),
  close: () => Promise.resolve(),
  cancel: () => Promise.resolve(),
  openElicitation: () => Promise.resolve(),
  closeElicitation: () => Promise.resolve(),
  answerElsewhere: (_tenant, id) =>
    Promise.resolve({ ok: false, status: 404, code: 'not_found', message: `no open question ${id}` }),
  finishSignInElsewhere: () => Promise.resolve(undefined),
  completeUrlFlowElsewhere: () => Promise.resolve(false),
  reply: () => Promise.resolve(),
  listen: () => () => undefined,
  stop: () => Promise.resolve(),
};

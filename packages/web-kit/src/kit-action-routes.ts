import type { Host, Scope } from '@airlock/core';
import { HostError } from '@airlock/core';
import type { Context, Env } from 'hono';
import { readJsonBody } from './kit-body.js';
import type { KitCalls } from './kit-running-calls.js';
import type { KitQuestions } from './kit-host-questions.js';
import { KitRefusal } from './kit-refusal.js';
import type { KitSurface } from './kit-surface.js';

/** What the action routes need from the app that mounts them. */
export interface KitActionPorts<E extends Env> {
  readonly host: Host;
  readonly surface: KitSurface;
  /** Who the request is: its scope (an app may take the conversation from the request). */
  readonly scopeOf: (c: Context<E>) => Scope;
  readonly calls: KitCalls;
  readonly questions: KitQuestions;
}

/** A route's handler, mounted by the app at a path of its own with an `:id` parameter. */
export type KitActionHandler<E extends Env> = (c: Context<E>) => Promise<Response>;

/** The page's three actions, each answering `{ ok: true }` or throwing a refusal to the app's error handler. */
export interface KitActionRoutes<E extends Env> {
  /** A decision on a permission question (`{ decision }`): 200; 404 none open; 409 `already_answered`. */
  readonly decide: KitActionHandler<E>;
  /** An answer to a server's question (`{ answer }`), here or on the instance that asked: 200; 404; 409. */
  readonly answer: KitActionHandler<E>;
  /** A cancel of a running call: 202 once under way; 404 unknown; 409 `not_running` or `not_cancellable`. */
  readonly cancel: KitActionHandler<E>;
}

/**
 * The routes by which a page decides, answers and cancels, over what the app gives them (`ports`): the kit's own
 * server mounts them with its defaults, and an app with more to share (servers' questions across instances, calls
 * started by its own paths) mounts them at its own paths with its own ports. One implementation, one set of statuses.
 */
export function kitActionRoutes<E extends Env>(ports: KitActionPorts<E>): KitActionRoutes<E> {
  const { host, surface, scopeOf, calls, questions } = ports;
  return {
    async decide(c) {
      await surface.decide(scopeOf(c), c.req.param('id') ?? '', (await readJsonBody(c))['decision']);
      return c.json({ ok: true });
    },
    async answer(c) {
      const scope = scopeOf(c);
      const id = c.req.param('id') ?? '';
      const answer = (await readJsonBody(c))['answer'];
      const question = questions.find(scope, id);
      if (question === undefined) {
        // Asked by a call on another instance: that one checks the answer and sends it to the server.
        if ((await questions.answerElsewhere?.(scope, id, answer)) === true) return c.json({ ok: true });
        surface.assertNotClosed(scope, id, 'question');
        throw new KitRefusal(404, 'not_found', `no open question ${id}`);
      }
      try {
        host.elicitations.respond({ scope: question.scope, id, answer });
      } catch (error) {
        // Answered (or closed) meanwhile, by another tab: say so rather than "not found".
        if (error instanceof HostError && error.code === 'not_found') surface.assertNotClosed(scope, id, 'question');
        throw error;
      }
      return c.json({ ok: true });
    },
    async cancel(c) {
      await calls.cancel(scopeOf(c), c.req.param('id') ?? '');
      return c.json({ ok: true }, 202);
    },
  };
}

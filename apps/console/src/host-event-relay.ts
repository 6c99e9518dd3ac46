import type { ElicitationRequest, Host, InvocationRecord, ScreenPayload, ToolProgress } from '@airlock/core';
import { isTerminalState } from '@airlock/core';
import { isAcceptedUrlFlow } from './accepted-url-flow.js';
import { ApiError, toApiError } from './api-error.js';
import type { ConsoleEventMap, ConsoleEventName } from './console-events.js';
import type { ElicitationReply, QuestionBus, QuestionNews } from './question-bus.js';
import type { EventHub, KitQuestions, KitSurface, Tenant } from '@airlock/web-kit';
import { tenantKey } from '@airlock/web-kit';
import type { Card } from './wire.js';

/** How many finished cards are kept in memory for tabs that open later. */
const FINISHED_CARDS = 500;
/** How many accepted URL flows are kept waiting for the server (or for "done, retry"). */
const ACCEPTED_FLOWS = 500;

/** What the relay works with; the console server builds them. */
export interface HostEventRelayConfig {
  readonly host: Host;
  readonly hub: EventHub<ConsoleEventMap>;
  readonly surface: KitSurface;
  /** Where servers' questions, URL flows and their answers are shared with the other instances. */
  readonly questions: QuestionBus;
}

/**
 * Relays the host's events to the tabs of the right tenant, and keeps what a tab that opens later needs from them
 * and could not read back from history: each running call's latest progress, the open questions, the accepted URL
 * flows, and the latest finished cards (with their bounded screen payloads). Every lookup is by the caller's tenant,
 * so another tenant's id is not found.
 *
 * With instances sharing questions (`questions`), a server's question asked here is shown on every
 * instance's tabs, one asked elsewhere is shown here, and an answer given on another instance is checked and sent to
 * the server here (the instance whose call the server asked), which tells the answering instance how it went.
 */
export class HostEventRelay implements KitQuestions {
  readonly #progress = new Map<string, ToolProgress>();
  readonly #questions = new Map<string, ElicitationRequest>();
  /** Accepted URL flows not yet completed, by the host's question id: what "done, retry" can name. */
  readonly #accepted = new Map<string, ElicitationRequest>();
  readonly #finished = new Map<string, Card>();
  readonly #off: (() => void)[];
  readonly #host: Host;
  readonly #hub: EventHub<ConsoleEventMap>;
  readonly #surface: KitSurface;
  readonly #bus: QuestionBus;
  /** Questions servers asked calls on other instances, shown here until they close. */
  readonly #elsewhere = new Map<string, ElicitationRequest>();
  /** Per question asked here, its telling to the other instances: its close is told after it. */
  readonly #told = new Map<string, Promise<void>>();

  constructor({ host, hub, surface, questions }: HostEventRelayConfig) {
    this.#host = host;
    this.#hub = hub;
    this.#surface = surface;
    this.#bus = questions;
    this.#off = [
      this.#bus.listen((news) => this.#heard(news)),
      // The surface's permission questions, asked here or on another instance, to the tabs of their tenant.
      surface.listen((news) =>
        news.kind === 'opened'
          ? hub.send(news.request.scope, 'permission.requested', news.request)
          : hub.send(news.request.scope, 'permission.closed', {
              id: news.request.invocationId,
              decision: news.decision,
            }),
      ),
      host.on('invocation.transition', ({ invocation, screen }) => this.#transition(invocation, screen)),
      host.on('invocation.progress', ({ invocation, progress }) => {
        this.#progress.set(invocation.id, progress);
        hub.send(invocation.scope, 'invocation.progress', { invocationId: invocation.id, progress });
      }),
      host.on('elicitation.requested', ({ request }) => {
        this.#questions.set(request.id, request);
        if (this.#bus.shared)
          this.#told.set(
            request.id,
            this.#bus.openElicitation(request).catch(() => undefined),
          );
        hub.send(request.scope, 'elicitation.requested', request);
      }),
      host.on('elicitation.closed', ({ request, action, end }) => {
        this.#questions.delete(request.id);
        if (isAcceptedUrlFlow(request, action)) {
          this.#accepted.set(request.id, request);
          if (this.#accepted.size > ACCEPTED_FLOWS) this.#accepted.delete(this.#accepted.keys().next().value as string);
        }
        surface.remember(request.id, request.scope);
        hub.send(request.scope, 'elicitation.closed', { id: request.id, action, end });
        const told = this.#told.get(request.id);
        this.#told.delete(request.id);
        const closed = { id: request.id, action, end };
        void told?.then(() => this.#bus.closeElicitation(request, closed)).catch(() => undefined);
      }),
      host.on('elicitation.completed', ({ scope, serverId, elicitationId }) => {
        for (const [id, request] of this.#accepted) {
          if (request.serverId === serverId && request.serverElicitationId === elicitationId) {
            this.#accepted.delete(id);
            hub.send(scope, 'elicitation.completed', { id });
          }
        }
      }),
      host.on('permission.decided', ({ request, decision }) => {
        // A stored decision changes the tool list's badges and the permissions page.
        if (decision === 'allow_always' || decision === 'deny_always' || decision === 'allow_conversation')
          hub.send(request.scope, 'permissions.changed', {});
      }),
      // A tenant's own connection (a server per user or workspace) is told to that tenant's tabs only.
      host.on('server.state', ({ tenant, ...event }) =>
        tenant === undefined ? this.#everyone('server.state', event) : hub.sendWhere(tenant, 'server.state', event),
      ),
      // What a server writes may hold secrets: administrators' tabs only (of the connection's tenant, if it has one).
      host.on('server.log', ({ tenant, serverId, line }) => hub.sendToAdmins(tenant, 'server.log', { serverId, line })),
      host.on('tools.changed', ({ tenant }) =>
        tenant === undefined ? this.#everyone('tools.changed', {}) : hub.sendWhere(tenant, 'tools.changed', {}),
      ),
      // A followed URI may carry its follower's data (a template's values): told to those who follow it only.
      host.on('resource.updated', ({ tenant, serverId, uri }) => {
        const followers = host.resources.subscribers({ serverId, ...(tenant === undefined ? {} : { tenant }), uri });
        for (const who of followers) hub.send(who, 'resource.updated', { serverId, uri });
      }),
    ];
  }

  #heard(news: QuestionNews): void {
    if (news.kind === 'elicitation.opened') {
      const { request } = news;
      if (this.#questions.has(request.id) || this.#elsewhere.has(request.id)) return;
      this.#elsewhere.set(request.id, request);
      this.#hub.send(request.scope, 'elicitation.requested', request);
    } else if (news.kind === 'elicitation.closed') {
      if (!this.#elsewhere.delete(news.id)) return;
      this.#surface.remember(news.id, news.tenant);
      this.#hub.send(news.tenant, 'elicitation.closed', news.closed);
    } else if (news.kind === 'elicitation.answer') {
      const reply = this.#answerFromElsewhere(news.tenant, news.id, news.answer);
      if (reply !== undefined) void this.#bus.reply(news.replyTo, reply).catch(() => undefined);
    } else if (news.kind === 'urlflow.done' && this.#completeHere(news.tenant, news.id)) {
      void this.#bus.reply(news.replyTo, { ok: true }).catch(() => undefined);
    }
  }

  /** An answer sent from another instance to a question asked here; undefined when the question was never ours. */
  #answerFromElsewhere(tenant: Tenant, id: string, answer: unknown): ElicitationReply | undefined {
    const question = this.find(tenant, id);
    try {
      if (question === undefined) {
        // Answered or closed here already: told so (409); a question this instance never held: not ours to answer.
        this.#surface.assertNotClosed(tenant, id, 'question');
        return undefined;
      }
      this.#host.elicitations.respond({ scope: question.scope, id, answer });
      return { ok: true };
    } catch (error) {
      const refused = toApiError(error);
      return {
        ok: false,
        status: refused.status,
        code: refused.code,
        message: refused.message,
        ...(refused.data === undefined ? {} : { data: refused.data }),
      };
    }
  }

  /**
   * Sends an answer to an open question of this tenant asked on another instance, which checks it and answers the
   * server: false when no other instance asked it; its refusal is thrown as the API tells it.
   */
  async answerElsewhere(tenant: Tenant, id: string, answer: unknown): Promise<boolean> {
    const request = this.#elsewhere.get(id);
    if (request === undefined || tenantKey(request.scope) !== tenantKey(tenant)) return false;
    const reply = await this.#bus.answerElsewhere(tenant, id, answer);
    if (!reply.ok) throw new ApiError(reply.status, reply.code, reply.message, reply.data);
    return true;
  }

  #everyone<E extends ConsoleEventName>(event: E, data: ConsoleEventMap[E]): void {
    // Server states and tool lists are the same for every tenant; each tab refetches what it shows.
    this.#hub.broadcast(event, data);
  }

  #transition(invocation: InvocationRecord, screen: ScreenPayload | undefined): void {
    if (!isTerminalState(invocation.state)) {
      this.#hub.send(invocation.scope, 'invocation', { invocation });
      return;
    }
    this.#progress.delete(invocation.id);
    const card: Card = { invocation, ...(screen === undefined ? {} : { result: screen }) };
    this.#remember(card);
    this.#hub.send(invocation.scope, 'invocation', card);
  }

  /** Keeps a finished card (its screen payload is bounded) so tabs that open later need not read whole results. */
  #remember(card: Card): void {
    this.#finished.delete(card.invocation.id);
    this.#finished.set(card.invocation.id, card);
    if (this.#finished.size > FINISHED_CARDS) this.#finished.delete(this.#finished.keys().next().value as string);
  }

  /** A finished card kept in memory, any tenant's: the caller checks the scope. */
  finishedCard(invocationId: string): Card | undefined {
    return this.#finished.get(invocationId);
  }

  /** The latest progress of a running call, any tenant's: the caller checks the scope. */
  progressOf(invocationId: string): ToolProgress | undefined {
    return this.#progress.get(invocationId);
  }

  /** An open question of this tenant asked by a call here (any conversation of the workspace). */
  find(tenant: Tenant, id: string): ElicitationRequest | undefined {
    const request = this.#questions.get(id);
    return request !== undefined && tenantKey(request.scope) === tenantKey(tenant) ? request : undefined;
  }

  /** Every open question of this tenant (asked here or on another instance), oldest first. */
  openQuestions(tenant: Tenant): ElicitationRequest[] {
    return [...this.#questions.values(), ...this.#elsewhere.values()].filter(
      (q) => tenantKey(q.scope) === tenantKey(tenant),
    );
  }

  /** Every accepted URL flow of this tenant still waiting for the server (or for "done, retry"), oldest first. */
  openUrlFlows(tenant: Tenant): ElicitationRequest[] {
    return [...this.#accepted.values()].filter((q) => tenantKey(q.scope) === tenantKey(tenant));
  }

  /**
   * "Done, retry" for an accepted URL flow of this tenant, by the host's question id: here, or on the instance whose
   * call asked it (the user came back to another); false when none waits.
   */
  async completeUrlFlow(tenant: Tenant, id: string): Promise<boolean> {
    if (this.#completeHere(tenant, id)) return true;
    return this.#bus.shared ? this.#bus.completeUrlFlowElsewhere(tenant, id) : false;
  }

  #completeHere(tenant: Tenant, id: string): boolean {
    const request = this.#accepted.get(id);
    if (request?.serverElicitationId === undefined || tenantKey(request.scope) !== tenantKey(tenant)) return false;
    return this.#host.elicitations.complete({
      scope: request.scope,
      serverId: request.serverId,
      elicitationId: request.serverElicitationId,
    });
  }

  /** Stops relaying (the console is closing). */
  close(): void {
    for (const off of this.#off) off();
  }
}

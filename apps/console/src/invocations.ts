import type { ElicitationRequest, Host, InvocationRecord, ScreenPayload, Scope, ToolProgress } from '@airlock/core';
import { isTerminalState, sameScope } from '@airlock/core';
import { ApiError } from './api-error.js';
import type { Chat } from './chat.js';
import type { ConsoleSurface } from './console-surface.js';
import type { Tenant, TabHub } from './tab-hub.js';
import { tenantKey } from './tab-hub.js';
import type { Card, ServerView, Snapshot, ToolEntry } from './wire.js';

export type { Card, ToolEntry } from './wire.js';

/** How many cards a page gets when it opens (newest last). */
const CARD_PAGE = 100;
/** How many finished cards are kept in memory for tabs that open later. */
const FINISHED_CARDS = 500;

/**
 * The console's side of the one path: starts calls by hand (caller user) and keeps what it needs to cancel them,
 * turns the host's events into events for the tabs of the right tenant, and builds the state a tab opens with.
 * Every lookup is by the caller's scope, so another tenant's id is not found.
 */
export class Invocations {
  readonly #running = new Map<string, { readonly scope: Scope; readonly controller: AbortController }>();
  readonly #progress = new Map<string, ToolProgress>();
  readonly #questions = new Map<string, ElicitationRequest>();
  /** Accepted URL flows not yet completed, by the host's question id: what "done, retry" can name. */
  readonly #accepted = new Map<string, ElicitationRequest>();
  readonly #finished = new Map<string, Card>();
  readonly #off: (() => void)[] = [];
  chat: Chat | undefined;

  constructor(
    private readonly host: Host,
    private readonly hub: TabHub,
    private readonly surface: ConsoleSurface,
  ) {
    this.#off.push(
      host.on('invocation.transition', ({ invocation, screen }) => this.#transition(invocation, screen)),
      host.on('invocation.progress', ({ invocation, progress }) => {
        this.#progress.set(invocation.id, progress);
        hub.send(invocation.scope, 'invocation.progress', { invocationId: invocation.id, progress });
      }),
      host.on('elicitation.requested', ({ request }) => {
        this.#questions.set(request.id, request);
        hub.send(request.scope, 'elicitation.requested', request);
      }),
      host.on('elicitation.closed', ({ request, action, end }) => {
        this.#questions.delete(request.id);
        if (action === 'accept' && request.serverElicitationId !== undefined) {
          this.#accepted.set(request.id, request);
          if (this.#accepted.size > 500) this.#accepted.delete(this.#accepted.keys().next().value as string);
        }
        surface.remember(request.id, request.scope);
        hub.send(request.scope, 'elicitation.closed', { id: request.id, action, end });
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
        if (decision === 'allow_always' || decision === 'deny_always')
          hub.send(request.scope, 'permissions.changed', {});
      }),
      host.on('server.state', (event) => this.#everyone('server.state', event)),
      host.on('tools.changed', () => this.#everyone('tools.changed', {})),
    );
  }

  #everyone(event: string, data: unknown): void {
    // Server states and tool lists are the same for every tenant; each tab refetches what it shows.
    this.hub.broadcast(event, data);
  }

  #transition(invocation: InvocationRecord, screen: ScreenPayload | undefined): void {
    if (!isTerminalState(invocation.state)) {
      this.hub.send(invocation.scope, 'invocation', { invocation });
      return;
    }
    this.#running.delete(invocation.id);
    this.#progress.delete(invocation.id);
    const card: Card = { invocation, ...(screen === undefined ? {} : { result: screen }) };
    this.#remember(card);
    this.hub.send(invocation.scope, 'invocation', card);
  }

  /** Keeps a finished card (its screen payload is bounded) so tabs that open later need not read whole results. */
  #remember(card: Card): void {
    this.#finished.delete(card.invocation.id);
    this.#finished.set(card.invocation.id, card);
    if (this.#finished.size > FINISHED_CARDS) this.#finished.delete(this.#finished.keys().next().value as string);
  }

  /** Lets a call started elsewhere (the chat's model) be cancelled from its card. */
  track(invocation: InvocationRecord, controller: AbortController): void {
    this.#running.set(invocation.id, { scope: invocation.scope, controller });
  }

  /** Starts a call by hand through the one path (caller user); resolves with its id once it is recorded. */
  async start(scope: Scope, tool: string, args: unknown): Promise<string> {
    const controller = new AbortController();
    let id: string | undefined;
    const done = this.host.invoke({
      scope,
      caller: { kind: 'user' },
      tool,
      args,
      signal: controller.signal,
      onRecorded: (invocation) => {
        id = invocation.id;
        this.track(invocation, controller);
      },
    });
    // The call is recorded in invoke's first synchronous turn; one refused before that (an unknown tool, arguments
    // that fail the input schema) rejects with the reason, and nothing was sent.
    if (id !== undefined) {
      done.catch(() => undefined);
      return id;
    }
    await done;
    throw new ApiError(500, 'internal', `the call of ${tool} was not recorded`);
  }

  /** Cancels a running call of this tenant: before it runs nothing is sent; while it runs the server is told. */
  async cancel(scope: Scope, invocationId: string): Promise<void> {
    const running = this.#running.get(invocationId);
    if (running === undefined || tenantKey(running.scope) !== tenantKey(scope)) {
      const entry = await this.host.history.get({ scope, invocationId });
      if (entry === undefined) throw new ApiError(404, 'not_found', `no invocation ${invocationId}`);
      if (!isTerminalState(entry.invocation.state)) {
        throw new ApiError(
          409,
          'not_cancellable',
          `invocation ${invocationId} was not started here, so it cannot be cancelled here`,
        );
      }
      throw new ApiError(
        409,
        'not_running',
        `invocation ${invocationId} has already ended (${entry.invocation.state})`,
      );
    }
    running.controller.abort();
  }

  async card(scope: Scope, invocationId: string): Promise<Card> {
    const known = this.#finished.get(invocationId);
    if (known !== undefined && sameScope(known.invocation.scope, scope)) return known;
    const entry = await this.host.history.get({ scope, invocationId });
    if (entry === undefined) throw new ApiError(404, 'not_found', `no invocation ${invocationId}`);
    const progress = this.#progress.get(invocationId);
    return {
      invocation: entry.invocation,
      ...(entry.result === undefined ? {} : { result: entry.result.screen }),
      ...(progress === undefined ? {} : { progress }),
    };
  }

  /** The conversation's latest cards, oldest first. */
  async cards(scope: Scope): Promise<Card[]> {
    const records = await this.host.history.list({ scope, limit: CARD_PAGE });
    // One at a time: a card not in memory reads its whole stored result, and results can be large.
    const cards: Card[] = [];
    for (const record of records.reverse()) cards.push(await this.card(scope, record.id));
    return cards;
  }

  /** The whole result text behind a card (what "copy" copies), read through the result handle in slices. */
  async fullText(scope: Scope, invocationId: string): Promise<string> {
    const entry = await this.host.history.get({ scope, invocationId });
    if (entry === undefined) throw new ApiError(404, 'not_found', `no invocation ${invocationId}`);
    if (entry.result === undefined)
      throw new ApiError(409, 'no_result', `invocation ${invocationId} has no result yet`);
    return entry.result.fullText;
  }

  toolEntries(scope: Scope, audience: 'model' | 'user'): ToolEntry[] {
    return this.host.tools.list({ audience, scope }).map((tool) => {
      const explanation = this.host.permissions.explain({ scope, tool: tool.name });
      return {
        tool, // sent as JSON, which leaves out `run`
        risk: explanation.risk,
        ...(explanation.storedDecision === undefined ? {} : { decision: explanation.storedDecision }),
      };
    });
  }

  /**
   * The servers as every tenant may see them: no command line or URL (they can hold secrets), no identity hash.
   */
  servers(): ServerView[] {
    return this.host.servers.list().map(({ id, state, transport, trusted, toolCount, error, protocolVersion }) => ({
      id,
      state,
      transport,
      trusted,
      toolCount,
      ...(error === undefined ? {} : { error }),
      ...(protocolVersion === undefined ? {} : { protocolVersion }),
    }));
  }

  /** An open question of this tenant (any conversation of the workspace). */
  question(tenant: Tenant, id: string): ElicitationRequest | undefined {
    const request = this.#questions.get(id);
    return request !== undefined && tenantKey(request.scope) === tenantKey(tenant) ? request : undefined;
  }

  /** "Done, retry" for an accepted URL flow of this tenant, by the host's question id. */
  urlDone(tenant: Tenant, id: string): boolean {
    const request = this.#accepted.get(id);
    if (request?.serverElicitationId === undefined || tenantKey(request.scope) !== tenantKey(tenant)) return false;
    return this.host.elicitations.complete({
      scope: request.scope,
      serverId: request.serverId,
      elicitationId: request.serverElicitationId,
    });
  }

  /** What a tab opens with: everything it needs to draw the page and every question waiting for this tenant. */
  async snapshot(tenant: Tenant, conversationId: string): Promise<Snapshot> {
    const scope: Scope = { ...tenant, conversationId };
    return {
      session: { userId: tenant.userId, workspaceId: tenant.workspaceId },
      conversationId,
      servers: this.servers(),
      modelTools: this.toolEntries(scope, 'model'),
      userTools: this.toolEntries(scope, 'user'),
      decisions: this.host.permissions.list({ scope }),
      cards: await this.cards(scope),
      permissionRequests: this.surface.pendingPermissions(tenant),
      elicitations: [...this.#questions.values()].filter((q) => tenantKey(q.scope) === tenantKey(tenant)),
      urlFlows: [...this.#accepted.values()].filter((q) => tenantKey(q.scope) === tenantKey(tenant)),
      chat: {
        configured: this.chat !== undefined,
        busy: this.chat?.busy(scope) ?? false,
        lines: this.chat?.lines(scope) ?? [],
      },
    };
  }

  close(): void {
    for (const off of this.#off) off();
    for (const { controller } of this.#running.values()) controller.abort();
  }
}

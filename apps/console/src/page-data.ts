import type { Host, Scope } from '@airlock/core';
import { sameScope } from '@airlock/core';
import { ApiError } from './api-error.js';
import type { Chat } from './chat.js';
import type { ConversationLog } from './conversation-log.js';
import type { KitSurface } from '@airlock/web-kit';
import type { HostEventRelay } from './host-event-relay.js';
import type { Tenant } from '@airlock/web-kit';
import type { Card, ServerView, Snapshot, ToolEntry } from './wire.js';

/** How many cards a page gets when it opens (newest last). */
const CARD_PAGE = 100;

/** What the page data is read from; the console server builds them. */
export interface PageDataConfig {
  readonly host: Host;
  readonly relay: HostEventRelay;
  readonly surface: KitSurface;
  /** Absent when no model is configured (the chat box says so). */
  readonly chat: Chat | undefined;
  /** The chat's kept conversations (listed, and shown again, with or without a model). */
  readonly conversations: ConversationLog;
}

/**
 * What a page reads: cards, tools, servers, and the snapshot a tab opens with. Each read is by the caller's scope,
 * from history and from what the relay keeps in memory, so another tenant's id is not found.
 */
export class PageData {
  readonly #host: Host;
  readonly #relay: HostEventRelay;
  readonly #surface: KitSurface;
  readonly #chat: Chat | undefined;
  readonly #conversations: ConversationLog;

  constructor({ host, relay, surface, chat, conversations }: PageDataConfig) {
    this.#conversations = conversations;
    this.#host = host;
    this.#relay = relay;
    this.#surface = surface;
    this.#chat = chat;
  }

  /** One card: from memory when it finished lately, else from history (reading its whole stored result). */
  async card(scope: Scope, invocationId: string): Promise<Card> {
    const known = this.#relay.finishedCard(invocationId);
    if (known !== undefined && sameScope(known.invocation.scope, scope)) return known;
    const entry = await this.#host.history.get({ scope, invocationId });
    if (entry === undefined) throw new ApiError(404, 'not_found', `no invocation ${invocationId}`);
    const progress = this.#relay.progressOf(invocationId);
    const { state } = entry.invocation;
    const task =
      state === 'working' || state === 'input_required'
        ? await this.#host.tasks.get({ scope, invocationId })
        : undefined;
    return {
      invocation: entry.invocation,
      ...(entry.result === undefined ? {} : { result: entry.result.screen }),
      ...(progress === undefined ? {} : { progress }),
      ...(task === undefined ? {} : { taskStartedAt: task.createdAt }),
    };
  }

  /** The conversation's latest cards, oldest first. */
  async cards(scope: Scope): Promise<Card[]> {
    const records = await this.#host.history.list({ scope, limit: CARD_PAGE });
    // One at a time: a card not in memory reads its whole stored result, and results can be large.
    const cards: Card[] = [];
    for (const record of records.reverse()) cards.push(await this.card(scope, record.id));
    return cards;
  }

  /**
   * The whole result text behind a card (what "copy" copies). One whose whole text retention removed answers 410
   * `result_expired` with `expiredAt`, so the card says when it went rather than showing an empty text.
   */
  async fullText(scope: Scope, invocationId: string): Promise<string> {
    return (await this.#wholeResult(scope, invocationId)).fullText;
  }

  /**
   * The whole text of one result block (0-based `block`: a text block or an embedded text resource), read from the
   * kept raw result, for a card's "show all" when the screen payload was cut (seed 000 R4). Same answers as
   * `fullText` for an unknown call, one without a result, or one whose whole result retention removed.
   */
  async blockText(scope: Scope, invocationId: string, block: number): Promise<string> {
    const { rawJson } = await this.#wholeResult(scope, invocationId);
    const content = (JSON.parse(rawJson) as { content?: unknown[] }).content ?? [];
    const item = content[block] as { type?: unknown; text?: unknown; resource?: { text?: unknown } } | undefined;
    const text = item?.type === 'text' ? item.text : item?.type === 'resource' ? item.resource?.text : undefined;
    if (typeof text !== 'string') {
      throw new ApiError(404, 'not_found', `block ${block} of invocation ${invocationId} has no text`);
    }
    return text;
  }

  async #wholeResult(scope: Scope, invocationId: string): Promise<{ fullText: string; rawJson: string }> {
    const entry = await this.#host.history.get({ scope, invocationId });
    if (entry === undefined) throw new ApiError(404, 'not_found', `no invocation ${invocationId}`);
    if (entry.result === undefined)
      throw new ApiError(409, 'no_result', `invocation ${invocationId} has no result yet`);
    const { expiredAt } = entry.result;
    if (expiredAt !== undefined) {
      throw new ApiError(
        410,
        'result_expired',
        `the whole result of invocation ${invocationId} was removed on ${new Date(expiredAt).toISOString()} by ` +
          'the retention policy; what the model was given is kept',
        { invocationId, expiredAt },
      );
    }
    return entry.result;
  }

  /** The tools an audience sees in this scope, each with its risk and the stored decision that applies. */
  toolEntries(scope: Scope, audience: 'model' | 'user'): ToolEntry[] {
    return this.#host.tools.list({ audience, scope }).map((tool) => {
      const explanation = this.#host.permissions.explain({ scope, tool: tool.name });
      return {
        tool, // sent as JSON, which leaves out `run`
        risk: explanation.risk,
        ...(explanation.storedDecision === undefined ? {} : { decision: explanation.storedDecision }),
      };
    });
  }

  /**
   * The servers as this tenant sees them (its own connection's state on a server per user or workspace), no identity
   * hash; the command line or URL (they can hold secrets) to administrators only.
   */
  servers(scope: Scope, admin = false): ServerView[] {
    return this.#host.servers.list({ scope }).map((s) => ({
      id: s.id,
      state: s.state,
      transport: s.transport,
      trusted: s.trusted,
      isolation: s.isolation,
      signsIn: s.signsIn,
      toolCount: s.toolCount,
      disabled: s.disabled,
      ...(admin ? { origin: s.origin } : {}),
      ...(s.error === undefined ? {} : { error: s.error }),
      ...(s.retryAt === undefined ? {} : { retryAt: s.retryAt }),
      ...(s.resourceCount === undefined ? {} : { resourceCount: s.resourceCount }),
      ...(s.promptCount === undefined ? {} : { promptCount: s.promptCount }),
      ...(s.authChallenge === undefined ? {} : { authChallenge: s.authChallenge }),
      ...(s.protocolVersion === undefined ? {} : { protocolVersion: s.protocolVersion }),
      ...(s.about === undefined ? {} : { about: s.about }),
    }));
  }

  /** What a tab opens with: everything it needs to draw the page and every question waiting for this tenant. */
  async snapshot(tenant: Tenant, conversationId: string, admin = false): Promise<Snapshot> {
    const scope: Scope = { ...tenant, conversationId };
    // The user's own connections to the servers they signed in to (gone after a restart of the console) open in the
    // background; the tab hears when each is ready.
    void this.#host.auth.resume({ scope }).catch(() => undefined);
    return {
      session: { userId: tenant.userId, workspaceId: tenant.workspaceId, admin },
      conversationId,
      servers: this.servers(scope, admin),
      modelTools: this.toolEntries(scope, 'model'),
      userTools: this.toolEntries(scope, 'user'),
      decisions: this.#host.permissions.list({ scope }),
      cards: await this.cards(scope),
      permissionRequests: this.#surface.pending(tenant),
      elicitations: this.#relay.openQuestions(tenant),
      urlFlows: this.#relay.openUrlFlows(tenant),
      chat: {
        configured: this.#chat !== undefined,
        busy: this.#chat?.busy(scope) ?? false,
        lines: (await this.#conversations.open(scope)).lines,
        conversations: await this.#conversations.list(tenant),
        models: this.#chat?.models() ?? [],
      },
    };
  }
}

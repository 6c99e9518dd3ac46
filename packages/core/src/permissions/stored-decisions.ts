import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import { HostError } from '../errors/host-error.js';
import { auditEvent } from '../audit/audit-event-builder.js';
import type { HistoryWriter } from '../history/history-writer.js';
import type { Scope } from '../scope.js';
import type { AuditEventInput } from '../store/audit-record.js';
import type { RiskTier, StoredDecision } from '../store/decision-record.js';
import type { Tool } from '../tools/tool.js';
import type { DecisionCache } from './decision-cache.js';
import type { ExpiryDays } from './permission-config.js';
import type { ServerFacts } from './resolve-permission.js';
import { decisionExpiresAt, DESTRUCTIVE_CONVERSATION_MS } from './resolve-permission.js';
import type { RiskAssessment } from './risk.js';

/** What keeping decisions needs: the ordered history queue, the clock, the expiry policy, servers' facts, risk. */
export interface StoredDecisionsDeps {
  readonly writes: HistoryWriter;
  readonly clock: Clock;
  readonly expiry: ExpiryDays;
  readonly server: (serverId: string) => ServerFacts | undefined;
  readonly risk: (tool: Tool) => RiskAssessment;
}

/**
 * A user's standing answers (allow always, deny always, allow for this conversation) as the host keeps them: made
 * from an answer, listed, revoked, given a new expiry, forgotten after a retention sweep. Each change is committed with
 * its audit event before it returns and then held in the gate's memory, so the next call sees it without a read.
 */
export class StoredDecisions {
  readonly #decisions: DecisionCache;
  readonly #deps: StoredDecisionsDeps;

  constructor(decisions: DecisionCache, deps: StoredDecisionsDeps) {
    this.#decisions = decisions;
    this.#deps = deps;
  }

  /** The tenant's stored decisions. */
  list(scope: Pick<Scope, 'userId' | 'workspaceId'>): StoredDecision[] {
    return this.#decisions.list(scope);
  }

  /** Forgets one decision, or all of a server's; returns how many. Another tenant's ids find nothing. */
  async revoke(options: { scope: Scope; id?: string; serverId?: string }): Promise<number> {
    const { scope } = options;
    if ((options.id === undefined) === (options.serverId === undefined)) {
      throw new HostError('invalid_arguments', 'revoke takes either an id or a serverId');
    }
    const doomed = this.list(scope).filter((d) =>
      options.id !== undefined ? d.id === options.id : d.serverId === options.serverId,
    );
    if (options.id !== undefined && doomed.length === 0)
      throw new HostError('not_found', `no stored decision ${options.id}`);
    if (doomed.length === 0) return 0;
    await this.#deps.writes.commit({
      kind: 'decision.delete',
      scope,
      ids: doomed.map((d) => d.id),
      audit: doomed.map((d) => this.#decisionAudit(d, { decision: 'revoke', origin: 'user_prompt', decisionId: d.id })),
    });
    for (const d of doomed) this.#decisions.forget(d);
    return doomed.length;
  }

  /** Drops from memory decisions a retention sweep deleted from the store (one renewed since under its key stays). */
  forgetDeleted(decisions: readonly StoredDecision[]): void {
    for (const d of decisions) this.#decisions.forgetExactly(d);
  }

  /** Changes when a decision expires (null: never). */
  async setExpiry(options: { scope: Scope; id: string; expiresAt: number | null }): Promise<StoredDecision> {
    const current = this.list(options.scope).find((d) => d.id === options.id);
    if (current === undefined) throw new HostError('not_found', `no stored decision ${options.id}`);
    if (options.expiresAt !== null && !Number.isFinite(options.expiresAt)) {
      throw new HostError('invalid_arguments', 'expiresAt must be a time in milliseconds or null');
    }
    const next = { ...current, expiresAt: options.expiresAt };
    await this.#deps.writes.commit({
      kind: 'decision.put',
      decision: next,
      audit: this.#decisionAudit(current, {
        decision: 'set_expiry',
        origin: 'user_prompt',
        decisionId: current.id,
        expiresAt: options.expiresAt,
      }),
    });
    this.#decisions.remember(next);
    return next;
  }

  /** The audit event of a change to a stored decision: the decision's tenant (and its conversation), no call. */
  #decisionAudit(d: StoredDecision, data: Record<string, unknown>): AuditEventInput {
    return auditEvent({
      type: 'permission.decision',
      at: this.#deps.clock.now(),
      scope: d,
      serverId: d.serverId,
      tool: d.tool,
      argsHash: d.argsHash,
      riskTier: d.riskTier,
      data,
    });
  }

  /**
   * Keeps a standing answer (allow always, deny always, allow for this conversation) with its audit event, committed
   * before this returns, and remembers it.
   */
  async keep(
    scope: Scope,
    tool: Tool,
    argsHash: string | null,
    decision: 'allow_always' | 'deny_always' | 'allow_conversation',
    tier: RiskTier,
    audit: AuditEventInput,
  ): Promise<StoredDecision> {
    if (tool.origin.kind !== 'mcp') throw new HostError('invalid_arguments', `${tool.name} is native`);
    const server = this.#deps.server(tool.origin.serverId);
    if (server === undefined) throw new HostError('server_not_found', `no server "${tool.origin.serverId}"`);
    const now = this.#deps.clock.now();
    const effect = decision === 'deny_always' ? 'deny' : 'allow';
    const stored: StoredDecision = {
      id: randomUUID(),
      userId: scope.userId,
      workspaceId: scope.workspaceId,
      serverId: tool.origin.serverId,
      serverIdentity: server.identity,
      tool: tool.origin.originalName,
      argsHash,
      // The conversation grain is a row like allow always's, with the conversation in its key: every store keeps it,
      // and instances sharing a store learn of it (and of its revoke) as of any other decision.
      ...(decision === 'allow_conversation' ? { conversationId: scope.conversationId } : {}),
      definitionHash: tool.definitionHash,
      effect,
      riskTier: tier,
      grantedAt: now,
      // An allow for a conversation runs out with an allow always of its tier, and within a day for a tool that may
      // modify or delete data: a long-lived conversation does not turn it into the standing allow refused such a tool.
      expiresAt: decisionExpiresAt({
        effect,
        tier,
        grantedAt: now,
        expiryDays: this.#deps.expiry,
        capMs:
          decision === 'allow_conversation' && this.#deps.risk(tool).destructive
            ? DESTRUCTIVE_CONVERSATION_MS
            : undefined,
      }),
      grantedBy: scope.userId,
    };
    // Stored decisions are committed before this returns (not left queued) so a remembered answer survives a crash;
    // the writer stores what was queued first, so the audit log keeps the order in which things happened.
    await this.#deps.writes.commit({
      kind: 'decision.put',
      decision: stored,
      audit: { ...audit, data: { ...audit.data, decisionId: stored.id } },
    });
    this.#decisions.remember(stored);
    return stored;
  }
}

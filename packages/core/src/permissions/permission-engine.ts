import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import { HostError } from '../errors/host-error.js';
import type { AuditEventInput, DecisionOrigin } from '../audit/audit-event.js';
import type { PreCallHook, PreCallVerdict, QuickGate } from '../invocations/invocation-pipeline.js';
import type { Scope } from '../scope.js';
import type { HostStore } from '../storage/host-store.js';
import type { InvocationRecord } from '../invocations/invocation-record.js';
import type { WriteQueue } from '../storage/write-queue.js';
import type { PermissionDecision, PermissionRequest, Surface } from '../surface.js';
import { PERMISSION_DECISIONS } from '../surface.js';
import type { Tool } from '../tools/tool.js';
import { toolDisplayName } from '../tools/tool.js';
import type { PermissionRule, RuleVerdict } from './permission-rules.js';
import { evaluateRules } from './permission-rules.js';
import type { RiskAssessment, RiskTier } from './risk.js';
import { deriveRisk } from './risk.js';
import type { StoredDecision } from './stored-decision.js';
import { decisionKey, decisionKeyPrefix } from './stored-decision.js';

const DAY_MS = 24 * 60 * 60 * 1000;

const ALLOW: PreCallVerdict = { allow: true };

/** How long an allow always lasts, by risk tier, in days; null never expires. */
export type ExpiryDays = Readonly<Record<RiskTier, number | null>>;

export const DEFAULT_EXPIRY_DAYS: ExpiryDays = { low: 90, medium: 30, high: 7 };

/** Permission settings of a host. */
export interface PermissionConfig {
  readonly rules?: readonly PermissionRule[];
  readonly expiryDays?: Partial<ExpiryDays>;
  /** How long a prompt may wait for the user before the call is denied. Default 5 minutes. */
  readonly promptTimeoutMs?: number;
}

/** What the engine needs to know of a server. */
export interface ServerFacts {
  readonly identity: string;
  readonly trusted: boolean;
}

/** Which rule or stored decision decides a call, and why: what `host.permissions.explain` returns. */
export interface PermissionExplanation {
  readonly decision: 'allow' | 'deny' | 'ask';
  readonly source: 'rule' | 'stored_decision' | 'prompt';
  readonly risk: RiskAssessment;
  readonly reason: string;
  readonly rule?: PermissionRule;
  readonly storedDecision?: StoredDecision;
}

/** A call as the gate sees it before it is recorded: the hash and the record are worked out only if needed. */
type QuickCall = Parameters<QuickGate>[0];

type Resolution =
  | { kind: 'rule'; verdict: RuleVerdict }
  | { kind: 'stored'; decision: StoredDecision }
  | { kind: 'ask'; origin: 'user_prompt' | 'expired_renewal'; why: string };

/** What the engine tells listeners. */
export interface PermissionEvents {
  requested(request: PermissionRequest): void;
  decided(event: {
    /** The request as a prompt would show it, built only for a listener that asks for it. */
    request: () => PermissionRequest;
    decision: PermissionDecision | 'allow' | 'deny';
    origin: DecisionOrigin;
  }): void;
}

/**
 * The consent gate: rules first, then a stored decision, else the surface asks. Decisions are looked up in memory
 * (loaded from the store at start), never waiting on a server's tools/list; until the load finishes, every call is
 * asked. Allow always is refused by the engine for effectively destructive tools. Every decision is an audit event,
 * written in the same transaction as the decision it records.
 */
export class PermissionEngine {
  readonly #cache = new Map<string, StoredDecision>();
  /** How many cached decisions hold for exact arguments only: while none does, a call's arguments need no hash. */
  #argsGrain = 0;
  readonly #expiry: ExpiryDays;
  readonly #promptTimeoutMs: number;
  readonly #rules: readonly PermissionRule[];
  readonly #risks = new WeakMap<Tool, RiskAssessment>();
  #synced = false;
  /** Resolves when stored decisions are in memory. */
  readonly synced: Promise<void>;

  constructor(
    private readonly deps: {
      store: HostStore;
      /** The ordered history queue: decisions made without asking are audited in order with the call's rows. */
      writes: WriteQueue;
      clock: Clock;
      surface: Surface | undefined;
      config: PermissionConfig;
      server: (serverId: string) => ServerFacts | undefined;
      events: PermissionEvents;
    },
  ) {
    this.#expiry = { ...DEFAULT_EXPIRY_DAYS, ...deps.config.expiryDays };
    this.#promptTimeoutMs = deps.config.promptTimeoutMs ?? 5 * 60_000;
    this.#rules = deps.config.rules ?? [];
    this.synced = deps.store.listDecisions({}).then((all) => {
      for (const decision of all) this.#remember(decision);
      this.#synced = true;
    });
  }

  /** The rules in force. */
  get rules(): readonly PermissionRule[] {
    return this.#rules;
  }

  /** The risk of a tool as the badge shows it. */
  risk(tool: Tool): RiskAssessment {
    // A tool's risk depends only on its definition, its server's trust and the rules, all fixed for a Tool object
    // (a changed listing makes new Tool objects), so it is worked out once per tool, not once per call.
    let risk = this.#risks.get(tool);
    if (risk === undefined) {
      const server = tool.origin.kind === 'mcp' ? this.deps.server(tool.origin.serverId) : undefined;
      const verdict = evaluateRules(this.#rules, { userId: '', workspaceId: '' }, target(tool));
      risk = deriveRisk({
        annotations: tool.annotations,
        trusted: tool.origin.kind === 'native' || server?.trusted === true,
        meta: tool.meta,
        ruleRisk: verdict?.rule.risk,
      });
      this.#risks.set(tool, risk);
    }
    return risk;
  }

  /**
   * Decides a call from the rules and stored decisions alone, or returns undefined when a person must be asked.
   * Nothing is written or told yet: `record` queues the decision's audit event and tells listeners, and the caller
   * runs it (the pipeline runs it once an allowed call is on its way, and at once for a deny). The arguments' hash is
   * asked for only when a decision for exact arguments exists.
   */
  decideAtOnce(call: QuickCall): { readonly verdict: PreCallVerdict; readonly record: () => void } | undefined {
    const decided = this.#decide(call);
    return decided.kind === 'quick' ? decided : undefined;
  }

  /**
   * The gate as a pre-call hook. A rule or a stored decision answers synchronously, so the call path goes on in the
   * same turn; only a call that needs a person returns a promise.
   */
  readonly hook: PreCallHook = ({ invocation, tool, signal }) => {
    const decided = this.#decide({
      scope: invocation.scope,
      tool,
      argsHash: () => invocation.argsHash,
      invocation: () => invocation,
    });
    if (decided.kind === 'ask') return this.#askAndRecord(invocation, decided.resolution, tool, decided.risk, signal);
    decided.record();
    return decided.verdict;
  };

  /** What the rules and stored decisions say of a call: a verdict with its recording, or who must be asked. */
  #decide(
    call: QuickCall,
  ):
    | { readonly kind: 'quick'; readonly verdict: PreCallVerdict; readonly record: () => void }
    | { readonly kind: 'ask'; readonly resolution: Resolution & { kind: 'ask' }; readonly risk: RiskAssessment } {
    const { scope, tool } = call;
    const risk = this.risk(tool);
    const resolution = this.#resolve(scope, tool, call.argsHash);
    if (resolution.kind === 'ask') return { kind: 'ask', resolution, risk };
    const decided = (decision: PermissionDecision | 'allow' | 'deny', origin: DecisionOrigin, data: object) => () => {
      const invocation = call.invocation();
      this.deps.writes.write({ kind: 'audit', audit: this.#audit(invocation, risk, { decision, origin, ...data }) });
      this.deps.events.decided({
        request: () => this.#request(invocation, tool, risk, resolution),
        decision,
        origin,
      });
    };
    if (resolution.kind === 'rule') {
      const effect = resolution.verdict.effect === 'allow' ? 'allow' : 'deny';
      return {
        kind: 'quick',
        verdict:
          effect === 'allow'
            ? ALLOW
            : { allow: false, reason: `${tool.name} is denied by ${resolution.verdict.reason}; it was not run` },
        record: decided(effect, 'rule', { rule: resolution.verdict.rule.source }),
      };
    }
    const d = resolution.decision;
    return {
      kind: 'quick',
      verdict:
        d.effect === 'allow'
          ? ALLOW
          : {
              allow: false,
              reason: `the user denied ${tool.name} always (on ${new Date(d.grantedAt).toISOString().slice(0, 10)}); it was not run`,
            },
      record: decided(d.effect === 'allow' ? 'allow_always' : 'deny_always', 'cache_hit', { decisionId: d.id }),
    };
  }

  #audit(invocation: InvocationRecord, risk: RiskAssessment, data: Record<string, unknown>): AuditEventInput {
    return {
      type: 'permission.decision',
      at: this.deps.clock.now(),
      userId: invocation.scope.userId,
      workspaceId: invocation.scope.workspaceId,
      conversationId: invocation.scope.conversationId,
      serverId: invocation.serverId,
      tool: invocation.tool,
      argsHash: invocation.argsHash,
      riskTier: risk.tier,
      invocationId: invocation.id,
      data,
    };
  }

  async #askAndRecord(
    invocation: InvocationRecord,
    resolution: Resolution & { kind: 'ask' },
    tool: Tool,
    risk: RiskAssessment,
    signal: AbortSignal,
  ): Promise<PreCallVerdict> {
    const scope = invocation.scope;
    const request = this.#request(invocation, tool, risk, resolution);
    const audit = (data: Record<string, unknown>) => this.#audit(invocation, risk, data);
    const answer = await this.#ask(request, signal);
    if (answer.kind === 'failed') {
      this.deps.writes.write({ kind: 'audit', audit: audit({ decision: 'deny_once', origin: answer.origin }) });
      this.deps.events.decided({ request: () => request, decision: 'deny_once', origin: answer.origin });
      return { allow: false, reason: answer.reason };
    }
    let decision = answer.decision;
    const refused = decision === 'allow_always' && !request.allowAlways.offered;
    if (refused) decision = 'allow_once';
    const data = { decision, origin: resolution.origin, ...(refused ? { allowAlwaysRefused: true } : {}) };
    if (decision === 'allow_always' || decision === 'deny_always') {
      await this.#store(scope, tool, null, decision, risk.tier, audit(data));
    } else {
      this.deps.writes.write({ kind: 'audit', audit: audit(data) });
    }
    this.deps.events.decided({ request: () => request, decision, origin: resolution.origin });
    return verdictOf(decision, tool);
  }

  /** Says which rule or stored decision would decide a call now, and why; asks no one. */
  explain(options: { scope: Scope; tool: Tool; argsHash: string }): PermissionExplanation {
    const risk = this.risk(options.tool);
    const resolution = this.#resolve(options.scope, options.tool, () => options.argsHash);
    if (resolution.kind === 'rule') {
      const effect = resolution.verdict.effect;
      return {
        decision: effect,
        source: effect === 'ask' ? 'prompt' : 'rule',
        risk,
        reason: resolution.verdict.reason,
        rule: resolution.verdict.rule,
      };
    }
    if (resolution.kind === 'stored') {
      const d = resolution.decision;
      const expires = d.expiresAt === null ? 'never expires' : `expires ${new Date(d.expiresAt).toISOString()}`;
      return {
        decision: d.effect,
        source: 'stored_decision',
        risk,
        storedDecision: d,
        reason: `${d.effect} always, stored ${new Date(d.grantedAt).toISOString()}${d.argsHash === null ? '' : ' for these exact arguments'}; ${expires}`,
      };
    }
    return { decision: 'ask', source: 'prompt', risk, reason: resolution.why };
  }

  /**
   * Records a decision without a call (a settings page, a CLI). Unknown decisions, and allow always for an
   * effectively destructive tool, are refused with a clear error.
   */
  async decide(options: {
    scope: Scope;
    tool: Tool;
    decision: unknown;
    argsHash?: string | null;
  }): Promise<StoredDecision> {
    const { scope, tool } = options;
    if (!(PERMISSION_DECISIONS as readonly unknown[]).includes(options.decision)) {
      throw new HostError(
        'invalid_arguments',
        `unknown decision ${JSON.stringify(options.decision)}: use ${PERMISSION_DECISIONS.join(', ')}`,
      );
    }
    const decision = options.decision as PermissionDecision;
    if (decision !== 'allow_always' && decision !== 'deny_always') {
      throw new HostError(
        'invalid_arguments',
        `${decision} applies to one call; only allow_always and deny_always are stored`,
      );
    }
    if (tool.origin.kind !== 'mcp')
      throw new HostError('invalid_arguments', `decisions are stored for MCP tools; ${tool.name} is native`);
    const risk = this.risk(tool);
    if (decision === 'allow_always' && risk.destructive) {
      throw new HostError(
        'invalid_arguments',
        `allow always is refused for ${tool.name}: it may modify or delete data; only a host rule can pre-allow it`,
      );
    }
    const argsHash = options.argsHash ?? null;
    return this.#store(scope, tool, argsHash, decision, risk.tier, {
      type: 'permission.decision',
      at: this.deps.clock.now(),
      userId: scope.userId,
      workspaceId: scope.workspaceId,
      conversationId: scope.conversationId,
      serverId: tool.origin.serverId,
      tool: tool.name,
      argsHash,
      riskTier: risk.tier,
      invocationId: null,
      data: { decision, origin: 'user_prompt', via: 'decide' },
    });
  }

  /** The tenant's stored decisions. */
  list(scope: Pick<Scope, 'userId' | 'workspaceId'>): StoredDecision[] {
    return [...this.#cache.values()]
      .filter((d) => d.userId === scope.userId && d.workspaceId === scope.workspaceId)
      .sort((a, b) => b.grantedAt - a.grantedAt);
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
    await this.deps.writes.drain();
    await this.deps.store.deleteDecisions(
      scope,
      doomed.map((d) => d.id),
      doomed.map((d) => ({
        type: 'permission.decision' as const,
        at: this.deps.clock.now(),
        userId: scope.userId,
        workspaceId: scope.workspaceId,
        conversationId: null,
        serverId: d.serverId,
        tool: d.tool,
        argsHash: d.argsHash,
        riskTier: d.riskTier,
        invocationId: null,
        data: { decision: 'revoke', origin: 'user_prompt', decisionId: d.id },
      })),
    );
    for (const d of doomed) this.#forget(d);
    return doomed.length;
  }

  /** Changes when a decision expires (null: never). */
  async setExpiry(options: { scope: Scope; id: string; expiresAt: number | null }): Promise<StoredDecision> {
    const current = this.list(options.scope).find((d) => d.id === options.id);
    if (current === undefined) throw new HostError('not_found', `no stored decision ${options.id}`);
    if (options.expiresAt !== null && !Number.isFinite(options.expiresAt)) {
      throw new HostError('invalid_arguments', 'expiresAt must be a time in milliseconds or null');
    }
    const next = { ...current, expiresAt: options.expiresAt };
    await this.deps.writes.drain();
    await this.deps.store.putDecision(next, {
      type: 'permission.decision',
      at: this.deps.clock.now(),
      userId: current.userId,
      workspaceId: current.workspaceId,
      conversationId: null,
      serverId: current.serverId,
      tool: current.tool,
      argsHash: current.argsHash,
      riskTier: current.riskTier,
      invocationId: null,
      data: { decision: 'set_expiry', origin: 'user_prompt', decisionId: current.id, expiresAt: options.expiresAt },
    });
    this.#remember(next);
    return next;
  }

  #remember(decision: StoredDecision): void {
    const key = decisionKey(decision);
    if (this.#cache.get(key)?.argsHash != null) this.#argsGrain -= 1;
    this.#cache.set(key, decision);
    if (decision.argsHash !== null) this.#argsGrain += 1;
  }

  #forget(decision: StoredDecision): void {
    const key = decisionKey(decision);
    const held = this.#cache.get(key);
    if (held === undefined) return;
    this.#cache.delete(key);
    if (held.argsHash !== null) this.#argsGrain -= 1;
  }

  #resolve(scope: Scope, tool: Tool, argsHash: () => string): Resolution {
    const rule = evaluateRules(this.#rules, scope, target(tool));
    if (rule !== undefined && rule.effect !== 'ask') return { kind: 'rule', verdict: rule };
    if (rule?.effect === 'ask') return { kind: 'ask', origin: 'user_prompt', why: `${rule.reason}: always ask` };
    if (tool.origin.kind !== 'mcp') return { kind: 'ask', origin: 'user_prompt', why: 'no stored decision' };
    if (!this.#synced)
      return { kind: 'ask', origin: 'user_prompt', why: 'stored decisions are still loading, so the user is asked' };
    const server = this.deps.server(tool.origin.serverId);
    if (server === undefined) return { kind: 'ask', origin: 'user_prompt', why: 'unknown server' };
    // Two lookups, these exact arguments first, with keys built by concatenation: this runs before every call.
    const prefix = decisionKeyPrefix(scope.userId, scope.workspaceId, server.identity, tool.origin.originalName);
    const found = (this.#argsGrain > 0 ? this.#cache.get(prefix + argsHash()) : undefined) ?? this.#cache.get(prefix);
    if (found === undefined) return { kind: 'ask', origin: 'user_prompt', why: 'no stored decision for this tool' };
    if (found.definitionHash !== tool.definitionHash) {
      return {
        kind: 'ask',
        origin: 'user_prompt',
        why: 'the tool changed (description, schema or annotations) since the user decided',
      };
    }
    if (found.expiresAt !== null && found.expiresAt <= this.deps.clock.now()) {
      return {
        kind: 'ask',
        origin: 'expired_renewal',
        why: `the stored decision expired ${new Date(found.expiresAt).toISOString()}`,
      };
    }
    return { kind: 'stored', decision: found };
  }

  #request(invocation: InvocationRecord, tool: Tool, risk: RiskAssessment, resolution: Resolution): PermissionRequest {
    const { id: invocationId, scope, caller, args, argsHash } = invocation;
    const server = tool.origin.kind === 'mcp' ? this.deps.server(tool.origin.serverId) : undefined;
    return {
      invocationId,
      scope,
      caller,
      tool: {
        name: tool.name,
        displayName: toolDisplayName(tool),
        originalName: tool.origin.kind === 'mcp' ? tool.origin.originalName : tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
        ...(tool.icons === undefined ? {} : { icons: tool.icons }),
      },
      server: tool.origin.kind === 'mcp' ? { id: tool.origin.serverId, trusted: server?.trusted === true } : null,
      args,
      argsHash,
      risk,
      allowAlways:
        tool.origin.kind !== 'mcp'
          ? { offered: false, reason: 'native tools are asked each time' }
          : risk.destructive
            ? { offered: false, reason: 'allow always is not offered for tools that may modify or delete data' }
            : { offered: true },
      defaultAction: risk.destructive ? 'deny_once' : 'allow_once',
      renewal: resolution.kind === 'ask' && resolution.origin === 'expired_renewal',
    };
  }

  async #ask(
    request: PermissionRequest,
    signal: AbortSignal,
  ): Promise<
    { kind: 'answered'; decision: PermissionDecision } | { kind: 'failed'; origin: DecisionOrigin; reason: string }
  > {
    const surface = this.deps.surface;
    if (surface === undefined) {
      return {
        kind: 'failed',
        origin: 'no_surface',
        reason: `no surface is attached to ask the user, so ${request.tool.name} did not run`,
      };
    }
    this.deps.events.requested(request);
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => {
        resolve('timeout');
        controller.abort();
      }, this.#promptTimeoutMs);
    });
    try {
      const answer: unknown = await Promise.race([surface.askPermission(request, controller.signal), timeout]);
      if (answer === 'timeout') {
        return {
          kind: 'failed',
          origin: 'prompt_timeout',
          reason: `no one answered the permission prompt within ${this.#promptTimeoutMs} ms, so ${request.tool.name} did not run`,
        };
      }
      if (!(PERMISSION_DECISIONS as readonly unknown[]).includes(answer)) {
        return {
          kind: 'failed',
          origin: 'user_prompt',
          reason: `the surface answered ${JSON.stringify(answer)}, which is not a decision; ${request.tool.name} did not run`,
        };
      }
      return { kind: 'answered', decision: answer as PermissionDecision };
    } catch (error) {
      return {
        kind: 'failed',
        origin: 'user_prompt',
        reason: `the permission prompt failed, so ${request.tool.name} did not run: ${error instanceof Error ? error.message : String(error)}`,
      };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  async #store(
    scope: Scope,
    tool: Tool,
    argsHash: string | null,
    decision: 'allow_always' | 'deny_always',
    tier: RiskTier,
    audit: AuditEventInput,
  ): Promise<StoredDecision> {
    if (tool.origin.kind !== 'mcp') throw new HostError('invalid_arguments', `${tool.name} is native`);
    const server = this.deps.server(tool.origin.serverId);
    if (server === undefined) throw new HostError('server_not_found', `no server "${tool.origin.serverId}"`);
    const now = this.deps.clock.now();
    const days = decision === 'allow_always' ? this.#expiry[tier] : null;
    const stored: StoredDecision = {
      id: randomUUID(),
      userId: scope.userId,
      workspaceId: scope.workspaceId,
      serverId: tool.origin.serverId,
      serverIdentity: server.identity,
      tool: tool.origin.originalName,
      argsHash,
      definitionHash: tool.definitionHash,
      effect: decision === 'allow_always' ? 'allow' : 'deny',
      riskTier: tier,
      grantedAt: now,
      expiresAt: days === null ? null : now + days * DAY_MS,
      grantedBy: scope.userId,
    };
    // Stored decisions are written at once (not queued) so a remembered answer survives a crash; the queue is
    // drained first so the audit log keeps the order in which things happened.
    await this.deps.writes.drain();
    await this.deps.store.putDecision(stored, { ...audit, data: { ...audit.data, decisionId: stored.id } });
    this.#remember(stored);
    return stored;
  }
}

function verdictOf(decision: PermissionDecision, tool: Tool): PreCallVerdict {
  return decision.startsWith('allow')
    ? { allow: true }
    : { allow: false, reason: `the user denied ${tool.name}; it was not run` };
}

function target(tool: Tool) {
  return {
    serverId: tool.origin.kind === 'mcp' ? tool.origin.serverId : null,
    originalName: tool.origin.kind === 'mcp' ? tool.origin.originalName : tool.name,
    hostName: tool.name,
  };
}

import type { Clock } from '../clock.js';
import type { AuditEventInput, DecisionOrigin } from '../store/audit-record.js';
import { auditEvent } from '../audit/audit-event-builder.js';
import type { CallApproval } from '../invocations/call-approval.js';
import type { PreCallContext, PreCallHook, PreCallVerdict, QuickGate } from '../invocations/pre-call-chain.js';
import type { Scope } from '../scope.js';
import type { HostStore } from '../store/host-store.js';
import type { InvocationRecord } from '../store/invocation-record.js';
import type { HistoryWriter } from '../history/history-writer.js';
import type { PermissionAsker } from './permission-request.js';
import type { PermissionDecision, PermissionRequest } from './permission-request.js';
import type { Tool } from '../tools/tool.js';
import { toolTarget } from '../tools/tool.js';
import { DecisionCache, followStoreDecisions } from './decision-cache.js';
import type { PermissionExplanation } from './explain-permission.js';
import type { PermissionConfig } from './permission-config.js';
import { checkedUnannotatedRisk, DEFAULT_EXPIRY_DAYS } from './permission-config.js';
import { explainPermission } from './explain-permission.js';
import { allowAlwaysOffer, askPermission, DEFAULT_PROMPT_TIMEOUT_MS, permissionRequest } from './permission-prompt.js';
import type { PromptAnswer } from './permission-prompt.js';
import type { PermissionRule, RuleTarget } from './permission-rules.js';
import { answeredVerdict, approvalDenied, quickVerdict } from './permission-verdict.js';
import type { QuickVerdict } from './permission-verdict.js';
import type { PermissionResolution, ServerFacts } from './resolve-permission.js';
import { permissionRisk, resolvePermission, ruleTarget } from './resolve-permission.js';
import type { RiskAssessment } from './risk.js';
import type { RiskTier } from '../store/decision-record.js';
import { decisionToStore } from './decision-to-store.js';
import { StoredDecisions } from './stored-decisions.js';
import type { StoreCheck, SharedRevokeCheck } from './shared-revoke-check.js';
import { afterStoreCheck, sharedRevokeCheck } from './shared-revoke-check.js';
import type { StoredDecision } from '../store/decision-record.js';

/** A call as the gate sees it before it is recorded: the hash and the record are worked out only if needed. */
type QuickCall = Parameters<QuickGate>[0];

type Ask = PermissionResolution & { kind: 'ask' };

/** What the engine tells listeners. */
export interface PermissionEvents {
  requested(request: PermissionRequest): void;
  decided(event: {
    /** The request as a prompt would show it, built only for a listener that asks for it. */
    request: () => PermissionRequest;
    decision: PermissionDecision | 'allow' | 'deny';
    origin: DecisionOrigin;
    /** The surface answered allow always where it is refused: the call ran once and nothing was stored. */
    allowAlwaysRefused?: true;
    /** The app's own approval flow that answered (`InvokeOptions.approval`), when the surface was not asked. */
    by?: string;
  }): void;
}

/**
 * The consent gate: rules first, then a stored decision, else the surface asks. Decisions are looked up in memory
 * (loaded from the store at start), never waiting on a server's tools/list; until the load finishes, every call is
 * asked. Allow always is refused by the engine for effectively destructive tools. Every decision is an audit event,
 * written in the same transaction as the decision it records.
 */
export class PermissionEngine {
  readonly #decisions = new DecisionCache();
  /** The user's standing answers: kept by the gate when a user gives one, listed and revoked by the host's API. */
  readonly stored: StoredDecisions;
  readonly #promptTimeoutMs: number;
  readonly #rules: readonly PermissionRule[];
  readonly #unannotatedRisk: RiskTier | undefined;
  /** Per tool, what depends on its definition only: worked out once per Tool object, not once per call. */
  readonly #tools = new WeakMap<Tool, { readonly risk: RiskAssessment; readonly target: RuleTarget }>();
  /** The clock's wall time, as one function made once rather than a closure per call. */
  readonly #now = () => this.deps.clock.now();
  /** Resolves when stored decisions are in memory. */
  readonly synced: Promise<void>;
  /** With a store other hosts share: a stored allow is confirmed by the store before its call runs. */
  readonly #check: SharedRevokeCheck | undefined;

  constructor(
    private readonly deps: {
      store: HostStore;
      /** The ordered history queue: decisions made without asking are audited in order with the call's rows. */
      writes: HistoryWriter;
      clock: Clock;
      surface: PermissionAsker | undefined;
      config: PermissionConfig;
      server: (serverId: string) => ServerFacts | undefined;
      events: PermissionEvents;
    },
  ) {
    this.stored = new StoredDecisions(this.#decisions, {
      writes: deps.writes,
      clock: deps.clock,
      expiry: { ...DEFAULT_EXPIRY_DAYS, ...deps.config.expiryDays },
      server: deps.server,
      risk: (tool) => this.risk(tool),
    });
    this.#promptTimeoutMs = deps.config.promptTimeoutMs ?? DEFAULT_PROMPT_TIMEOUT_MS;
    this.#rules = deps.config.rules ?? [];
    this.#unannotatedRisk = checkedUnannotatedRisk(deps.config.unannotatedRisk);
    this.synced = this.#decisions.load(deps.store.listDecisions({}));
    followStoreDecisions(this.#decisions, deps.store, this.synced);
    this.#check = sharedRevokeCheck(deps.store, this.#decisions, this.#now);
  }

  /** The rules in force. */
  get rules(): readonly PermissionRule[] {
    return this.#rules;
  }

  /** The risk of a tool as the badge shows it. */
  risk(tool: Tool): RiskAssessment {
    return this.#tool(tool).risk;
  }

  #tool(tool: Tool): { readonly risk: RiskAssessment; readonly target: RuleTarget } {
    // A tool's risk depends only on its definition, its server's trust and the rules, all fixed for a Tool object
    // (a changed listing makes new Tool objects), so it is worked out once per tool, not once per call.
    let facts = this.#tools.get(tool);
    if (facts === undefined) {
      // Frozen: every prompt of the tool is handed this object, and a surface must not change what the engine decides by.
      const risk = permissionRisk({
        rules: this.#rules,
        tool,
        server: this.deps.server,
        unannotatedRisk: this.#unannotatedRisk,
      });
      Object.freeze(risk.reasons);
      facts = {
        risk: Object.freeze(risk),
        target: ruleTarget(tool),
      };
      this.#tools.set(tool, facts);
    }
    return facts;
  }

  /**
   * Decides a call from the rules and stored decisions alone, or returns undefined when a person must be asked.
   * Nothing is written or told yet: `record` queues the decision's audit event and tells listeners, and the caller
   * runs it (the pipeline runs it once an allowed call is on its way, and at once for a deny). The arguments' hash is
   * asked for only when a decision for exact arguments exists.
   */
  decideAtOnce(call: QuickCall): { readonly verdict: PreCallVerdict; readonly record: () => void } | undefined {
    const decided = this.#decide(call);
    return decided.kind === 'quick' && decided.check === undefined ? decided : undefined;
  }

  /** The gate as a pre-call hook: a rule or a stored decision answers synchronously (the call goes on in the turn). */
  readonly hook: PreCallHook = (context) => this.gate(context);

  /**
   * The gate for one action: rules, then a stored decision, else the surface asks; audited and told. `target` is what
   * rules match instead of the tool's own: a resource read (a host-made tool of its server) gives its kind and URI.
   */
  gate(context: PreCallContext, target?: RuleTarget): ReturnType<PreCallHook> {
    const { invocation, tool, signal, approval } = context;
    const call = { scope: invocation.scope, tool, argsHash: () => invocation.argsHash, invocation: () => invocation };
    const decided = this.#decide(call, target);
    if (decided.kind === 'ask') {
      return this.#askAndRecord(invocation, decided.resolution, tool, decided.risk, signal, approval);
    }
    if (approval?.decision === 'deny_once' && decided.verdict.allow) return this.#appDenied(invocation, tool, approval);
    const { check } = decided;
    if (check !== undefined) return afterStoreCheck(check, decided, () => this.gate(context, target));
    decided.record();
    return decided.verdict;
  }

  /** What the rules and stored decisions say of a call: a verdict with its recording, or who must be asked. */
  #decide(
    call: QuickCall,
    target?: RuleTarget,
  ):
    | {
        readonly kind: 'quick';
        readonly verdict: PreCallVerdict;
        readonly record: () => void;
        readonly refuse: (reason: string) => void;
        check: StoreCheck | undefined;
      }
    | { readonly kind: 'ask'; readonly resolution: Ask; readonly risk: RiskAssessment } {
    const { scope, tool } = call;
    const facts = this.#tool(tool);
    const { risk } = facts;
    const resolution = this.#resolve(scope, tool, call.argsHash, target ?? facts.target);
    if (resolution.kind === 'ask') return { kind: 'ask', resolution, risk };
    const { verdict, decision, origin, data } = quickVerdict(resolution, tool);
    const tell = (told: { decision: QuickVerdict['decision']; origin: DecisionOrigin; data: object }) => {
      const invocation = call.invocation();
      const audit = this.#audit(invocation, risk, { decision: told.decision, origin: told.origin, ...told.data });
      this.deps.writes.write({ kind: 'audit', audit });
      this.deps.events.decided({
        request: () => this.#request(invocation, tool, risk, resolution),
        decision: told.decision,
        origin: told.origin,
      });
    };
    const record = () => tell({ decision, origin, data });
    const refuse = (reason: string) =>
      tell({ decision: 'deny', origin: 'store_unreadable', data: { ...data, reason } });
    // A stored allow is confirmed by a shared store first (in `hook`); a deny, or a rule, needs no confirming.
    const held =
      resolution.kind === 'stored' && resolution.decision.effect === 'allow' ? resolution.decision : undefined;
    const check = held === undefined || this.#check === undefined ? undefined : { held, by: this.#check };
    return { kind: 'quick', verdict, record, refuse, check };
  }

  #audit(invocation: InvocationRecord, risk: RiskAssessment, data: Record<string, unknown>): AuditEventInput {
    return auditEvent({
      type: 'permission.decision',
      at: this.deps.clock.now(),
      scope: invocation.scope,
      serverId: invocation.serverId,
      tool: invocation.tool,
      argsHash: invocation.argsHash,
      riskTier: risk.tier,
      invocationId: invocation.id,
      data,
    });
  }

  async #askAndRecord(
    invocation: InvocationRecord,
    resolution: Ask,
    tool: Tool,
    risk: RiskAssessment,
    signal: AbortSignal,
    approval: CallApproval | undefined,
  ): Promise<PreCallVerdict> {
    const scope = invocation.scope;
    const request = this.#request(invocation, tool, risk, resolution);
    const audit = (data: Record<string, unknown>) => this.#audit(invocation, risk, data);
    // The app asked the user in its own flow: its answer stands in for the surface's, and says who asked.
    const answer: PromptAnswer =
      approval === undefined
        ? await askPermission({
            surface: this.deps.surface,
            request,
            signal,
            clock: this.deps.clock,
            timeoutMs: this.#promptTimeoutMs,
            requested: (asked) => this.deps.events.requested(asked),
          })
        : { kind: 'answered', decision: approval.decision };
    const by = approval === undefined ? {} : { by: approval.by };
    if (answer.kind === 'failed') {
      this.deps.writes.write({ kind: 'audit', audit: audit({ decision: 'deny_once', origin: answer.origin }) });
      this.deps.events.decided({ request: () => request, decision: 'deny_once', origin: answer.origin });
      return { allow: false, reason: answer.reason };
    }
    let decision = answer.decision;
    // Decided from the engine's own facts, not from `request.allowAlways`: the surface held that object and may have
    // changed it. Refused allow always runs the call once, audited as allow_once with allowAlwaysRefused.
    const refused = decision === 'allow_always' && !allowAlwaysOffer(toolTarget(tool).serverId, risk).offered;
    if (refused) decision = 'allow_once';
    // A native tool is asked each time: nothing is stored for it, so deny always denies this call, audited deny_once,
    // and allow for this conversation allows this call, audited allow_once.
    if (toolTarget(tool).serverId === null) {
      if (decision === 'deny_always') decision = 'deny_once';
      if (decision === 'allow_conversation') decision = 'allow_once';
    }
    const data = {
      decision,
      origin: resolution.origin,
      ...(refused ? { allowAlwaysRefused: true } : {}),
      ...(approval === undefined ? {} : { via: 'approval', by: approval.by }),
    };
    if (decision === 'allow_always' || decision === 'deny_always' || decision === 'allow_conversation') {
      await this.stored.keep(scope, tool, null, decision, risk.tier, audit(data));
    } else {
      this.deps.writes.write({ kind: 'audit', audit: audit(data) });
    }
    this.deps.events.decided({
      request: () => request,
      decision,
      origin: resolution.origin,
      ...(refused ? { allowAlwaysRefused: true as const } : {}),
      ...by,
    });
    return approval?.decision === 'deny_once' ? approvalDenied(tool, approval) : answeredVerdict(decision, tool);
  }

  /** The app's deny for a call a rule or a stored decision would allow: a deny never waits on who else would allow. */
  #appDenied(invocation: InvocationRecord, tool: Tool, approval: CallApproval): PreCallVerdict {
    const { risk } = this.#tool(tool);
    const data = { decision: 'deny_once', origin: 'user_prompt', via: 'approval', by: approval.by };
    this.deps.writes.write({ kind: 'audit', audit: this.#audit(invocation, risk, data) });
    this.deps.events.decided({
      request: () => permissionRequest({ invocation, tool, risk, server: this.deps.server, reason: undefined }),
      decision: 'deny_once',
      origin: 'user_prompt',
      by: approval.by,
    });
    return approvalDenied(tool, approval);
  }

  /** Says which rule or stored decision would decide a call now, and why; asks no one. */
  explain(options: { scope: Scope; tool: Tool; argsHash: string }): PermissionExplanation {
    const { risk, target } = this.#tool(options.tool);
    const resolution = this.#resolve(options.scope, options.tool, () => options.argsHash, target);
    return explainPermission({ resolution, risk });
  }

  /**
   * Records a decision without a call (a settings page, a CLI); allow for this conversation holds in
   * `scope.conversationId`. Unknown decisions, and allow always for an effectively destructive tool, are refused with
   * a clear error.
   */
  async decide(options: {
    scope: Scope;
    tool: Tool;
    decision: unknown;
    argsHash?: string | null;
  }): Promise<StoredDecision> {
    const { scope, tool } = options;
    const argsHash = options.argsHash ?? null;
    const decision = decisionToStore({ decision: options.decision, tool, risk: () => this.risk(tool), argsHash });
    const risk = this.risk(tool);
    return this.stored.keep(
      scope,
      tool,
      argsHash,
      decision,
      risk.tier,
      auditEvent({
        type: 'permission.decision',
        at: this.deps.clock.now(),
        scope,
        serverId: toolTarget(tool).serverId,
        tool: tool.name,
        argsHash,
        riskTier: risk.tier,
        data: { decision, origin: 'user_prompt', via: 'decide' },
      }),
    );
  }

  #resolve(scope: Scope, tool: Tool, argsHash: () => string, target: RuleTarget): PermissionResolution {
    return resolvePermission({
      rules: this.#rules,
      decisions: this.#decisions,
      tool,
      scope,
      argsHash,
      now: this.#now,
      server: this.deps.server,
      target,
    });
  }

  #request(invocation: InvocationRecord, tool: Tool, risk: RiskAssessment, resolution: PermissionResolution) {
    const reason = resolution.kind === 'ask' ? resolution.reason : undefined;
    const expiredGrain = resolution.kind === 'ask' ? resolution.expiredGrain : undefined;
    return permissionRequest({ invocation, tool, risk, server: this.deps.server, reason, expiredGrain });
  }
}

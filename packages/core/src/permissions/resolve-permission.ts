import type { Scope } from '../scope.js';
import type { Tool } from '../tools/tool.js';
import { toolTarget } from '../tools/tool.js';
import type { PermissionRule, RuleTarget, RuleVerdict } from './permission-rules.js';
import { evaluateRules } from './permission-rules.js';
import type { RiskAssessment } from './risk.js';
import type { RiskTier } from '../store/decision-record.js';
import { deriveRisk } from './risk.js';
import type { StoredDecision } from '../store/decision-record.js';
import { decisionKeyPrefix } from '../store/decision-record.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the permission rules need to know of a server. */
export interface ServerFacts {
  /** The server's `serverIdentity` (command line or URL, env or headers, trust): a changed server is asked again. */
  readonly identity: string;
  readonly trusted: boolean;
}

/** Where stored decisions are looked up: in memory, never waiting on a store or a server. */
export interface DecisionLookup {
  /** False until the stored decisions are in: until then every call is asked. */
  readonly loaded: boolean;
  /**
   * The decision under a key prefix (tenant, server identity, tool; see `decisionKeyPrefix`), the narrowest first: the
   * one for these exact arguments, else the one for this conversation (when `conversationId` is given), else the one
   * for any arguments. `argsHash` is called only when a per-arguments decision may exist, as hashing the arguments
   * costs more than the lookup.
   */
  find(prefix: string, argsHash: () => string, conversationId?: string): StoredDecision | undefined;
  /**
   * Whether the tenant holds a decision for this server id and tool under another server identity than `identity`:
   * then the server's configuration changed since the user decided. Asked only when no decision applies.
   */
  heldUnderOtherIdentity?(
    scope: Pick<Scope, 'userId' | 'workspaceId'>,
    serverId: string,
    tool: string,
    identity: string,
  ): boolean;
}

/**
 * Why the user is asked, for the prompt to say: never asked about this tool (`first_time`), its description, schema
 * or annotations changed (`definition_changed`), the server's configuration changed (`server_changed`: command, URL,
 * env, headers or trust), a stored allow ran out (`decision_expired`), stored decisions are still loading at start
 * (`decisions_loading`), a rule says to always ask (`rule_says_ask`), or a native tool, asked each time
 * (`asked_each_time`).
 */
export type PermissionAskReason =
  | 'first_time'
  | 'definition_changed'
  | 'server_changed'
  | 'decision_expired'
  | 'decisions_loading'
  | 'rule_says_ask'
  | 'asked_each_time';

/** Which grain of stored allow ran out: one kept always, or one kept for a single conversation. */
export type ExpiredGrain = 'always' | 'conversation';

/**
 * What decides a call before anyone is asked: a rule that allows or denies it, a stored decision that applies, or
 * nobody, and then why the user is asked: `reason` for the prompt, `why` in words (`expired_renewal` is the audit
 * origin when a stored allow has run out, `expiredGrain` which one).
 */
export type PermissionResolution =
  | { readonly kind: 'rule'; readonly verdict: RuleVerdict }
  | { readonly kind: 'stored'; readonly decision: StoredDecision }
  | {
      readonly kind: 'ask';
      readonly origin: 'user_prompt' | 'expired_renewal';
      readonly reason: PermissionAskReason;
      readonly why: string;
      readonly expiredGrain?: ExpiredGrain;
    };

const NATIVE: PermissionResolution = {
  kind: 'ask',
  origin: 'user_prompt',
  reason: 'asked_each_time',
  why: 'native tools are asked each time',
};
const LOADING: PermissionResolution = {
  kind: 'ask',
  origin: 'user_prompt',
  reason: 'decisions_loading',
  why: 'stored decisions are still loading, so the user is asked',
};
const UNKNOWN_SERVER: PermissionResolution = {
  kind: 'ask',
  origin: 'user_prompt',
  reason: 'first_time',
  why: 'unknown server',
};
const NONE_STORED: PermissionResolution = {
  kind: 'ask',
  origin: 'user_prompt',
  reason: 'first_time',
  why: 'no stored decision for this tool',
};
const SERVER_CHANGED: PermissionResolution = {
  kind: 'ask',
  origin: 'user_prompt',
  reason: 'server_changed',
  why: "the server's configuration (command, URL, env, headers or trust) changed since the user decided",
};
const CHANGED: PermissionResolution = {
  kind: 'ask',
  origin: 'user_prompt',
  reason: 'definition_changed',
  why: 'the tool changed (description, schema or annotations) since the user decided',
};

/**
 * Resolves a call from the rules and the stored decisions alone: rules first (a deny at any layer wins; an `ask` rule
 * always asks), then the tenant's stored decision for this server identity and tool, these exact arguments before
 * this conversation before any arguments (a deny always in force still wins over an allow for the conversation). A
 * decision made for another definition of the tool or another configuration of its server, or that has expired by
 * `now()`, asks again, saying which.
 * Pure: it reads, writes and waits on nothing, so every case is a unit test. It runs before every call: keys are
 * built by concatenation and the arguments' hash is asked for only when a per-arguments decision may apply.
 */
export function resolvePermission(options: {
  rules: readonly PermissionRule[];
  decisions: DecisionLookup;
  tool: Tool;
  /** The call's tenant; with its conversation, a decision for that conversation applies too. */
  scope: Pick<Scope, 'userId' | 'workspaceId'> & { readonly conversationId?: string };
  /** The arguments' hash, worked out on first use. */
  argsHash: () => string;
  /** Wall time, for expiry; read only when a stored decision with an expiry is found (a clock read costs more than
   * the rest of a rule's verdict). */
  now: () => number;
  /** The facts of a configured server; undefined for one that is not (or no longer) configured. */
  server: (serverId: string) => ServerFacts | undefined;
  /** The tool's {@link ruleTarget}, from a caller that keeps one per tool rather than build one per call. */
  target?: RuleTarget;
}): PermissionResolution {
  const { rules, tool, scope } = options;
  const rule = rules.length === 0 ? undefined : evaluateRules(rules, scope, options.target ?? ruleTarget(tool));
  if (rule !== undefined && rule.effect !== 'ask') return { kind: 'rule', verdict: rule };
  if (rule?.effect === 'ask') {
    return { kind: 'ask', origin: 'user_prompt', reason: 'rule_says_ask', why: `${rule.reason}: always ask` };
  }
  if (tool.origin.kind !== 'mcp') return NATIVE;
  if (!options.decisions.loaded) return LOADING;
  const server = options.server(tool.origin.serverId);
  if (server === undefined) return UNKNOWN_SERVER;
  const prefix = decisionKeyPrefix(scope.userId, scope.workspaceId, server.identity, tool.origin.originalName);
  let found = options.decisions.find(prefix, options.argsHash, scope.conversationId);
  if (found?.conversationId !== undefined) {
    // A deny always in force wins over an allow for one conversation: the user said "never" after allowing it here
    // (a settings page, or another conversation's answer). A stale one (another definition, run out) does not, as the
    // conversation's allow was given after it was asked again.
    const wide = options.decisions.find(prefix, options.argsHash);
    if (wide?.effect === 'deny' && wide.definitionHash === tool.definitionHash) {
      if (wide.expiresAt === null || wide.expiresAt > options.now()) found = wide;
    }
  }
  if (found === undefined) {
    const { serverId, originalName } = tool.origin;
    return options.decisions.heldUnderOtherIdentity?.(scope, serverId, originalName, server.identity) === true
      ? SERVER_CHANGED
      : NONE_STORED;
  }
  if (found.definitionHash !== tool.definitionHash) return CHANGED;
  if (found.expiresAt !== null && found.expiresAt <= options.now()) {
    return {
      kind: 'ask',
      origin: 'expired_renewal',
      reason: 'decision_expired',
      why: `the stored decision expired ${new Date(found.expiresAt).toISOString()}`,
      expiredGrain: found.conversationId === undefined ? 'always' : 'conversation',
    };
  }
  return { kind: 'stored', decision: found };
}

/**
 * The risk of a tool as the badge shows it: from its annotations, its server's trust (a native tool is the host's
 * own, so trusted), the host's policy for tools without annotations and the risk a host rule sets. Tenant rules are
 * not consulted: a tool has one risk for everyone.
 */
export function permissionRisk(options: {
  rules: readonly PermissionRule[];
  tool: Tool;
  server: (serverId: string) => ServerFacts | undefined;
  unannotatedRisk?: RiskTier | undefined;
}): RiskAssessment {
  const { tool } = options;
  const verdict = evaluateRules(options.rules, { userId: '', workspaceId: '' }, ruleTarget(tool));
  return deriveRisk({
    annotations: tool.annotations,
    trusted: tool.origin.kind === 'native' || options.server(tool.origin.serverId)?.trusted === true,
    meta: tool.meta,
    ruleRisk: verdict?.rule.risk,
    unannotatedRisk: options.unannotatedRisk,
  });
}

/**
 * How long an allow for one conversation of a tool that may modify or delete data lasts at most: a day. A
 * conversation may go on for days (the CLI's single one, a console conversation resumed later), and the grain must
 * not become the standing allow the engine refuses such a tool.
 */
export const DESTRUCTIVE_CONVERSATION_MS = DAY_MS;

/**
 * When a decision being stored expires: an allow after its risk tier's days (null days: never), a deny never, so a
 * user who said "never" is not asked again until they revoke it. `capMs` shortens an allow's life further.
 */
export function decisionExpiresAt(options: {
  effect: 'allow' | 'deny';
  tier: RiskTier;
  grantedAt: number;
  expiryDays: Readonly<Record<RiskTier, number | null>>;
  capMs?: number | undefined;
}): number | null {
  const days = options.effect === 'allow' ? options.expiryDays[options.tier] : null;
  const byTier = days === null ? null : options.grantedAt + days * DAY_MS;
  if (options.capMs === undefined || options.effect === 'deny') return byTier;
  const capped = options.grantedAt + options.capMs;
  return byTier === null ? capped : Math.min(byTier, capped);
}

/** A tool as rules see it: its server, its own name there, and its name in the host. Fixed for a Tool object. */
export function ruleTarget(tool: Tool): RuleTarget {
  const { serverId, originalName } = toolTarget(tool);
  return { serverId, originalName, hostName: tool.name };
}

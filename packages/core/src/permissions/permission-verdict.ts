import type { DecisionOrigin } from '../store/audit-record.js';
import type { CallApproval } from '../invocations/call-approval.js';
import type { PreCallVerdict } from '../invocations/pre-call-chain.js';
import type { PermissionDecision } from './permission-request.js';
import type { Tool } from '../tools/tool.js';
import type { PermissionResolution } from './resolve-permission.js';

const ALLOW: PreCallVerdict = { allow: true };

/** A call decided without asking anyone: its verdict, and what its audit event records. */
export interface QuickVerdict {
  readonly verdict: PreCallVerdict;
  readonly decision: 'allow' | 'deny' | 'allow_always' | 'allow_conversation' | 'deny_always';
  readonly origin: DecisionOrigin & ('rule' | 'cache_hit');
  /** Names the rule or the stored decision that decided, so the audit log says which. */
  readonly data: { readonly rule: string } | { readonly decisionId: string };
}

/**
 * What a rule or a stored decision means for the call: allowed, or denied with a reason the model can read (which
 * rule, or when the user said "never"); nothing is sent to the server of a denied call.
 */
export function quickVerdict(
  resolution: Exclude<PermissionResolution, { kind: 'ask' }>,
  tool: Pick<Tool, 'name'>,
): QuickVerdict {
  if (resolution.kind === 'rule') {
    const allow = resolution.verdict.effect === 'allow';
    return {
      verdict: allow
        ? ALLOW
        : { allow: false, reason: `${tool.name} is denied by ${resolution.verdict.reason}; it was not run` },
      decision: allow ? 'allow' : 'deny',
      origin: 'rule',
      data: { rule: resolution.verdict.rule.source },
    };
  }
  const d = resolution.decision;
  return {
    verdict:
      d.effect === 'allow'
        ? ALLOW
        : {
            allow: false,
            reason: `the user denied ${tool.name} always (on ${new Date(d.grantedAt).toISOString().slice(0, 10)}); it was not run`,
          },
    decision:
      d.effect === 'deny' ? 'deny_always' : d.conversationId === undefined ? 'allow_always' : 'allow_conversation',
    origin: 'cache_hit',
    data: { decisionId: d.id },
  };
}

/** What the user's answer to a prompt means for the call. */
export function answeredVerdict(decision: PermissionDecision, tool: Pick<Tool, 'name'>): PreCallVerdict {
  return decision.startsWith('allow')
    ? ALLOW
    : { allow: false, reason: `the user denied ${tool.name}; it was not run` };
}

/** A call the user denied in the app's own approval flow: the model reads who asked. */
export function approvalDenied(tool: Pick<Tool, 'name'>, approval: CallApproval): PreCallVerdict {
  return { allow: false, reason: `the user denied ${tool.name} when ${approval.by} asked; it was not run` };
}

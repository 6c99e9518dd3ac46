import { HostError } from '../errors/host-error.js';
import type { PermissionDecision } from './permission-request.js';
import { PERMISSION_DECISIONS } from './permission-request.js';
import type { Tool } from '../tools/tool.js';
import type { RiskAssessment } from './risk.js';

/**
 * Checks a decision someone asks to store without a call (a settings page, a CLI), as the gate would: only allow
 * always, deny always and allow for this conversation (for any arguments) are remembered, only for MCP tools (a
 * native tool is asked each time), and allow always never for a tool that may modify or delete data (only a host
 * rule can pre-allow one). Throws `invalid_arguments` with a clear reason otherwise.
 */
export function decisionToStore(options: {
  decision: unknown;
  tool: Tool;
  risk: () => RiskAssessment;
  /** Set when the decision is asked for these exact arguments only. */
  argsHash?: string | null;
}): 'allow_always' | 'deny_always' | 'allow_conversation' {
  const { tool } = options;
  if (!(PERMISSION_DECISIONS as readonly unknown[]).includes(options.decision)) {
    throw new HostError(
      'invalid_arguments',
      `unknown decision ${JSON.stringify(options.decision)}: use ${PERMISSION_DECISIONS.join(', ')}`,
    );
  }
  const decision = options.decision as PermissionDecision;
  if (decision === 'allow_once' || decision === 'deny_once') {
    throw new HostError(
      'invalid_arguments',
      `${decision} applies to one call; only allow_always, deny_always and allow_conversation are stored`,
    );
  }
  if (decision === 'allow_conversation' && (options.argsHash ?? null) !== null) {
    throw new HostError('invalid_arguments', 'allow_conversation holds for any arguments; give no args with it');
  }
  if (tool.origin.kind !== 'mcp')
    throw new HostError('invalid_arguments', `decisions are stored for MCP tools; ${tool.name} is native`);
  if (decision === 'allow_always' && options.risk().destructive) {
    throw new HostError(
      'invalid_arguments',
      `allow always is refused for ${tool.name}: it may modify or delete data; only a host rule can pre-allow it`,
    );
  }
  return decision;
}

import type { PermissionAskReason, PermissionDecision, PermissionRequest } from '@airlock/core';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/server';

/** The form field the client's person answers: one choice among the grains the request offers. */
export const DECISION_FIELD = 'decision';

/** The arguments shown in the question are cut past this many characters (the audit keeps their hash). */
const MAX_ARGS_CHARS = 4_000;

const GRAIN_TITLES: Readonly<Record<PermissionDecision, string>> = {
  allow_once: 'Allow once',
  // A gateway session (one MCP client's connection) is the host's conversation: its person knows it as a session.
  allow_conversation: 'Allow for this session',
  allow_always: 'Allow always',
  deny_once: 'Deny once',
  deny_always: 'Deny always',
};

const REASONS: Readonly<Record<PermissionAskReason, string>> = {
  first_time: 'this tool has not been allowed before',
  definition_changed: "the tool's description, schema or annotations changed since it was allowed",
  server_changed: "the tool's server changed (its command or URL) since it was allowed",
  decision_expired: 'the stored decision expired',
  decisions_loading: 'stored decisions are still loading',
  rule_says_ask: 'a permission rule says to ask',
  asked_each_time: 'this tool is asked about each time',
};

/**
 * The `elicitation/create` form that asks the person at an MCP client whether a call may run: the message names the
 * tool, its server, the risk, why it is asked and the arguments; the one field offers the four grains, without
 * allow always where the engine refuses it (destructive tools).
 */
export function permissionQuestion(request: PermissionRequest): ElicitRequestFormParams {
  const grains = offeredGrains(request);
  return {
    mode: 'form',
    message: permissionMessage(request),
    requestedSchema: {
      type: 'object',
      properties: {
        [DECISION_FIELD]: {
          type: 'string',
          title: 'Decision',
          oneOf: grains.map((grain) => ({ const: grain, title: GRAIN_TITLES[grain] })),
          default: request.defaultAction,
        },
      },
      required: [DECISION_FIELD],
    },
  };
}

/** The question's text, plain: clients show it as it is. */
export function permissionMessage(request: PermissionRequest): string {
  const { tool, server, risk } = request;
  const where =
    server === null
      ? 'a tool of the application'
      : `server "${server.id}" (${server.trusted ? 'trusted' : 'untrusted'})`;
  const named = tool.displayName === tool.originalName ? tool.name : `${tool.displayName} (${tool.name})`;
  const lines = [
    `Airlock: may the model call ${named} on ${where}?`,
    `Risk: ${risk.tier}${risk.reasons.length > 0 ? ` (${risk.reasons.join('; ')})` : ''}${
      risk.unverified ? '; its annotations are unverified hints of an untrusted server' : ''
    }.`,
  ];
  if (request.reason !== undefined) lines.push(`Asked because ${REASONS[request.reason]}.`);
  if (!request.allowAlways.offered && request.allowAlways.reason !== undefined) {
    lines.push(`Allow always is not offered: ${request.allowAlways.reason}.`);
  }
  lines.push('Arguments:', shownArgs(request.args));
  return lines.join('\n');
}

function shownArgs(args: Readonly<Record<string, unknown>>): string {
  const text = JSON.stringify(args, null, 2);
  if (text.length <= MAX_ARGS_CHARS) return text;
  return `${text.slice(0, MAX_ARGS_CHARS)}\n… (${text.length - MAX_ARGS_CHARS} more characters not shown)`;
}

/**
 * Reads the client's answer into a decision. Decline is the person's refusal (deny once); a dismissal (cancel), or an
 * accept without one of the offered grains, decides nothing and throws, so the call does not run and the audit says
 * the prompt failed rather than that someone denied it.
 */
export function decisionOf(answer: ElicitResult, request: PermissionRequest): PermissionDecision {
  if (answer.action === 'decline') return 'deny_once';
  if (answer.action === 'cancel') throw new Error('the person at the MCP client dismissed the permission question');
  const chosen = answer.content?.[DECISION_FIELD];
  const grain = offeredGrains(request).find((offered) => offered === chosen);
  if (grain === undefined) {
    throw new Error(`the MCP client answered ${JSON.stringify(chosen)}, which is not one of the offered decisions`);
  }
  return grain;
}

/** The grains the question offers: all five, less allow always and allow for the session where the engine refuses them. */
function offeredGrains(request: PermissionRequest): readonly PermissionDecision[] {
  return [
    'allow_once',
    ...(request.allowConversation.offered ? (['allow_conversation'] as const) : []),
    ...(request.allowAlways.offered ? (['allow_always'] as const) : []),
    'deny_once',
    'deny_always',
  ];
}

import type { Clock } from '../clock.js';
import type { DecisionOrigin } from '../store/audit-record.js';
import type { InvocationRecord } from '../store/invocation-record.js';
import type { PermissionAsker } from './permission-request.js';
import type { PermissionDecision, PermissionRequest } from './permission-request.js';
import { PERMISSION_DECISIONS } from './permission-request.js';
import type { Tool } from '../tools/tool.js';
import { toolDisplayName, toolTarget } from '../tools/tool.js';
import type { ExpiredGrain, PermissionAskReason, ServerFacts } from './resolve-permission.js';
import type { RiskAssessment } from './risk.js';

/** How long a prompt waits for the user when the host sets no `promptTimeoutMs`: then the call is denied. */
export const DEFAULT_PROMPT_TIMEOUT_MS = 5 * 60_000;

/** The user's decision, or why there is none (and so the call does not run): the prompt fails closed. */
export type PromptAnswer =
  | { readonly kind: 'answered'; readonly decision: PermissionDecision }
  | { readonly kind: 'failed'; readonly origin: DecisionOrigin; readonly reason: string };

/**
 * The request a prompt shows for a call: the tool as its server describes it, the full arguments, the risk, and
 * whether allow always is offered (never for a native tool, asked each time, nor for one that may modify or delete
 * data, which only a host rule can pre-allow). Also what listeners of a decision made without asking are shown.
 */
export function permissionRequest(options: {
  invocation: InvocationRecord;
  tool: Tool;
  risk: RiskAssessment;
  server: (serverId: string) => ServerFacts | undefined;
  /** Why the user is asked (`decision_expired`: the prompt says it is a renewal); none for a call decided at once. */
  reason: PermissionAskReason | undefined;
  /** With `decision_expired`: which stored allow ran out, for the prompt to name it. */
  expiredGrain?: ExpiredGrain | undefined;
}): PermissionRequest {
  const { tool, risk } = options;
  const { id: invocationId, scope, caller, args, argsHash } = options.invocation;
  const { serverId, originalName } = toolTarget(tool);
  return {
    invocationId,
    scope,
    caller,
    tool: {
      name: tool.name,
      displayName: toolDisplayName(tool),
      originalName,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
      ...(tool.icons === undefined ? {} : { icons: tool.icons }),
    },
    server: serverId === null ? null : { id: serverId, trusted: options.server(serverId)?.trusted === true },
    args,
    argsHash,
    risk,
    allowAlways: allowAlwaysOffer(serverId, risk),
    allowConversation: allowConversationOffer(serverId),
    defaultAction: risk.destructive ? 'deny_once' : 'allow_once',
    renewal: options.reason === 'decision_expired',
    ...(options.reason === undefined ? {} : { reason: options.reason }),
    ...(options.expiredGrain === undefined ? {} : { expiredGrain: options.expiredGrain }),
  };
}

// Frozen: the request hands these very objects to the surface, and the engine reads them again to judge the answer,
// so a surface that wrote `offered = true` into one must not change what the engine decides.
const NATIVE_ASKED_EACH_TIME = Object.freeze({ offered: false, reason: 'native tools are asked each time' } as const);
const DESTRUCTIVE_NOT_OFFERED = Object.freeze({
  offered: false,
  reason: 'allow always is not offered for tools that may modify or delete data',
} as const);
const OFFERED = Object.freeze({ offered: true } as const);

/**
 * Whether allow always may be kept for a tool: never for a native tool (asked each time), nor for one that is
 * effectively destructive (only a host rule can pre-allow it). The prompt shows it, and the engine applies it to the
 * surface's answer from its own facts, never from the request a surface was handed (a surface may have changed it).
 */
export function allowAlwaysOffer(
  serverId: string | null,
  risk: Pick<RiskAssessment, 'destructive'>,
): PermissionRequest['allowAlways'] {
  return serverId === null ? NATIVE_ASKED_EACH_TIME : risk.destructive ? DESTRUCTIVE_NOT_OFFERED : OFFERED;
}

const NATIVE_NOT_KEPT = Object.freeze({
  offered: false,
  reason: 'native tools are asked each time, in every conversation',
} as const);

/**
 * Whether allow for this conversation may be kept for a tool: for every MCP tool, never for a native tool (asked
 * each time). Unlike allow always, it is offered for a tool that may modify or delete data: it holds in the one
 * conversation the user is watching and for a day at most (`DESTRUCTIVE_CONVERSATION_MS`), each call still shows its
 * card and is audited, and the seed's refusal is of a standing allow that outlives the user's attention (seed 003 R5).
 * A host that wants every call of a tool asked gives it an `ask` rule, which no stored decision overrides.
 */
export function allowConversationOffer(serverId: string | null): PermissionRequest['allowConversation'] {
  return serverId === null ? NATIVE_NOT_KEPT : OFFERED;
}

/**
 * Asks the surface and waits for the user, at most `timeoutMs` on the host's clock. Fails closed, with a distinct
 * reason and audit origin for each way it can fail: no surface attached (`no_surface`), no answer in time
 * (`prompt_timeout`), a surface that threw (`surface_error`), an answer that is not a decision (`invalid_answer`), the
 * call cancelled while the prompt was open (`call_cancelled`). None of these is recorded as the user's own answer. The surface's signal aborts when the call's signal does or the time is up, so it can close its
 * prompt. `requested` is told just before the surface is asked.
 */
export async function askPermission(options: {
  surface: PermissionAsker | undefined;
  request: PermissionRequest;
  signal: AbortSignal;
  clock: Clock;
  timeoutMs: number;
  requested: (request: PermissionRequest) => void;
}): Promise<PromptAnswer> {
  const { surface, request, signal, timeoutMs } = options;
  if (surface === undefined) {
    return {
      kind: 'failed',
      origin: 'no_surface',
      reason: `no surface is attached to ask the user, so ${request.tool.name} did not run`,
    };
  }
  options.requested(request);
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  let cancelTimer: (() => void) | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    cancelTimer = options.clock.setTimer(() => {
      resolve('timeout');
      controller.abort();
    }, timeoutMs);
  });
  try {
    const answer: unknown = await Promise.race([surface.askPermission(request, controller.signal), timeout]);
    if (answer === 'timeout') {
      return {
        kind: 'failed',
        origin: 'prompt_timeout',
        reason: `no one answered the permission prompt within ${timeoutMs} ms, so ${request.tool.name} did not run`,
      };
    }
    if (!(PERMISSION_DECISIONS as readonly unknown[]).includes(answer)) {
      return {
        kind: 'failed',
        origin: 'invalid_answer',
        reason: `the surface answered ${JSON.stringify(answer)}, which is not a decision; ${request.tool.name} did not run`,
      };
    }
    return { kind: 'answered', decision: answer as PermissionDecision };
  } catch (error) {
    return {
      kind: 'failed',
      // The prompt closed because the call was cancelled (the surface rejects on its signal): not the surface's fault.
      origin: signal.aborted ? 'call_cancelled' : 'surface_error',
      reason: `the permission prompt failed, so ${request.tool.name} did not run: ${error instanceof Error ? error.message : String(error)}`,
    };
  } finally {
    cancelTimer?.();
    signal.removeEventListener('abort', onAbort);
  }
}

import type { CallApproval, Host, ToolResult } from '@airlock/core';
import type { ModelMessage } from 'ai';
import type { GovernedToolsOptions } from './governed-call.js';
import { governedCall } from './governed-call.js';

/** The name the host's audit gives the AI SDK's approval flow (`approval.by`). */
export const AI_SDK_APPROVAL_BY = 'ai-sdk';

/** The user's allow of one call in the AI SDK's approval flow, as the host takes it. */
export const AI_SDK_ALLOW: CallApproval = { decision: 'allow_once', by: AI_SDK_APPROVAL_BY };

/** One answered approval of the last tool message: the call it answers and the user's answer. */
interface AnsweredApproval {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
  readonly approved: boolean;
}

/**
 * The approvals the last message answers (the AI SDK reads only the last message, when it is a tool message), each
 * matched to its request and its tool call; a call that already has a result there is not answered again.
 */
function answeredApprovals(messages: readonly ModelMessage[]): AnsweredApproval[] {
  const last = messages.at(-1);
  if (last?.role !== 'tool') return [];
  const calls = new Map<string, { toolName: string; input: unknown }>();
  const requests = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') calls.set(part.toolCallId, { toolName: part.toolName, input: part.input });
      if (part.type === 'tool-approval-request') requests.set(part.approvalId, part.toolCallId);
    }
  }
  const resulted = new Set(last.content.flatMap((part) => (part.type === 'tool-result' ? [part.toolCallId] : [])));
  const answered = new Map<string, AnsweredApproval>();
  for (const part of last.content) {
    if (part.type !== 'tool-approval-response') continue;
    const toolCallId = requests.get(part.approvalId);
    const call = toolCallId === undefined ? undefined : calls.get(toolCallId);
    if (toolCallId === undefined || call === undefined || resulted.has(toolCallId) || answered.has(toolCallId))
      continue;
    answered.set(toolCallId, { toolCallId, ...call, approved: part.approved });
  }
  return [...answered.values()];
}

/**
 * Whether the user approved this call in the AI SDK's approval flow: the messages the AI SDK hands `execute` end with
 * the tool message that answers it. Read from the messages, not remembered, so a server that builds its tools anew
 * for each request still knows.
 */
export function approvedInMessages(toolCallId: string, messages: readonly ModelMessage[]): boolean {
  return answeredApprovals(messages).some((answer) => answer.toolCallId === toolCallId && answer.approved);
}

/**
 * Records in the host the calls the user denied in the AI SDK's approval flow. The AI SDK never runs a denied call
 * (it tells the model `execution-denied` itself), so without this the host would not know of them: each is made
 * through the host's one path with the user's deny, so nothing is sent to its server and history and the audit log
 * keep it as denied, under the model's call id, with `by: 'ai-sdk'`. Pass the messages you are about to give
 * `generateText` or `streamText` (the ones ending with the tool message of approval responses); resolves with the
 * host's result for each denial recorded now. A call the conversation's history already holds under that model call
 * id is skipped, so the same messages handed over twice (a retried request, another server) record each deny once.
 */
export async function recordDenials(
  host: Host,
  options: GovernedToolsOptions,
  messages: readonly ModelMessage[],
): Promise<ToolResult[]> {
  const denied = answeredApprovals(messages).filter((answer) => !answer.approved);
  const results: ToolResult[] = [];
  for (const answer of denied) {
    const known = await host.history.list({ scope: options.scope, modelCallId: answer.toolCallId, limit: 1 });
    if (known.length > 0) continue;
    results.push(
      await governedCall(host, options, answer.toolName, answer.input, {
        callId: answer.toolCallId,
        approval: { decision: 'deny_once', by: AI_SDK_APPROVAL_BY },
      }),
    );
  }
  return results;
}

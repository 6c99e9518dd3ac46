import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { RegisteredTool } from '../tools/tool-registry.js';
import { toolDisplayName, toolTarget } from '../tools/tool.js';
import type { CallRefusal } from './admit-call.js';
import type { BoundLimits } from './bound-result.js';
import { boundResult, DEFAULT_BOUND_LIMITS, fitText, resultHandle, serverErrorText } from './bound-result.js';
import type { ScreenPayload } from '../store/bounded-result-types.js';
import type { CallRecorder } from './call-recorder.js';
import type { InvokeOptions, ToolResult } from './invoke-options.js';
import type { InvocationError, InvocationRecord, ResultRecord } from '../store/invocation-record.js';
import type { InvocationOutcome } from '../store/invocation-state.js';
import { stateForOutcome } from '../store/invocation-state.js';

/**
 * Ends a call that returned a result: refuses one over the size cap (it is not kept) or one that breaks the tool's
 * outputSchema (`invalid_output`), bounds the rest for the model and the screen, records the end with the result, and
 * returns what the caller gets.
 */
export function settleResult(options: {
  readonly call: CallRecorder;
  readonly entry: RegisteredTool;
  readonly result: CallToolResult;
  /** The host's bounds with the tool's own overrides applied. */
  readonly bounds: Partial<BoundLimits>;
  /** The model's budget for an error result (the host's, as for every failure). */
  readonly modelChars: number;
}): ToolResult {
  const { call, entry, result, bounds } = options;
  const tool = entry.tool;
  const rawJson = JSON.stringify(result);
  const maxBytes = bounds.maxResultBytes ?? DEFAULT_BOUND_LIMITS.maxResultBytes;
  // A UTF-16 unit is at most 3 UTF-8 bytes, so a short text needs no byte count.
  if (rawJson.length > maxBytes || (rawJson.length * 3 > maxBytes && Buffer.byteLength(rawJson, 'utf8') > maxBytes)) {
    return settleFailure({
      call,
      outcome: 'invalid_output',
      modelChars: options.modelChars,
      error: {
        code: 'result_too_large',
        message: `the result of ${tool.name} is ${Buffer.byteLength(rawJson, 'utf8')} bytes, over the ${maxBytes}-byte cap; it was not kept`,
      },
    });
  }
  if (result.isError !== true && entry.checkOutput !== undefined) {
    if (result.structuredContent === undefined) {
      return settleFailure({
        call,
        outcome: 'invalid_output',
        modelChars: options.modelChars,
        error: {
          code: 'invalid_output',
          message: `${tool.name} declares an outputSchema but returned no structuredContent`,
        },
      });
    }
    const verdict = entry.checkOutput(result.structuredContent);
    if (!verdict.ok) {
      return settleFailure({
        call,
        outcome: 'invalid_output',
        modelChars: options.modelChars,
        error: {
          code: 'invalid_output',
          message: `structuredContent of ${tool.name} does not match its outputSchema: ${verdict.errors.join('; ')}`,
        },
      });
    }
  }
  const bounded = boundResult({
    result,
    source: { tool: toolDisplayName(tool), serverId: call.serverId },
    handle: resultHandle(call.id),
    limits: bounds,
    rawJson,
  });
  const stored: ResultRecord = {
    invocationId: call.id,
    model: bounded.model,
    screen: bounded.screen,
    fullText: bounded.fullText,
    rawJson: bounded.rawJson,
  };
  const outcome: InvocationOutcome = result.isError === true ? 'tool_error' : 'success';
  const error = outcome === 'tool_error' ? { code: 'tool_error', message: `${tool.name} reported an error` } : null;
  return toToolResult(call.move(stateForOutcome(outcome), outcome, error, stored), stored);
}

/**
 * Ends a call that has no tool result (denied, cancelled, timed out, failed, or a result refused): the failure framed
 * for the model and the reason in words for the screen are stored as its result, and the call moves to the outcome's
 * terminal state.
 */
export function settleFailure(options: {
  readonly call: CallRecorder;
  readonly outcome: InvocationOutcome;
  readonly error: InvocationError;
  /** The model's budget for the framed failure. */
  readonly modelChars: number;
}): ToolResult {
  const { call, outcome, error } = options;
  const frame = failureFrame(outcome, toolDisplayName(call.tool), call.serverId);
  // A protocol error's message is the server's text: framed as untrusted data, like any server text.
  const text =
    outcome === 'protocol_error' && call.serverId !== null
      ? `${frame}${serverErrorText(call.serverId, error.code, error.message)}`
      : `${frame} ${error.message}`;
  const handle = resultHandle(call.id);
  const fitted = fitText(text, options.modelChars, handle);
  const stored: ResultRecord = {
    invocationId: call.id,
    model: { content: [{ type: 'text', text: fitted.text }], text: fitted.text, isError: true },
    screen: failureScreen(error.message, handle),
    fullText: text,
    rawJson: JSON.stringify({ error }),
  };
  return toToolResult(call.move(stateForOutcome(outcome), outcome, error, stored), stored);
}

/**
 * The result of a call refused before it was recorded (an unknown or hidden tool, arguments the tool does not take):
 * the reason framed for the model as any failure is, under an id no history row has. Nothing was sent.
 */
export function refusedResult(options: {
  readonly call: InvokeOptions;
  readonly refusal: CallRefusal;
  readonly modelChars: number;
}): ToolResult {
  const { outcome, error, tool } = options.refusal;
  const invocationId = randomUUID();
  const handle = resultHandle(invocationId);
  const serverId = tool === undefined ? null : toolTarget(tool).serverId;
  const frame =
    tool === undefined
      ? `[${outcome}: tool "${options.call.tool}"]`
      : failureFrame(outcome, toolDisplayName(tool), serverId);
  const text = `${frame} ${error.message}`;
  const fitted = fitText(text, options.modelChars, handle);
  const out: { -readonly [K in keyof ToolResult]: ToolResult[K] } = {
    invocationId,
    tool: options.call.tool,
    serverId,
    state: stateForOutcome(outcome),
    outcome,
    isError: true,
    content: [{ type: 'text', text: fitted.text }],
    text: fitted.text,
    screen: failureScreen(error.message, handle),
    handle,
    error,
  };
  if (fitted.truncation !== undefined) out.truncation = fitted.truncation;
  return out;
}

/** What every caller gets back, from the call's final record and its stored result. */
export function toToolResult(record: InvocationRecord, result: ResultRecord): ToolResult {
  const out: { -readonly [K in keyof ToolResult]: ToolResult[K] } = {
    invocationId: record.id,
    tool: record.tool,
    serverId: record.serverId,
    state: record.state,
    outcome: record.outcome ?? 'success',
    isError: record.outcome !== 'success',
    content: result.model.content,
    text: result.model.text,
    screen: result.screen,
    handle: result.screen.handle,
  };
  if (result.model.truncation !== undefined) out.truncation = result.model.truncation;
  if (record.error !== null) out.error = record.error;
  return out;
}

/**
 * What a screen shows of a failure: the reason in people's words, whole (the model's copy may be cut), without the
 * frames written for the model ("[cancelled: tool …]", "[untrusted data: …]"), which a person reads as noise.
 */
export function failureScreen(text: string, handle: string): ScreenPayload {
  return { blocks: [{ type: 'text', text, totalChars: text.length, truncated: false }], isError: true, handle };
}

/** The frame that opens a failure's text: the outcome, the tool and where it comes from. */
function failureFrame(outcome: InvocationOutcome, label: string, serverId: string | null): string {
  const from = serverId === null ? 'the host' : `server "${serverId}"`;
  return `[${outcome}: tool "${label}" from ${from}]`;
}

import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { HostError } from '../errors/host-error.js';
import type { InvocationError } from '../store/invocation-record.js';
import type { Tool } from '../tools/tool.js';
import type { InvocationOutcome } from '../store/invocation-state.js';

/**
 * Turns a failed run into one of the distinct outcomes. `aborted` is the pipeline's own reason when it aborted the
 * call: the SDK reports an aborted request as a timeout, so the host's own record decides between cancel and timeout.
 */
export function classifyFailure(
  error: unknown,
  aborted: 'timeout' | 'ceiling' | 'cancelled' | null,
  tool: Tool,
  limits: { timeoutMs: number; maxTotalMs: number },
): { outcome: InvocationOutcome; error: InvocationError } {
  if (aborted === 'cancelled') {
    return { outcome: 'cancelled', error: { code: 'cancelled', message: `the call of ${tool.name} was cancelled` } };
  }
  if (aborted === 'timeout') {
    return {
      outcome: 'timeout',
      error: { code: 'timeout', message: `${tool.name} sent no result or progress for ${limits.timeoutMs} ms` },
    };
  }
  if (aborted === 'ceiling') {
    return {
      outcome: 'timeout',
      error: { code: 'timeout', message: `${tool.name} ran past the ${limits.maxTotalMs} ms ceiling` },
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ProtocolError) {
    return { outcome: 'protocol_error', error: { code: error.code, message } };
  }
  if (error instanceof HostError) {
    // A server's stream that broke on something not JSON-RPC is a protocol fault; a reply refused over the message
    // cap is output the host could not take, as a result over the result cap is.
    if (error.code === 'protocol_error') return { outcome: 'protocol_error', error: { code: error.code, message } };
    if (error.code === 'result_too_large') return { outcome: 'invalid_output', error: { code: error.code, message } };
    // A task its server ended failed or cancelled: the tool's own failure, which the model can act on.
    if (error.code === 'task_failed') return { outcome: 'tool_error', error: { code: error.code, message } };
    // The model is told plainly that the person must sign in; it cannot fix this by retrying.
    if (error.code === 'needs_auth' || error.code === 'auth_required')
      return { outcome: 'auth_required', error: { code: error.code, message } };
    return { outcome: 'transport_error', error: { code: error.code, message } };
  }
  if (error instanceof SdkError) {
    if (error.code === SdkErrorCode.InvalidResult) {
      return { outcome: 'invalid_output', error: { code: 'invalid_output', message: `malformed result: ${message}` } };
    }
    return { outcome: 'transport_error', error: { code: error.code, message } };
  }
  if (tool.origin.kind === 'native') {
    return { outcome: 'tool_error', error: { code: 'tool_error', message } };
  }
  return { outcome: 'transport_error', error: { code: 'transport_error', message } };
}

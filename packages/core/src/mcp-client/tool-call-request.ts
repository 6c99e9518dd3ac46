import type { CallToolResult, Client, Tool as McpToolDefinition } from '@modelcontextprotocol/client';
import { hashJson } from '../audit/canonical-json.js';
import { isDirectTransport } from './direct-requests.js';
import { sendDirectToolCall } from './direct-tool-call.js';
import { OrderedClient } from './ordered-client.js';
import type { ConnectionCallOptions } from './connection-call-options.js';
import { progressOf } from './tool-progress.js';

/** The SDK's own request timeout, set out of reach: every timeout is the host's, on its clock. */
export const NO_SDK_TIMEOUT_MS = 2_147_483_647;

/**
 * Sends one `tools/call` on a client, in the client's era. The legacy era needs nothing of callTool but the request
 * itself: the host validates structuredContent on its own (the definition it passes has no outputSchema), so it sends
 * tools/call directly and saves callTool's extra await on every call, with the result check of its client (see
 * {@link OrderedClient.toolResultSchema}). On the host's own stdio transport it skips `request()` too and is sent
 * directly (direct-tool-call.ts). The 2026 era goes through callTool, which mirrors declared arguments into headers.
 */
export function sendToolCall(
  on: Client,
  name: string,
  args: Readonly<Record<string, unknown>>,
  options: ConnectionCallOptions,
): Promise<CallToolResult> {
  // On the host's stdio transport, a 2025-era call skips the SDK's per-request bookkeeping (direct-tool-call.ts).
  const transport = on.transport;
  if (on instanceof OrderedClient && on.sendsPlainRequests() && isDirectTransport(transport)) {
    const direct = sendDirectToolCall(on, transport, name, args, options);
    if (direct !== undefined) return direct;
  }
  const requestOptions = {
    signal: options.signal,
    onprogress: (p: { progress: number; total?: number; message?: string }) => options.onProgress(progressOf(p)),
    timeout: NO_SDK_TIMEOUT_MS,
  };
  const meta = options.trace?.meta;
  const params = { name, arguments: args as Record<string, unknown>, ...(meta === undefined ? {} : { _meta: meta }) };
  if (on.getProtocolEra() === 'modern')
    return on.callTool(params, { ...requestOptions, toolDefinition: options.definition });
  // The host's clients check a 2025-era result with a quick check first and the SDK's own schema for the rest
  // (ordered-client.ts): the same refusals, without the SDK's zod parse of every plain result.
  return on instanceof OrderedClient
    ? on.request({ method: 'tools/call', params }, on.toolResultSchema, requestOptions)
    : on.request({ method: 'tools/call', params }, requestOptions);
}

/** True when a listed tool is the definition a call was made for (which is sent without its outputSchema). */
export function sameDefinition(listed: McpToolDefinition | undefined, called: McpToolDefinition): boolean {
  if (listed === undefined) return false;
  const { outputSchema: _ignored, ...rest } = listed;
  return hashJson(rest) === hashJson(called);
}

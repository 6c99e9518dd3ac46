import type { CallToolResult, Client, Tool as McpToolDefinition } from '@modelcontextprotocol/client';
import { hashJson } from '../audit/canonical-json.js';
import type { ToolProgress } from '../tools/tool.js';
import { OrderedClient } from './ordered-client.js';
import type { ConnectionCallOptions } from './server-connection-options.js';

/** The SDK's own request timeout, set out of reach: every timeout is the host's, on its clock. */
export const NO_SDK_TIMEOUT_MS = 2_147_483_647;

/**
 * Sends one `tools/call` on a client, in the client's era. The legacy era needs nothing of callTool but the request
 * itself: the host validates structuredContent on its own (the definition it passes has no outputSchema), so it sends
 * tools/call directly and saves callTool's extra await on every call, with the result check of its client (see
 * {@link OrderedClient.toolResultSchema}). The 2026 era goes through callTool, which mirrors declared arguments into
 * headers.
 */
export function sendToolCall(
  on: Client,
  name: string,
  args: Readonly<Record<string, unknown>>,
  options: ConnectionCallOptions,
): Promise<CallToolResult> {
  const requestOptions = {
    signal: options.signal,
    onprogress: (p: { progress: number; total?: number; message?: string }) => options.onProgress(progressOf(p)),
    timeout: NO_SDK_TIMEOUT_MS,
  };
  const params = { name, arguments: args as Record<string, unknown> };
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

function progressOf(p: { progress: number; total?: number; message?: string }): ToolProgress {
  return {
    progress: p.progress,
    ...(p.total === undefined ? {} : { total: p.total }),
    ...(p.message === undefined ? {} : { message: p.message }),
  };
}

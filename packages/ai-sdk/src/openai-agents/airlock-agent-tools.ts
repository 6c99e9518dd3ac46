import type { Host } from '@airlock/core';
import { tool } from '@openai/agents';
import type { Tool } from '@openai/agents';
import type { GovernedToolsOptions } from '../governed-call.js';
import { governedCall, governedTools } from '../governed-call.js';

/** A non-strict tool's JSON Schema, as `tool()` types it (the package does not name the type). */
type NonStrictParameters = Exclude<Extract<Parameters<typeof tool>[0], { strict: false }>['parameters'], undefined>;

/**
 * The host's tools as OpenAI Agents function tools: the host's name, description and JSON Schema, not strict (an MCP
 * schema is not a strict-mode schema: optional properties, open objects), and an `execute` that calls through the
 * host's one path with the run's `call_id` as the call's `modelCallId` and the run's abort signal. The agent gets the
 * host's bounded text for every outcome, a deny and a failure included (nothing is thrown at the run).
 *
 * An Agent takes its tools as an array when it is built: this is the list as the host has it now. After the host's
 * `tools.changed`, build the list again (for the next run, or as `agent.clone({ tools })`).
 */
export function airlockAgentTools(host: Host, options: GovernedToolsOptions): Tool[] {
  return governedTools(host, options).map((t) =>
    tool({
      name: t.name,
      description: t.description ?? t.title ?? t.name,
      parameters: t.inputSchema as unknown as NonStrictParameters,
      strict: false,
      execute: async (input, _context, details) => {
        const callId = details?.toolCall?.callId;
        const result = await governedCall(host, options, t.name, input, {
          ...(callId === undefined ? {} : { callId }),
          ...(details?.signal === undefined ? {} : { signal: details.signal }),
        });
        return result.text;
      },
    }),
  );
}

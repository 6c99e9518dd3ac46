import type { Host } from '@airlock/core';
import { ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool } from '@langchain/core/tools';
import type { ToolRunnableConfig } from '@langchain/core/tools';
import type { GovernedToolsOptions } from '../governed-call.js';
import { governedCall, governedTools } from '../governed-call.js';

/**
 * The host's tools as LangChain.js structured tools: the host's name, description and JSON Schema, and a function
 * that calls through the host's one path with the tool call's `id` as the call's `modelCallId` and the run's abort
 * signal. Invoked with a tool call (as an agent does), a tool answers with a `ToolMessage` holding the host's bounded
 * text, its status `error` for every outcome but success; invoked with bare arguments, with the text.
 *
 * The list is the host's as it is now: after the host's `tools.changed`, build it again and bind it to the model.
 */
export function airlockLangChainTools(host: Host, options: GovernedToolsOptions): DynamicStructuredTool[] {
  return governedTools(host, options).map(
    (t) =>
      new DynamicStructuredTool({
        name: t.name,
        description: t.description ?? t.title ?? t.name,
        schema: t.inputSchema,
        func: async (input: unknown, _run, config?: ToolRunnableConfig) => {
          const callId = config?.toolCall?.id;
          const result = await governedCall(host, options, t.name, input, {
            ...(callId === undefined ? {} : { callId }),
            ...(config?.signal === undefined ? {} : { signal: config.signal }),
          });
          if (callId === undefined) return result.text;
          return new ToolMessage({
            content: result.text,
            tool_call_id: callId,
            name: t.name,
            status: result.isError ? 'error' : 'success',
          });
        },
      }),
  );
}

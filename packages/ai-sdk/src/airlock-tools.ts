import type { Host, Tool, ToolResult } from '@airlock/core';
import { dynamicTool, jsonSchema } from 'ai';
import type { JSONSchema7, ToolSet } from 'ai';
import type { GovernedToolsOptions } from './governed-call.js';
import { governedCall, governedTools } from './governed-call.js';
import { AI_SDK_ALLOW, approvedInMessages } from './app-approval.js';

/** Whose question a call is: the host's surface asks (`surface`), or the AI SDK's approval flow, the app's (`app`). */
export interface AirlockToolsOptions extends GovernedToolsOptions {
  /**
   * `surface` (the default): every call goes to the host, whose rules, stored decisions or surface decide. `app`: a
   * tool's `needsApproval` says whether the host would ask (`host.permissions.explain`), so the AI SDK asks the user
   * in the app's own UI; an approved call is made with the user's allow for that one call, and the app hands denied
   * ones to `recordDenials`. A rule's or a stored decision's allow or deny needs no approval.
   */
  readonly consent?: 'surface' | 'app';
}

/**
 * What a governed tool's `execute` returns to the AI SDK (and so what `toolResults` and a UI stream carry): the
 * host's record of the call, JSON-safe. The model is given `text` only (`toModelOutput`).
 */
export interface AirlockToolOutput {
  /** The call's id in the host's history (`host.history.get`). */
  readonly invocationId: string;
  readonly outcome: ToolResult['outcome'];
  readonly isError: boolean;
  /** Exactly what the model is given: bounded, framed as untrusted data. */
  readonly text: string;
  /** Reads the whole result (`host.results.read`). */
  readonly handle: string;
}

/**
 * The host's tools as an AI SDK `ToolSet`: every tool the options' audience may see, named as the host names it, its
 * description and its JSON Schema as listed, and an `execute` that calls through the host's one path (rules, stored
 * decisions or the host's surface decide; history keeps the AI SDK's `toolCallId` as the call's `modelCallId`; the
 * AI SDK's abort signal cancels the call). The model gets the host's bounded text, as an error text for every outcome
 * but success.
 *
 * The set is live: each read (the AI SDK reads its tools at every step) lists the host's tools again, so a server's
 * `tools/list_changed`, a tool switched off or a server that went away shows at the next step without building a new
 * set. A tool object stays the same while its definition does. Spread it (`{ ...tools }`) for a snapshot.
 */
export function airlockTools(host: Host, options: AirlockToolsOptions): ToolSet {
  const built = new Map<string, { readonly hash: string; readonly tool: ToolSet[string] }>();
  const current = (): Map<string, ToolSet[string]> => {
    const now = new Map<string, ToolSet[string]>();
    for (const tool of governedTools(host, options)) {
      const kept = built.get(tool.name);
      const entry =
        kept !== undefined && kept.hash === tool.definitionHash
          ? kept
          : { hash: tool.definitionHash, tool: aiSdkTool(host, options, tool) };
      built.set(tool.name, entry);
      now.set(tool.name, entry.tool);
    }
    for (const name of built.keys()) if (!now.has(name)) built.delete(name);
    return now;
  };
  const own = (name: string | symbol) => (typeof name === 'string' ? current().get(name) : undefined);
  const target: ToolSet = {};
  return new Proxy(target, {
    get: (_target, name) => own(name),
    has: (_target, name) => own(name) !== undefined,
    ownKeys: () => [...current().keys()],
    getOwnPropertyDescriptor: (_target, name) => {
      const tool = own(name);
      return tool === undefined ? undefined : { value: tool, enumerable: true, configurable: true, writable: false };
    },
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
}

/** One host tool as an AI SDK dynamic tool (its input is the host's to check, against the tool's own schema). */
function aiSdkTool(host: Host, options: AirlockToolsOptions, tool: Tool): ToolSet[string] {
  const app = options.consent === 'app';
  return dynamicTool({
    ...(tool.description === undefined ? {} : { description: tool.description }),
    ...(tool.title === undefined ? {} : { title: tool.title }),
    inputSchema: jsonSchema(tool.inputSchema as JSONSchema7),
    ...(app ? { needsApproval: (input: unknown) => hostWouldAsk(host, options, tool.name, input) } : {}),
    execute: async (input, { toolCallId, abortSignal, messages }): Promise<AirlockToolOutput> => {
      const result = await governedCall(host, options, tool.name, input, {
        callId: toolCallId,
        ...(abortSignal === undefined ? {} : { signal: abortSignal }),
        ...(app && approvedInMessages(toolCallId, messages) ? { approval: AI_SDK_ALLOW } : {}),
      });
      return {
        invocationId: result.invocationId,
        outcome: result.outcome,
        isError: result.isError,
        text: result.text,
        handle: result.handle,
      };
    },
    toModelOutput: ({ output }) => modelOutput(output),
  });
}

/**
 * Whether the host would ask the user for this call now: no rule and no stored decision decides it. A tool the host
 * no longer has needs no approval: its call is refused (`tool_not_found`) without running.
 */
function hostWouldAsk(host: Host, options: GovernedToolsOptions, tool: string, args: unknown): boolean {
  try {
    return host.permissions.explain({ scope: options.scope, tool, args }).decision === 'ask';
  } catch {
    return false;
  }
}

/** What `toModelOutput` gives the AI SDK (the provider utilities' `ToolResultOutput`, which `ai` does not name). */
type ModelOutput = Awaited<ReturnType<NonNullable<Parameters<typeof dynamicTool>[0]['toModelOutput']>>>;

/** The host's text for the model; an error text for every outcome but success, so the provider marks it so. */
function modelOutput(output: unknown): ModelOutput {
  const o = output as Partial<AirlockToolOutput> | null | undefined;
  const text = typeof o?.text === 'string' ? o.text : (JSON.stringify(output) ?? '');
  return o?.isError === true ? { type: 'error-text', value: text } : { type: 'text', value: text };
}

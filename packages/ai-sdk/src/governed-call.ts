import type { CallApproval, Caller, Host, Scope, Tool, ToolResult } from '@airlock/core';

/** What every adapter of this package takes: whose tools, and who calls them. */
export interface GovernedToolsOptions {
  /** The tenant and conversation every call is made in (and recorded under). */
  readonly scope: Scope;
  /**
   * Whose tools to offer, and so who is recorded as the caller: `model` (the default) offers only the tools the model
   * may see and calls as the model; `user` offers the user's (app-only tools stay out) and calls as the user.
   */
  readonly audience?: 'model' | 'user';
  /**
   * The id of the conversation's message whose turn these tools serve (the AI SDK's UI message id, say): frameworks
   * hand a tool no message id of their own, so an application that builds the tools per turn passes it here, and
   * every call is kept under it beside the model's id for the call (`InvokeOptions.messageId`).
   */
  readonly messageId?: string;
}

/** One call as a framework hands it over: the model's id for it and the framework's abort signal, when it has them. */
export interface FrameworkCall {
  readonly callId?: string;
  readonly signal?: AbortSignal;
  /** The user's answer, when the framework's own approval flow asked them (the host's surface is then not asked). */
  readonly approval?: CallApproval;
}

/** The tools the options offer, as the host lists them now. */
export function governedTools(host: Host, options: GovernedToolsOptions): Tool[] {
  return host.tools.list({ audience: options.audience ?? 'model', scope: options.scope });
}

/**
 * Makes a framework's call through the host's one path: the rules, a stored decision or the host's surface decide,
 * the call is recorded with the model's id for it, bounded, audited. Resolves with the host's result for every
 * outcome (a deny, a failure, an unknown tool); rejects only for a programmer's error, as `host.invoke` does.
 */
export function governedCall(
  host: Host,
  options: GovernedToolsOptions,
  tool: string,
  args: unknown,
  call: FrameworkCall,
): Promise<ToolResult> {
  const caller: Caller = { kind: options.audience ?? 'model' };
  return host.invoke({
    scope: options.scope,
    caller,
    tool,
    args,
    ...(call.signal === undefined ? {} : { signal: call.signal }),
    ...(call.callId === undefined || call.callId === '' ? {} : { modelCallId: call.callId }),
    ...(call.approval === undefined ? {} : { approval: call.approval }),
    ...(options.messageId === undefined ? {} : { messageId: options.messageId }),
  });
}

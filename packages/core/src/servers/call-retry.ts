import { ProtocolError } from '@modelcontextprotocol/client';
import type { Client, Tool as McpToolDefinition } from '@modelcontextprotocol/client';
import { HostError } from '../errors/host-error.js';
import type { ConnectionCallOptions } from '../mcp-client/connection-call-options.js';
import { lostSessionStatus } from './session-lost.js';
import { sameDefinition } from '../mcp-client/tool-call-request.js';

const URL_ELICITATION_REQUIRED = -32042;

/** What a connection lends to decide whether a failed call goes out again. */
export interface RetryContext {
  readonly serverId: string;
  /** The tool's name on its server. */
  readonly name: string;
  readonly options: ConnectionCallOptions;
  /** -32042: shows the URL flows and waits for them; true when all completed. */
  readonly urlRequired: ((elicitations: readonly unknown[], signal: AbortSignal) => Promise<boolean>) | undefined;
  /** A 403 insufficient_scope: signs the user in again with the scope asked for; true when that succeeded. */
  readonly stepUp: ((error: unknown, options: ConnectionCallOptions) => Promise<boolean>) | undefined;
  /** Starts a new session after the server forgot it (its HTTP status); undefined when it could not be reached. */
  readonly renewSession: (status: number) => Promise<Client | undefined>;
  /** The tool as the server lists it now. */
  readonly listed: (name: string) => McpToolDefinition | undefined;
  /** Why nothing can be sent now (the server is not ready). */
  readonly unavailable: () => HostError;
}

/**
 * The client a failed call is sent again on, once, or undefined when its error stands. Three failures are worth one
 * more try, each because the request never ran the tool: URL flows the user had to complete first (-32042, sent again
 * once they are done), a token that lacked a scope (403 `insufficient_scope`, sent again once the user consented to
 * it), and a session the server forgot (404, or a 400 saying so, after a restart, sent again on a new session, only if the restarted
 * server still lists the tool as the call knew it).
 */
export async function retryClient(error: unknown, client: Client, ctx: RetryContext): Promise<Client | undefined> {
  const { options } = ctx;
  if (error instanceof ProtocolError && error.code === URL_ELICITATION_REQUIRED && ctx.urlRequired !== undefined) {
    const elicitations = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
    if (Array.isArray(elicitations) && (await ctx.urlRequired(elicitations, options.signal))) return client;
    return undefined;
  }
  if (ctx.stepUp !== undefined && !options.signal.aborted && (await ctx.stepUp(error, options))) return client;
  const lost = lostSessionStatus(error);
  if (lost !== undefined && client.transport?.sessionId !== undefined && !options.signal.aborted) {
    const fresh = await ctx.renewSession(lost);
    if (fresh === undefined) throw ctx.unavailable();
    if (!sameDefinition(ctx.listed(ctx.name), options.definition)) {
      throw new HostError(
        'server_unavailable',
        `server "${ctx.serverId}" restarted, and its tool ${ctx.name} is no longer the one this call was for; ` +
          'the call was not resent',
        { data: { serverId: ctx.serverId } },
      );
    }
    return fresh;
  }
  return undefined;
}

import type { ServerNotReady } from '../invocations/admit-call.js';
import type { ServerInfo } from '../servers/server-info.js';

/**
 * Why the server a tool name points at (`server__tool`) cannot offer it now, or undefined when it is ready or the
 * name points at no server. A failed server lists no tools, so without this a call to one of them says only
 * "unknown tool", and the person looks for a typo instead of at the server.
 */
export function serverNotReady(servers: readonly ServerInfo[], toolName: string): ServerNotReady | undefined {
  const server = servers.find((candidate) => toolName.startsWith(`${candidate.id}__`));
  // A server switched off is named by the registry's own refusal already.
  if (server === undefined || server.state === 'ready' || server.disabled) return undefined;
  const message = `server "${server.id}" is ${server.state}${server.error === undefined ? '' : ` (${server.error})`}`;
  return { message, needsAuth: server.state === 'needs_auth' };
}

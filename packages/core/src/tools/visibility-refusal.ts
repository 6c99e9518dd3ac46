import type { Tool } from './tool.js';
import type { Caller } from '../caller.js';

/**
 * Why a caller may not see or call a tool, or null when it may: the one visibility rule for every caller (the user
 * sees everything; the model what is exposed to it; an app only its own server's tools that are callable from apps).
 * A tool the host cannot call (`unavailable`) is offered to neither the model nor apps, whatever its visibility.
 */
export function visibilityRefusal(tool: Tool, caller: Caller): string | null {
  if (caller.kind !== 'user' && tool.unavailable !== undefined) {
    return `tool ${tool.name} is not offered: it ${tool.unavailable.reason}`;
  }
  switch (caller.kind) {
    case 'user':
      return null;
    case 'model':
      return tool.visibility.includes('model') ? null : `tool ${tool.name} is not exposed to the model`;
    case 'app': {
      if (tool.origin.kind !== 'mcp' || tool.origin.serverId !== caller.serverId) {
        return `an app from server "${caller.serverId}" may call only its own server's tools; ${tool.name} is not one`;
      }
      return tool.visibility.includes('app') ? null : `tool ${tool.name} is not callable from apps`;
    }
  }
}

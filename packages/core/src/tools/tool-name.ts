import { sha256Hex } from '../audit/canonical-json.js';

/** The longest tool name model providers accept. */
export const MAX_TOOL_NAME_LENGTH = 64;
const SEPARATOR = '__';
const SAFE = /^[A-Za-z0-9_-]+$/;

/**
 * The host-unique name of a server's tool: `server__tool`, deterministic for a connection and a tool name.
 *
 * Model providers accept `[A-Za-z0-9_-]{1,64}`. When the plain form fits, it is used as is. Otherwise (too long, or
 * characters such as `.` replaced) the name is shortened and ends in a short hash of the server id and the original
 * name, so two different tools never map to one name because of the rewriting.
 */
export function namespacedToolName(serverId: string, toolName: string, hashLength = 8): string {
  const plain = `${serverId}${SEPARATOR}${toolName}`;
  if (SAFE.test(plain) && plain.length <= MAX_TOOL_NAME_LENGTH) return plain;
  const hash = sha256Hex(`${serverId}\u0000${toolName}`).slice(0, hashLength);
  const safe = `${serverId}${SEPARATOR}${toolName.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return `${safe.slice(0, MAX_TOOL_NAME_LENGTH - hashLength - 1)}_${hash}`;
}

/** The spec's recommended tool name shape; names outside it get a warning, not a crash. */
export function isRecommendedToolName(name: string): boolean {
  return /^[A-Za-z0-9_.-]{1,128}$/.test(name);
}

import type { MessageKey } from '@airlock/core/i18n';
import type { PermissionRequest } from '@airlock/core';

/** Past this many characters the arguments preview is cut, with a show-more toggle. */
export const ARGS_PREVIEW_CHARS = 400;

/** Only inline raster icons are shown: a remote icon would be a request to a server-chosen URL before consent. */
const INLINE_RASTER = /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z0-9+/=\s]+$/i;

/**
 * The behaviour hints a tool's annotations state, read with the spec's defaults (destructive and open-world unless
 * said otherwise; destructive and idempotent mean something only when the tool is not read-only), as catalog keys
 * for the "This tool will:" list. Empty when the tool has no hints at all: the sheet says so instead.
 */
export function hintKeys(request: PermissionRequest): MessageKey[] {
  const a = request.tool.annotations;
  const stated = a === undefined ? [] : Object.keys(a).filter((key) => key.endsWith('Hint'));
  if (a === undefined || stated.length === 0) return [];
  const readOnly = a.readOnlyHint === true;
  const keys: MessageKey[] = [];
  if (readOnly) keys.push('mcp.permission.hint.readOnly');
  if (!readOnly && a.destructiveHint !== false) keys.push('mcp.permission.hint.destructive');
  if (!readOnly && a.idempotentHint === true) keys.push('mcp.permission.hint.idempotent');
  if (a.openWorldHint !== false) keys.push('mcp.permission.hint.openWorld');
  return keys;
}

/** The arguments as indented JSON, and whether they are longer than the preview shows. */
export function argsPreview(args: Readonly<Record<string, unknown>>): { full: string; short: string; cut: boolean } {
  let full: string;
  try {
    full = JSON.stringify(args, null, 2);
  } catch {
    full = '{…}'; // Not JSON (a cycle, a bigint): the host never sends such arguments to a server anyway.
  }
  const chars = [...full];
  const cut = chars.length > ARGS_PREVIEW_CHARS;
  return { full, short: cut ? `${chars.slice(0, ARGS_PREVIEW_CHARS).join('')}…` : full, cut };
}

/** The first icon the sheet may show without fetching anything, or undefined (the sheet shows a generic glyph). */
export function inlineIcon(request: PermissionRequest): string | undefined {
  return request.tool.icons?.find((icon) => INLINE_RASTER.test(icon.src))?.src;
}

import type { MessageKey } from '@airlock/core/i18n';
import type { PermissionAskReason, PermissionRequest } from '@airlock/core';

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

/** The catalog line of each reason a request can give for asking. */
const REASON_KEYS: Readonly<Record<PermissionAskReason, MessageKey>> = {
  first_time: 'mcp.permission.reason.first_time',
  definition_changed: 'mcp.permission.reason.definition_changed',
  server_changed: 'mcp.permission.reason.server_changed',
  decision_expired: 'mcp.permission.reason.decision_expired',
  decisions_loading: 'mcp.permission.reason.decisions_loading',
  rule_says_ask: 'mcp.permission.reason.rule_says_ask',
  asked_each_time: 'mcp.permission.reason.asked_each_time',
};

/**
 * The catalog key of why the user is asked, shown under the sheet's title; undefined when the request gives no
 * reason, or one this version of the catalog does not know (the sheet then shows no line rather than a raw code).
 */
export function reasonKey(request: PermissionRequest): MessageKey | undefined {
  const reason = request.reason;
  // The allow that ran out is named: "Allow for this conversation" is not the "Allow always" the user never chose.
  if (reason === 'decision_expired' && request.expiredGrain === 'conversation') {
    return 'mcp.permission.reason.decision_expired_conversation';
  }
  return reason !== undefined && Object.hasOwn(REASON_KEYS, reason) ? REASON_KEYS[reason] : undefined;
}

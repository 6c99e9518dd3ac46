import type { MessageKey } from '@airlock/core/i18n';

/** A catalog line for a reason the host gave in its own (English) words, with what fills its placeholders. */
export interface KnownReason {
  readonly key: MessageKey;
  readonly params: Readonly<Record<string, string | number>>;
}

const seconds = (ms: string | undefined) => Math.round(Number(ms) / 1000);

/**
 * The reasons the host words for why a call was cancelled, timed out or did not run, each matched by its error code
 * and the shape of the host's sentence (they are written in one place of the host, and a test reads them back).
 */
const KNOWN: readonly {
  readonly code: string;
  readonly pattern: RegExp;
  readonly key: MessageKey;
  readonly params?: (match: RegExpMatchArray) => Record<string, string | number>;
}[] = [
  { code: 'cancelled', pattern: /^the call of \S+ was cancelled$/, key: 'mcp.card.reason.cancelled' },
  {
    code: 'cancelled',
    pattern: /^the call was cancelled before it ran; nothing was sent$/,
    key: 'mcp.card.reason.cancelled_before_run',
  },
  {
    code: 'timeout',
    pattern: /^\S+ sent no result or progress for (\d+) ms$/,
    key: 'mcp.card.reason.timeout_idle',
    params: (m) => ({ seconds: seconds(m[1]) }),
  },
  {
    code: 'timeout',
    pattern: /^\S+ ran past the (\d+) ms ceiling$/,
    key: 'mcp.card.reason.timeout_ceiling',
    params: (m) => ({ seconds: seconds(m[1]) }),
  },
  { code: 'task_failed', pattern: / was cancelled by the server(: .*)?$/s, key: 'mcp.card.reason.server_cancelled' },
  { code: 'host_closed', pattern: /the host closed while task \S+ ran/, key: 'mcp.card.reason.host_closed' },
  { code: 'permission_denied', pattern: /^the user denied \S+; it was not run$/, key: 'mcp.card.reason.user_denied' },
  {
    code: 'permission_denied',
    pattern: /^no one answered the permission prompt within (\d+) ms/,
    key: 'mcp.card.reason.prompt_timeout',
    params: (m) => ({ seconds: seconds(m[1]) }),
  },
  {
    code: 'permission_denied',
    pattern: /^no surface is attached to ask the user/,
    key: 'mcp.card.reason.no_one_to_ask',
  },
];

/**
 * The catalog line for a failure the host described in English, when it is one the catalog knows (cancelled, timed
 * out, cancelled by the server, the host closed, denied by the user, the question unanswered); undefined for any
 * other (a tool's or a server's own words), which is shown as given.
 */
export function knownReason(error: {
  readonly code: string | number;
  readonly message: string;
}): KnownReason | undefined {
  for (const known of KNOWN) {
    if (String(error.code) !== known.code) continue;
    const match = error.message.match(known.pattern);
    if (match !== null) return { key: known.key, params: known.params?.(match) ?? {} };
  }
  return undefined;
}

/**
 * The key in an elicitation request's `_meta` where a server sets how long the user has for that one question, in
 * milliseconds (seed 001 R4: "Server may set custom timeout"). MCP has no field for it, so it lives in our namespace.
 */
export const ELICITATION_TIMEOUT_META_KEY = 'airlock/timeoutMs';

/**
 * The key in the host's `cancel` answer's `_meta` saying why it cancelled: `"timeout"` when nobody answered in time.
 * MCP has no `elicitation/timeout` message; a timed-out question is answered `cancel`, and this tells it apart.
 */
export const ELICITATION_REASON_META_KEY = 'airlock/reason';

/** The shortest time a server may give a question: less could close it before a person reads it. */
export const MIN_SERVER_QUESTION_TIMEOUT_MS = 10_000;

/** The longest time a server may give a question: a call's idle timeout is held meanwhile. */
export const MAX_SERVER_QUESTION_TIMEOUT_MS = 3_600_000;

/**
 * How long one question stays open: the server's own value from `_meta["airlock/timeoutMs"]` when it gave one,
 * clamped to 10 s .. 1 h, else the host's. A value out of range or not a number comes back with a warning naming it,
 * for the server's log; one not a number is ignored.
 */
export function questionTimeout(
  meta: unknown,
  hostMs: number,
  serverId: string,
): { readonly ms: number; readonly warning?: string } {
  const asked =
    typeof meta === 'object' && meta !== null
      ? (meta as Record<string, unknown>)[ELICITATION_TIMEOUT_META_KEY]
      : undefined;
  if (asked === undefined) return { ms: hostMs };
  const where = `server "${serverId}" asked a question with _meta["${ELICITATION_TIMEOUT_META_KEY}"] = ${JSON.stringify(asked)}`;
  if (typeof asked !== 'number' || !Number.isFinite(asked)) {
    return { ms: hostMs, warning: `${where}, not a number of milliseconds; the host's ${hostMs} ms applies` };
  }
  const ms = Math.min(MAX_SERVER_QUESTION_TIMEOUT_MS, Math.max(MIN_SERVER_QUESTION_TIMEOUT_MS, Math.round(asked)));
  if (ms !== asked) {
    return {
      ms,
      warning: `${where}, outside ${MIN_SERVER_QUESTION_TIMEOUT_MS}..${MAX_SERVER_QUESTION_TIMEOUT_MS} ms; ${ms} ms applies`,
    };
  }
  return { ms };
}

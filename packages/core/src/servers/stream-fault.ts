/** How many characters of what a server sent are quoted in a fault: enough to recognise it, never a flood. */
export const FAULT_PREVIEW_CHARS = 200;

/** What went wrong on a server's stdout. */
export type StreamFaultKind = 'not_json_rpc' | 'too_large';

/**
 * A fault in what a stdio server wrote, as the transport reports it through `onerror`. `fatal` faults (a line that is
 * not JSON-RPC once the server has spoken) mean the stream cannot be trusted any more: the transport has dropped the
 * connection, so every call in flight fails and the server is reconnected. A message over the size cap is not fatal:
 * the rest of its line is skipped and the stream goes on.
 */
export class StreamFault extends Error {
  readonly kind: StreamFaultKind;
  readonly fatal: boolean;

  constructor(kind: StreamFaultKind, message: string, fatal: boolean) {
    super(message);
    this.name = 'StreamFault';
    this.kind = kind;
    this.fatal = fatal;
  }
}

/**
 * What a refused message carries in the JSON-RPC error the transport answers its request with. Only objects this
 * module made count ({@link refusalOf}), so a server cannot forge a refusal by sending the same shape.
 */
export interface MessageRefusal {
  /** The method of the request the refused message answered, when the transport knew it. */
  readonly method: string | undefined;
  /** Bytes of the message read when it passed the cap. */
  readonly bytes: number;
  /** The cap (`limits.maxMessageBytes`). */
  readonly cap: number;
  /** How the refusal was tied to the request: its id was read, or it was the only one in flight, or all were failed. */
  readonly matched: 'by_id' | 'only_request' | 'all_in_flight';
}

const refusals = new WeakSet<object>();

/** Makes a refusal {@link refusalOf} recognises. */
export function makeRefusal(refusal: MessageRefusal): MessageRefusal {
  const made = { ...refusal };
  refusals.add(made);
  return made;
}

/** The refusal behind an error, when the error is the transport's own answer to a message over the cap. */
export function refusalOf(error: unknown): MessageRefusal | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const data = (error as { data?: unknown }).data;
  return typeof data === 'object' && data !== null && refusals.has(data) ? (data as MessageRefusal) : undefined;
}

/** The sentence a refusal is told in, without the server's name (the connection adds it). */
export function describeRefusal(refusal: MessageRefusal): string {
  const what = refusal.method === undefined ? 'a message' : `the reply to ${refusal.method}`;
  const who =
    refusal.matched === 'all_in_flight' ? '; its request could not be told, so every call in flight was failed' : '';
  return `${what} passed the ${refusal.cap}-byte message cap (limits.maxMessageBytes) at ${refusal.bytes} bytes and was refused while it streamed${who}`;
}

/**
 * Quotes what a server sent for an error message: at most {@link FAULT_PREVIEW_CHARS} characters, in double quotes,
 * with every control character (C0, DEL, C1), line and paragraph separator and bidirectional override escaped as
 * `\uXXXX` (or `\n`, `\r`, `\t`), so a terminal or a card shows it as text and it cannot reorder or hide what
 * follows. A longer text says how long it was.
 */
export function previewOf(text: string, max = FAULT_PREVIEW_CHARS): string {
  const cut = text.length > max ? text.slice(0, max) : text;
  // eslint-disable-next-line no-control-regex
  const escaped = cut.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069"\\]/g, (c) => {
    if (c === '"' || c === '\\') return `\\${c}`;
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return text.length > max ? `"${escaped}…" (${text.length} characters)` : `"${escaped}"`;
}

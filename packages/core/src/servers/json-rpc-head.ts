/** What the start of a JSON-RPC message tells about it, read without the rest. */
export interface MessageHead {
  /**
   * `not_json`: it does not start as a JSON object (garbage). `response`: a `result` or `error` member was seen.
   * `request`: a `method` member was seen (a server's request or notification, which answers no call). `unknown`: an
   * object whose telling members come later than the head.
   */
  readonly shape: 'not_json' | 'response' | 'request' | 'unknown';
  /** The top-level `id`, when the head holds it whole. */
  readonly id?: string | number;
}

const WHITESPACE = /\s/;
const NUMBER_VALUE = /^-?\d+(?=\s*[,}])/;

/**
 * Reads the top-level members of a message from its first bytes: whether it is a response, a request or garbage, and
 * its `id` if it comes early. Members nested deeper (an `id` inside a result) are not mistaken for the message's own.
 * Used on a message over the size cap, to fail the one request it answers rather than every call in flight. The SDK
 * writes `id` after `result`, so for its servers the id is usually past the head: the caller then falls back.
 */
export function readMessageHead(head: string): MessageHead {
  let i = skipSpace(head, 0);
  if (head.charCodeAt(i) !== 0x7b /* { */) return { shape: 'not_json' };
  let depth = 0;
  let expectKey = false;
  let response = false;
  let request = false;
  let id: string | number | undefined;
  while (i < head.length) {
    const c = head[i];
    if (c === '"') {
      const end = stringEnd(head, i);
      if (end === -1) break;
      if (depth === 1 && expectKey) {
        const key = head.slice(i + 1, end);
        i = skipSpace(head, end + 1);
        if (head[i] !== ':') break;
        i = skipSpace(head, i + 1);
        if (key === 'result' || key === 'error') response = true;
        else if (key === 'method') request = true;
        else if (key === 'id') id = readId(head, i) ?? id;
        expectKey = false;
        continue;
      }
      i = end + 1;
      continue;
    }
    if (c === '{' || c === '[') {
      depth += 1;
      expectKey = depth === 1;
    } else if (c === '}' || c === ']') {
      depth -= 1;
    } else if (c === ',' && depth === 1) {
      expectKey = true;
    }
    i += 1;
  }
  const shape = response ? 'response' : request ? 'request' : 'unknown';
  return id === undefined ? { shape } : { shape, id };
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && WHITESPACE.test(text[i]!)) i += 1;
  return i;
}

/** The index of the quote that closes the string opening at `from`, or -1 when the head ends first. */
function stringEnd(text: string, from: number): number {
  for (let i = from + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i += 1;
    else if (c === '"') return i;
  }
  return -1;
}

function readId(text: string, at: number): string | number | undefined {
  if (text[at] === '"') {
    const end = stringEnd(text, at);
    if (end === -1) return undefined;
    try {
      return JSON.parse(text.slice(at, end + 1)) as string;
    } catch {
      return undefined;
    }
  }
  const number = NUMBER_VALUE.exec(text.slice(at, at + 32));
  return number === null ? undefined : Number(number[0]);
}

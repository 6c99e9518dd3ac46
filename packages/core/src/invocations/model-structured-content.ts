import { canonicalJson } from '../audit/canonical-json.js';

/** A string this long made only of base64 characters is binary data, not text a model can use. */
const MIN_BASE64_CHARS = 1024;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w.+-]+=[\w.+-]+)*;base64,/;
/** Past this depth the walk stops and leaves the rest as is: deeper JSON than this is not media's shape. */
const MAX_DEPTH = 64;

/**
 * The `structuredContent` section of the model's text: the value as compact JSON, with media summarised the way
 * media blocks are (the "media not shown" rule) and given once when a text block already repeats it.
 *
 * Media is an object's `data` or `blob` string beside a string `mimeType` (the shape of image, audio and embedded
 * resource blocks, which servers copy into structured content), a base64 `data:` URL, or any string of at least
 * 1,024 base64 characters. Each becomes a short note naming the type and size and the handle that reads it whole;
 * the screen payload and the kept result still carry the value as sent.
 *
 * `texts` are the text blocks given to the model: one whose JSON is the same value (compact, pretty or with its keys
 * in another order) is returned as `repeatedBy` (its index), for the caller to leave out, so the value is given once.
 */
export function modelStructuredContent(options: {
  readonly value: unknown;
  readonly texts: readonly string[];
  readonly handle: string;
}): { readonly text: string; readonly repeatedBy: number } {
  const { value, texts, handle } = options;
  const json = JSON.stringify(value) ?? 'null';
  let repeatedBy = -1;
  for (let i = 0; i < texts.length && repeatedBy === -1; i++) if (sameJson(texts[i]!, json, value)) repeatedBy = i;
  const summarised = summariseMedia(value, handle, 0);
  const body = summarised === value ? json : (JSON.stringify(summarised) ?? 'null');
  const header =
    repeatedBy === -1
      ? '[structuredContent]'
      : `[structuredContent, also sent as text block ${repeatedBy + 1}; given once]`;
  return { text: `${header}\n${body}`, repeatedBy };
}

/** Whether a text block is the JSON of `value`: the same text, or text that parses to the same value. */
function sameJson(text: string, json: string, value: unknown): boolean {
  if (text === json) return true;
  // Parse only what can be the same value: JSON-looking text, at most a few times longer than the compact form
  // (pretty-printing adds whitespace), so a long text block is never parsed for nothing.
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[' && first !== '"') return false;
  if (text.length > json.length * 4 + 1024) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  const compact = JSON.stringify(parsed);
  if (compact === json) return true;
  if (compact === undefined || compact.length !== json.length) return false;
  return canonicalJson(parsed) === canonicalJson(value);
}

/** The value with media summarised; the same object when there is none (nothing is copied then). */
function summariseMedia(value: unknown, handle: string, depth: number): unknown {
  if (typeof value === 'string') return summariseString(value, handle);
  if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const next = summariseMedia(item, handle, depth + 1);
      if (next !== item) (out ??= value.slice())[i] = next;
    }
    return out ?? value;
  }
  const record = value as Record<string, unknown>;
  const mimeType = typeof record['mimeType'] === 'string' ? record['mimeType'] : undefined;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const item = record[key];
    const next =
      mimeType !== undefined && (key === 'data' || key === 'blob') && typeof item === 'string'
        ? note(`${mimeType}, `, item, 0, handle)
        : summariseMedia(item, handle, depth + 1);
    if (next !== item) (out ??= { ...record })[key] = next;
  }
  return out ?? value;
}

function summariseString(value: string, handle: string): string {
  if (value.length < MIN_BASE64_CHARS) return value;
  if (value.startsWith('data:')) {
    const match = DATA_URL.exec(value);
    if (match === null) return value;
    const mime = match[1] === undefined ? '' : `${match[1]} `;
    return note(`${mime}data URL, `, value, match[0].length, handle);
  }
  return BASE64.test(value) ? note('', value, 0, handle) : value;
}

/** The note that stands for base64 data (from `start` in `data`): what it is and its decoded size. */
function note(what: string, data: string, start: number, handle: string): string {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  const bytes = Math.max(0, Math.floor(((data.length - start) * 3) / 4) - padding);
  return `[${what}${bytes} bytes of base64, not shown; read it whole through ${handle}]`;
}

/**
 * The value a prefix of JSON text stands for so far, best effort: an open string, array or object is closed, and a
 * member or element that cannot be read yet (a key without its value, `tr` of `true`) is left out. Undefined when
 * nothing can be read. Synchronous, so what a model streamed is read in the order it came.
 */
export function parsePartialJson(text: string): unknown {
  const whole = tryParse(text);
  if (whole.ok) return whole.value;
  const closers: string[] = [];
  let inString = false;
  let escaped = false;
  // The last place the text can be cut and closed into valid JSON: after an opening or closing bracket, or before a
  // comma between members (so a half-written next member is dropped).
  let safe = { at: 0, close: '' };
  const closing = () => closers.toReversed().join('');
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') {
      closers.push(ch === '{' ? '}' : ']');
      safe = { at: i + 1, close: closing() };
    } else if (ch === '}' || ch === ']') {
      closers.pop();
      safe = { at: i + 1, close: closing() };
    } else if (ch === ',') safe = { at: i, close: closing() };
  }
  let open = text;
  // An open string is closed where it stops (a half-written escape dropped first).
  if (inString) open = `${(escaped ? text.slice(0, -1) : text).replace(/\\u[0-9a-fA-F]{0,3}$/, '')}"`;
  const closed = tryParse(open + closing());
  if (closed.ok) return closed.value;
  const cut = tryParse(text.slice(0, safe.at) + safe.close);
  return cut.ok ? cut.value : undefined;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

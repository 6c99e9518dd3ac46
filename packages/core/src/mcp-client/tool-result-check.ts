/**
 * A quick check of a 2025-11-25 `tools/call` result: true only when `raw` is a CallToolResult the SDK's own wire
 * schema (zod) accepts and would hand back unchanged. Anything else (a malformed result, and also a valid one zod
 * would rewrite: unknown keys in a content block it strips, a missing `content` it fills in, a `lastModified` it
 * checks by pattern, an icon list) answers false, and the caller runs the SDK's schema, which then refuses or
 * rewrites it exactly as it always did. So this check can only save work, never accept what the SDK refuses.
 *
 * Why: the SDK's zod parse of every result cost about 100 µs of CPU per call, most of the client's own cost on a small
 * echo; this walk of the same shape costs a few µs.
 */
export function isPlainToolResult(raw: unknown): boolean {
  if (!isRecord(raw)) return false;
  const content = raw['content'];
  if (!Array.isArray(content)) return false;
  for (const block of content) if (!isPlainBlock(block)) return false;
  const structured = raw['structuredContent'];
  if (structured !== undefined && !isRecord(structured)) return false;
  const isError = raw['isError'];
  if (isError !== undefined && typeof isError !== 'boolean') return false;
  const meta = raw['_meta'];
  return meta === undefined || isPlainResultMeta(meta);
}

/** Keys of each block kind the SDK's schema keeps (it strips any other, so a block with another key is not plain). */
const TEXT_KEYS = new Set(['type', 'text', 'annotations', '_meta']);
const MEDIA_KEYS = new Set(['type', 'data', 'mimeType', 'annotations', '_meta']);
const EMBEDDED_KEYS = new Set(['type', 'resource', 'annotations', '_meta']);
const LINK_KEYS = new Set(['type', 'uri', 'name', 'title', 'description', 'mimeType', 'size', 'annotations', '_meta']);
const TEXT_RESOURCE_KEYS = new Set(['uri', 'mimeType', '_meta', 'text']);
const BLOB_RESOURCE_KEYS = new Set(['uri', 'mimeType', '_meta', 'blob']);

function isPlainBlock(block: unknown): boolean {
  if (!isRecord(block)) return false;
  switch (block['type']) {
    case 'text':
      return onlyKeys(block, TEXT_KEYS) && typeof block['text'] === 'string' && hasPlainExtras(block);
    case 'image':
    case 'audio':
      return (
        onlyKeys(block, MEDIA_KEYS) &&
        isBase64(block['data']) &&
        typeof block['mimeType'] === 'string' &&
        hasPlainExtras(block)
      );
    case 'resource':
      return onlyKeys(block, EMBEDDED_KEYS) && isPlainResource(block['resource']) && hasPlainExtras(block);
    case 'resource_link':
      return (
        onlyKeys(block, LINK_KEYS) &&
        typeof block['uri'] === 'string' &&
        typeof block['name'] === 'string' &&
        optionalString(block['title']) &&
        optionalString(block['description']) &&
        optionalString(block['mimeType']) &&
        (block['size'] === undefined || isFiniteNumber(block['size'])) &&
        hasPlainExtras(block)
      );
    default:
      return false;
  }
}

/** An embedded resource with text or with a base64 blob, never both (the SDK keeps only the text of such a one). */
function isPlainResource(resource: unknown): boolean {
  if (!isRecord(resource) || typeof resource['uri'] !== 'string' || !optionalString(resource['mimeType'])) return false;
  if (resource['_meta'] !== undefined && !isRecord(resource['_meta'])) return false;
  if (typeof resource['text'] === 'string') return onlyKeys(resource, TEXT_RESOURCE_KEYS);
  return onlyKeys(resource, BLOB_RESOURCE_KEYS) && isBase64(resource['blob']);
}

/** A block's `annotations` (audience and priority only) and `_meta` (any object). */
function hasPlainExtras(block: Readonly<Record<string, unknown>>): boolean {
  const meta = block['_meta'];
  if (meta !== undefined && !isRecord(meta)) return false;
  const annotations = block['annotations'];
  if (annotations === undefined) return true;
  if (!isRecord(annotations)) return false;
  for (const key in annotations) {
    const value = annotations[key];
    if (key === 'audience') {
      if (!Array.isArray(value) || !value.every((role) => role === 'user' || role === 'assistant')) return false;
    } else if (key === 'priority') {
      if (!isFiniteNumber(value) || value < 0 || value > 1) return false;
    } else return false;
  }
  return true;
}

/** The result's `_meta`: the SDK checks only a progress token and a related task in it; any other key passes. */
function isPlainResultMeta(meta: unknown): boolean {
  if (!isRecord(meta) || 'io.modelcontextprotocol/related-task' in meta) return false;
  const token = meta['progressToken'];
  return token === undefined || typeof token === 'string';
}

/** What the SDK's schema takes as base64: whatever `atob` decodes (it checks with `atob` too). */
function isBase64(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    atob(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * A JSON object as zod's record and object schemas take it, and without an own `__proto__` key (which zod's copy
 * would turn into a prototype: not handed back unchanged).
 */
function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && !Object.hasOwn(value, '__proto__');
}

function onlyKeys(value: Readonly<Record<string, unknown>>, keys: ReadonlySet<string>): boolean {
  for (const key in value) if (!keys.has(key) || value[key] === undefined) return false;
  return true;
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

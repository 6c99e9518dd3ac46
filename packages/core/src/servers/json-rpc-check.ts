import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/**
 * A quick check of a JSON-RPC message a server wrote: the message itself when it is a result, a request or a
 * notification the SDK's wire schema (`parseJSONRPCMessage`, a zod union of strict objects) accepts and would hand
 * back with the same content; undefined for anything else (an error response, a `_meta` the schema reads, an id it
 * may refuse, any key a strict object refuses, an own `__proto__`), which the caller then gives to the SDK's schema,
 * so that it is refused or kept exactly as before. This check can only save work, never accept what the SDK refuses.
 *
 * Why: the schema's union tries each branch in turn, and a result fails two before it matches; that allocated about
 * 4.5 KB per message on the host's call thread (a WeakMap among it), an eighth of what a call allocates there.
 */
export function plainJsonRpcMessage(value: unknown): JSONRPCMessage | undefined {
  if (!isRecord(value) || value['jsonrpc'] !== '2.0') return undefined;
  let keys = 1;
  const id = value['id'];
  if (id !== undefined) {
    if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
    keys += 1;
  }
  const method = value['method'];
  if (method !== undefined) {
    if (typeof method !== 'string') return undefined;
    keys += 1;
    const params = value['params'];
    if (params !== undefined) {
      if (!isRecord(params) || '_meta' in params) return undefined;
      keys += 1;
    }
  } else {
    // A result answers a request (an id); an error response takes the SDK's schema.
    const result = value['result'];
    if (id === undefined || !isRecord(result) || '_meta' in result) return undefined;
    keys += 1;
  }
  // Strict objects: any other key (a result beside a method, an error beside a result) is the schema's to refuse.
  return Object.keys(value).length === keys ? (value as JSONRPCMessage) : undefined;
}

/** A plain JSON object; one with an own `__proto__` key (which the schema's copy does not keep) is not. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Object.hasOwn(value, '__proto__');
}

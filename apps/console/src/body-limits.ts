import type { Context, MiddlewareHandler } from 'hono';

/** The largest request body a signed-in route reads. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The largest body a route answered without a session reads (sign-in, the OAuth callback's form): a name, a password
 * or a callback address fit many times over, and a stranger cannot make the console hold more.
 */
export const MAX_OPEN_BODY_BYTES = 16 * 1024;

/** Routes anyone may post to without a session: the smallest limit. */
const OPEN_ROUTES: ReadonlySet<string> = new Set(['/api/session', '/oauth/callback']);

/**
 * The size limit for every route, applied before anything reads a body: a declared Content-Length over the limit is
 * refused at once, and a body of unknown length (chunked) is counted as it streams and refused at the first chunk past
 * the limit, so 300 MB never reaches memory. The refusal is a 413 that closes the connection, so the rest of the body
 * is not read to keep it alive.
 *
 * Our own rather than `hono/body-limit`: that one rebuilds the request from the Node server's request object with
 * the process's `Request`, which fails once the server no longer replaces the global one.
 */
export function bodyLimits(): MiddlewareHandler {
  return async (c, next) => {
    const maxSize = OPEN_ROUTES.has(c.req.path) ? MAX_OPEN_BODY_BYTES : MAX_BODY_BYTES;
    const raw = c.req.raw;
    if (raw.body === null) return next();
    const declared = raw.headers.get('content-length');
    if (declared !== null && !raw.headers.has('transfer-encoding')) {
      return Number(declared) > maxSize ? tooLarge(c, maxSize) : next();
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader: ReadableStreamDefaultReader<Uint8Array> = raw.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxSize) {
        await reader.cancel().catch(() => undefined);
        return tooLarge(c, maxSize);
      }
      chunks.push(value);
    }
    c.req.raw = new Request(raw.url, {
      method: raw.method,
      headers: raw.headers,
      body: Buffer.concat(chunks, size),
      signal: raw.signal,
    });
    return next();
  };
}

function tooLarge(c: Context, maxSize: number): Response {
  return c.json({ error: { code: 'body_too_large', message: `the body is over ${maxSize} bytes` } }, 413, {
    connection: 'close',
  });
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** A web-standard handler, the shape the SDK's Streamable HTTP transport takes and answers. */
export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * Adapts a {@link FetchHandler} to `node:http` without a framework (so the CLI, which installs the gateway, brings no
 * HTTP framework). The request body streams in as it arrives (the handler bounds it); the response streams out chunk
 * by chunk (SSE), and the request's signal aborts when the client goes away first.
 */
export function fetchListener(
  handle: FetchHandler,
  origin: () => string,
  onerror: (error: Error) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    serve(handle, origin(), req, res).catch((error: unknown) => {
      onerror(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end();
    });
  };
}

async function serve(handle: FetchHandler, origin: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const request = new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    signal: gone.signal,
    // Node's web streams and the DOM's are one at run time; a build that sees both libraries tells them apart.
    ...(hasBody ? { body: Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  });
  const response = await handle(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) {
    res.end();
    // A refused request's body is left unread: close the connection rather than drain megabytes.
    if (hasBody && !req.complete) req.destroy();
    return;
  }
  res.flushHeaders();
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  res.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve));
    }
  } finally {
    res.off('close', stop);
    res.end();
  }
}

import { Buffer } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A web-standard request handler, the shape the SDK's HTTP entry (`createMcpHandler`) and transports expose. */
export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * Adapts a {@link FetchHandler} to a `node:http` request listener, with no framework.
 *
 * The web `Request` carries an abort signal that fires when the client goes away before the response is finished:
 * on 2026-07-28 HTTP, closing the response stream is how a client cancels a call, so the server must see it. Response
 * bodies are streamed chunk by chunk (SSE) and cancelled when the client disconnects.
 */
export function toNodeListener(
  handle: FetchHandler,
  options: { origin: string; maxBodyBytes: number; onerror: (error: Error) => void },
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    serve(handle, options, req, res).catch((error: unknown) => {
      options.onerror(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end();
    });
  };
}

async function serve(
  handle: FetchHandler,
  options: { origin: string; maxBodyBytes: number },
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const disconnected = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) disconnected.abort();
  });
  const method = req.method ?? 'GET';
  let body: Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    body = await readBody(req, options.maxBodyBytes);
    if (body === undefined) {
      res.writeHead(413, { 'content-type': 'text/plain' }).end('request body too large');
      return;
    }
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  const request = new Request(new URL(req.url ?? '/', options.origin), {
    method,
    headers,
    ...(body !== undefined && { body }),
    signal: disconnected.signal,
  });
  await writeResponse(res, await handle(request));
}

async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders(); // an SSE stream may stay quiet for long: the client needs the headers now
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const stop = () => void reader.cancel().catch(() => {});
  res.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drained(res);
    }
  } finally {
    res.off('close', stop);
    res.end();
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

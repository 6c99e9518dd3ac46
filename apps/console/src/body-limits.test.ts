import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole } from '@airlock/console';
import type { RunningConsole } from '@airlock/console';
import { ConsoleClient, consoleRequest } from './testing/console-client.js';
import { memoryConsoleConfig } from './testing/memory-console-config.js';

// Every route of the built console, the unauthenticated ones included, refuses a body over its limit before reading
// it: the proof is a request that declares 300 MB (or streams without end) and gets its 413 while the client has sent
// only a little of it.

const MB = 1024 * 1024;

/** What a request that sent part of a huge body got back, and how much of the body had gone out by then. */
interface Refusal {
  readonly status: number;
  readonly connection: string | undefined;
  readonly body: string;
  readonly bytesSent: number;
}

/**
 * Posts to `path` and keeps writing 64 KiB chunks (after each is flushed) until the console answers: with
 * `declared`, the headers announce that many bytes; without, the body is chunked. Never sends more than `stopAt`.
 */
function postUntilAnswered(
  baseUrl: string,
  path: string,
  options: { declared?: number; stopAt: number; headers?: Record<string, string> },
): Promise<Refusal> {
  const url = new URL(path, baseUrl);
  const chunk = Buffer.alloc(64 * 1024, 'x');
  return new Promise((resolve, reject) => {
    let bytesSent = 0;
    let answered = false;
    const req = httpRequest(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(options.declared === undefined ? {} : { 'content-length': String(options.declared) }),
          ...options.headers,
        },
      },
      (res) => {
        answered = true;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (text: string) => (body += text));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body, bytesSent });
          req.destroy();
        });
      },
    );
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const writeMore = () => {
      if (answered || bytesSent >= options.stopAt) return;
      bytesSent += chunk.length;
      req.write(chunk, writeMore);
    };
    writeMore();
  });
}

describe('the console refuses a body over its limit before reading it', () => {
  let running: RunningConsole;
  let cookie: string;
  beforeAll(async () => {
    running = await startConsole(memoryConsoleConfig('body limit test', { servers: [] }));
    cookie = (await ConsoleClient.signIn(running.url, { userId: 'ana' })).cookie;
  });
  afterAll(async () => {
    await running.close();
  });

  it('answers a declared 300 MB POST to any route with 413 on its headers, with 64 KiB of it sent', async () => {
    for (const path of ['/oauth/callback', '/api/session', '/api/invocations', '/', '/assets/x.js', '/nowhere']) {
      const refusal = await postUntilAnswered(running.url, path, {
        declared: 300 * MB,
        // The rest never comes: a console that read the body before answering would never answer.
        stopAt: 64 * 1024,
        headers: { cookie },
      });
      expect({ path, status: refusal.status, connection: refusal.connection }).toEqual({
        path,
        status: 413,
        connection: 'close',
      });
      expect(JSON.parse(refusal.body)).toEqual({ error: { code: 'body_too_large', message: expect.any(String) } });
    }
  });

  // The client counts what it handed to its socket, which the kernel buffers (a few MB on loopback) before the
  // console reads: well under 300 MB means the console answered at its limit and stopped reading.
  it('stops reading a chunked body at the first bytes past the limit, smallest without a session', async () => {
    const open = await postUntilAnswered(running.url, '/oauth/callback', { stopAt: 300 * MB });
    expect(open.status).toBe(413);
    expect(JSON.parse(open.body)).toMatchObject({ error: { message: 'the body is over 16384 bytes' } });
    expect(open.bytesSent).toBeLessThan(16 * MB);
    const signedIn = await postUntilAnswered(running.url, '/api/invocations', {
      stopAt: 300 * MB,
      headers: { cookie, 'content-type': 'application/json' },
    });
    expect(signedIn.status).toBe(413);
    expect(JSON.parse(signedIn.body)).toMatchObject({ error: { message: 'the body is over 1048576 bytes' } });
    expect(signedIn.bytesSent).toBeLessThan(16 * MB);
  });

  it('answers a multipart or malformed body to the OAuth callback with 415 or 400, never 500', async () => {
    const multipart = await consoleRequest(running.url, 'POST', '/oauth/callback', {
      body: '--b\r\nContent-Disposition: form-data; name="redirect"\r\n\r\nhttp://x/?state=1\r\n--b',
      headers: { 'content-type': 'multipart/form-data; boundary=b', origin: new URL(running.url).origin },
    });
    expect(multipart.status).toBe(415);
    const broken = await consoleRequest(running.url, 'POST', '/oauth/callback', {
      body: 'redirect=%E0%A4%A',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(running.url).origin },
    });
    expect(broken.status).toBe(400);
    const noRedirect = await consoleRequest(running.url, 'POST', '/oauth/callback', {
      body: 'other=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(running.url).origin },
    });
    expect(noRedirect.status).toBe(400);
  });
});

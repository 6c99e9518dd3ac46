import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';

// The kit's tests read a page's stream with a streaming fetch, as an EventSource would. Not shipped.

/** Serves `app` on loopback; resolves with its base URL and how to stop it. */
export async function serveOnLoopback(app: Hono<never>): Promise<{ base: string; stop: () => Promise<void> }> {
  const http = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((ready) => http.once('listening', ready));
  return {
    base: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((done) => http.close(() => done())),
  };
}

/** One page's stream: every event in order, a way to wait for the next one of a name, and whether it ended. */
export interface PageEvents {
  readonly seen: { event: string; data: unknown }[];
  next<T = unknown>(name: string, where?: (data: T) => boolean): Promise<T>;
  readonly ended: Promise<void>;
  close(): void;
}

export async function readEvents(url: string, headers: Record<string, string>): Promise<PageEvents> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  const seen: { event: string; data: unknown }[] = [];
  const waiting: (() => void)[] = [];
  const ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      const reader = response.body!.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event !== undefined && data !== undefined) seen.push({ event, data: JSON.parse(data) });
          for (const wake of waiting.splice(0)) wake();
        }
      }
    } catch {
      // aborted by the test
    }
  })();
  return {
    seen,
    async next<T>(name: string, where: (data: T) => boolean = () => true): Promise<T> {
      for (;;) {
        const index = seen.findIndex((e) => e.event === name && where(e.data as T));
        if (index >= 0) return seen.splice(index, 1)[0]!.data as T;
        await new Promise<void>((wake) => waiting.push(wake));
      }
    },
    ended,
    close: () => controller.abort(),
  };
}

/** Posts a JSON body as a page does. */
export function postJson(url: string, headers: Record<string, string>, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

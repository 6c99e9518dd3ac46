import { request } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import type { PageEvents } from './event-reader-fixture.js';
import { readEvents, serveOnLoopback } from './event-reader-fixture.js';
import { EventHub } from './event-hub.js';
import { eventStream } from './event-stream.js';

// The kit's event stream on its own, over real HTTP (Node's http server through @hono/node-server): a hub with an
// app's own event map, and a snapshot the test holds open or fails, as a page's EventSource reads it.

interface TestEvents {
  state: { readonly n: number };
  failure: { readonly message: string };
  note: { readonly n: number; readonly pad?: string };
}

/** Requests say who they are in headers here; an app takes it from its session. */
const who = (userId: string, workspaceId: string, admin = false, session = `${userId}-session`) => ({
  'x-user': userId,
  'x-workspace': workspaceId,
  'x-admin': String(admin),
  'x-session': session,
});

let stops: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const stop of stops.reverse()) await stop();
  stops = [];
});

/** A served stream whose every snapshot is `snapshot()`. */
async function serveStream(snapshot: () => TestEvents['state'] | Promise<TestEvents['state']>, maxUnsent?: number) {
  const hub = new EventHub<TestEvents>();
  const app = new Hono();
  app.get(
    '/events',
    eventStream<TestEvents, object>(hub, {
      open: (c) => ({
        viewer: {
          tenant: { userId: c.req.header('x-user')!, workspaceId: c.req.header('x-workspace')! },
          sessionId: c.req.header('x-session')!,
          admin: c.req.header('x-admin') === 'true',
        },
        snapshot,
      }),
      failure: (error) => ({ event: 'failure', data: { message: (error as Error).message } }),
      ...(maxUnsent !== undefined && { maxUnsent }),
    }),
  );
  const served = await serveOnLoopback(app as Hono<never>);
  const pages: PageEvents[] = [];
  stops.push(async () => {
    hub.closeAll();
    for (const page of pages) page.close();
    await served.stop();
  });
  const open = async (headers: Record<string, string>) => {
    const page = await readEvents(`${served.base}/events`, headers);
    pages.push(page);
    return page;
  };
  return { hub, base: served.base, open };
}

/** A promise and its settlers. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => ((resolve = yes), (reject = no)));
  return { promise, resolve, reject };
}

describe('the event stream', () => {
  it('sends what arrives while the snapshot is built after `state`, in order', async () => {
    const snapshot = deferred<TestEvents['state']>();
    const { hub, open } = await serveStream(() => snapshot.promise);
    const page = await open(who('ana', 'w1'));
    await expect.poll(() => hub.size).toBe(1);
    hub.send({ userId: 'ana', workspaceId: 'w1' }, 'note', { n: 1 });
    hub.send({ userId: 'ana', workspaceId: 'w1' }, 'note', { n: 2 });
    snapshot.resolve({ n: 0 });
    hub.send({ userId: 'ana', workspaceId: 'w1' }, 'note', { n: 3 });
    await page.next('note', (d: TestEvents['note']) => d.n === 3);
    expect(page.seen).toEqual([
      { event: 'state', data: { n: 0 } },
      { event: 'note', data: { n: 1 } },
      { event: 'note', data: { n: 2 } },
    ]);
  });

  it('sends one failure and ends when the snapshot fails, and nothing queued meanwhile', async () => {
    const snapshot = deferred<TestEvents['state']>();
    const { hub, open } = await serveStream(() => snapshot.promise);
    const page = await open(who('ana', 'w1'));
    await expect.poll(() => hub.size).toBe(1);
    hub.send({ userId: 'ana', workspaceId: 'w1' }, 'note', { n: 1 });
    snapshot.reject(new Error('the store is down'));
    await page.ended;
    expect(page.seen).toEqual([{ event: 'failure', data: { message: 'the store is down' } }]);
    expect(hub.size).toBe(0);
  });

  it("routes admin-only and per-connection events to their streams, never another tenant's", async () => {
    const { hub, open } = await serveStream(() => ({ n: 0 }));
    const ana = await open(who('ana', 'w1', true)); // an administrator in w1
    const bo = await open(who('bo', 'w1')); // a tenant in w1
    const cy = await open(who('cy', 'w2', true)); // an administrator in w2
    await expect.poll(() => hub.size).toBe(3);
    hub.sendToAdmins('workspace:w1', 'note', { n: 1 });
    hub.sendToAdmins('user:bo', 'note', { n: 2 }); // bo's own connection: bo is no administrator
    hub.sendToAdmins(undefined, 'note', { n: 3 }); // a shared connection: every administrator
    hub.sendWhere('user:bo', 'note', { n: 4 });
    hub.sendWhere('workspace:w2', 'note', { n: 5 });
    hub.sendWhere('workspace:w1', 'note', { n: 6 });
    hub.send({ userId: 'cy', workspaceId: 'w1' }, 'note', { n: 7 }); // cy, but in a workspace cy's stream is not in
    hub.sendToSession('bo-session', 'note', { n: 8 });
    hub.broadcast('note', { n: 9 });
    const heard = async (page: PageEvents) => {
      await page.next('note', (d: TestEvents['note']) => d.n === 9);
      return page.seen.filter((e) => e.event === 'note').map((e) => (e.data as TestEvents['note']).n);
    };
    expect(await heard(ana)).toEqual([1, 3, 6]);
    expect(await heard(bo)).toEqual([4, 6, 8]);
    expect(await heard(cy)).toEqual([3, 5]);
  });

  it('ends the streams of a session after what was sent to them', async () => {
    const { hub, open } = await serveStream(() => ({ n: 0 }));
    const mine = await open(who('ana', 'w1', false, 's1'));
    const other = await open(who('ana', 'w1', false, 's2'));
    await expect.poll(() => hub.size).toBe(2);
    hub.sendToSession('s1', 'note', { n: 1 });
    hub.closeSession('s1');
    await mine.ended;
    expect(mine.seen.map((e) => e.event)).toEqual(['state', 'note']);
    expect(hub.sessionIds()).toEqual(['s2']);
    hub.send({ userId: 'ana', workspaceId: 'w1' }, 'note', { n: 2 });
    expect(await other.next('note')).toEqual({ n: 2 });
  });

  it('drops a page that stops reading once too much waits for it, and keeps one that reads', async () => {
    const { hub, base, open } = await serveStream(() => ({ n: 0 }), 4);
    const reading = await open(who('ana', 'w1'));
    // A page that never reads past its headers: the socket's buffers fill, then the stream's queue.
    const stalled = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(`${base}/events`, { headers: who('ana', 'w1') }, (res) => {
        res.pause();
        resolve(res);
      });
      req.on('error', reject);
      stops.push(() => void req.destroy());
      req.end();
    });
    await expect.poll(() => hub.size).toBe(2);
    const pad = 'x'.repeat(1024 * 1024);
    // One event at a time, each read by the reading page before the next: only the stalled one falls behind.
    let sent = 0;
    while (hub.size === 2 && sent < 64) {
      sent += 1;
      hub.send({ userId: 'ana', workspaceId: 'w1' }, 'note', { n: sent, pad });
      await reading.next('note', (d: TestEvents['note']) => d.n === sent);
    }
    expect(hub.size).toBe(1);
    // Its stream was ended: once it reads again it gets what had gone out before, then the end.
    let body = '';
    stalled.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    await new Promise<void>((resolve) => stalled.once('end', resolve).once('close', resolve).resume());
    expect(body.split('event: note').length - 1).toBeLessThan(sent);
    hub.send({ userId: 'ana', workspaceId: 'w1' }, 'note', { n: 0 });
    expect(await reading.next('note')).toEqual({ n: 0 });
  });
});

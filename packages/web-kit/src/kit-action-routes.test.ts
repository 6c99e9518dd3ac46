import { createHost, MemoryStore } from '@airlock/core';
import type { Host, PermissionRequest, Scope } from '@airlock/core';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { postJson, serveOnLoopback } from './event-reader-fixture.js';
import { KitHostQuestions, KitRefusal, KitRunningCalls, KitSurface, kitActionRoutes } from './index.js';

// The action routes mounted by an app of its own (as the console mounts them): at its own paths, over its own scope
// and ports, with its refusals going to the app's own error handler in the app's own shape.

const ANA: Scope = { userId: 'ana', workspaceId: 'w1', conversationId: 'c1' };
const wait = {
  name: 'wait',
  inputSchema: { type: 'object' as const },
  run: (_args: unknown, context: { signal: AbortSignal }) =>
    new Promise<never>((_resolve, reject) =>
      context.signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true }),
    ),
};

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function app(): Promise<{ host: Host; surface: KitSurface; calls: KitRunningCalls; base: string }> {
  const surface = new KitSurface();
  const host = createHost({ store: new MemoryStore(), surface, tools: [wait] });
  const calls = new KitRunningCalls(host);
  const questions = new KitHostQuestions(host, surface);
  const actions = kitActionRoutes({ host, surface, scopeOf: () => ANA, calls, questions });
  const own = new Hono();
  own.onError((error, c) =>
    error instanceof KitRefusal
      ? c.json({ problem: error.code, detail: error.message }, error.status)
      : c.json({ problem: 'internal' }, 500),
  );
  own.post('/api/asks/:id', actions.decide);
  own.post('/api/forms/:id', actions.answer);
  own.post('/api/runs/:id/stop', actions.cancel);
  const served = await serveOnLoopback(own as never);
  stops.push(async () => {
    calls.close();
    questions.close();
    await served.stop();
    await host.close();
  });
  return { host, surface, calls, base: served.base };
}

describe("the kit's action routes in an app of its own", () => {
  it("decides and cancels at the app's paths, and refuses in the app's own shape", async () => {
    const { host, surface, calls, base } = await app();
    const asked = new Promise<PermissionRequest>((resolve) =>
      surface.listen((news) => (news.kind === 'opened' ? resolve(news.request) : undefined)),
    );
    const controller = new AbortController();
    const result = host.invoke({
      scope: ANA,
      caller: { kind: 'user' },
      tool: 'wait',
      signal: controller.signal,
      onRecorded: (invocation) => calls.track(invocation, controller),
    });
    const id = (await asked).invocationId;
    expect((await postJson(`${base}/api/asks/${id}`, {}, { decision: 'allow_once' })).status).toBe(200);
    await expect
      .poll(async () => (await host.history.get({ scope: ANA, invocationId: id }))?.invocation.state)
      .toBe('running');

    expect((await postJson(`${base}/api/runs/${id}/stop`, {}, {})).status).toBe(202);
    expect((await result).outcome).toBe('cancelled');
    const again = await postJson(`${base}/api/runs/${id}/stop`, {}, {});
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      problem: 'not_running',
      detail: `invocation ${id} has already ended (cancelled)`,
    });
    const none = await postJson(`${base}/api/forms/nope`, {}, { answer: { action: 'decline' } });
    expect(none.status).toBe(404);
    expect(await none.json()).toEqual({ problem: 'not_found', detail: 'no open question nope' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ElicitationRequest } from '@airlock/core';
import { demoServers, startConsole } from '@airlock/console';
import type { ConsoleConfig, RunningConsole } from '@airlock/console';
import { ConsoleClient, screenText } from './testing/console-client.js';
import type { ConsoleEventStream, InvocationEventData } from './testing/console-client.js';
import { memoryConsoleConfig } from './testing/memory-console-config.js';

// A team on the default config: the demo server (stdio) runs one process per user, so two users' questions asked at
// the same moment are each tied to their own call. The console under test is the built one (`npm run build` first).

function consoleConfig(servers: ConsoleConfig['servers']): ConsoleConfig {
  return memoryConsoleConfig('isolation test', { servers });
}

/** Starts `tool` for `client`, allows it once, and resolves with its question, or its end when it asked none. */
async function callUntilAsked(
  client: ConsoleClient,
  tab: ConsoleEventStream,
  tool: string,
): Promise<{ id: string; question?: ElicitationRequest; end?: InvocationEventData }> {
  const id = await client.startCall(tool, {});
  await tab.waitForPermission(id);
  expect((await client.post(`/api/permission-requests/${id}`, { decision: 'allow_once' })).status).toBe(200);
  const event = await tab.waitFor(
    (e) =>
      (e.event === 'elicitation.requested' && (e.data as ElicitationRequest).invocationId === id) ||
      (e.event === 'invocation' &&
        (e.data as InvocationEventData).invocation.id === id &&
        ['success', 'error', 'cancelled'].includes((e.data as InvocationEventData).invocation.state)),
    `a question or the end of ${id}`,
  );
  return event.event === 'elicitation.requested'
    ? { id, question: event.data as ElicitationRequest }
    : { id, end: event.data as InvocationEventData };
}

describe('on the default config, each user of a stdio server has their own process', () => {
  let running: RunningConsole;
  const tabs: ConsoleEventStream[] = [];
  beforeAll(async () => {
    running = await startConsole(consoleConfig(demoServers()));
    await running.host.servers.settled();
  });
  afterAll(async () => {
    await Promise.all(tabs.map((t) => t.close()));
    await running.close();
  });

  it('lists the demo server as one connection per user', () => {
    expect(running.host.servers.list().map((s) => [s.id, s.isolation])).toEqual([['demo', 'user']]);
  });

  it('asks two users calling ask_user at once each their own question, and each gets their own answer', async () => {
    const ana = await ConsoleClient.signIn(running.url, { userId: 'ana' });
    const bob = await ConsoleClient.signIn(running.url, { userId: 'bob' });
    const anaTab = await ana.openEvents();
    const bobTab = await bob.openEvents();
    tabs.push(anaTab, bobTab);

    const [forAna, forBob] = await Promise.all([
      callUntilAsked(ana, anaTab, 'demo__ask_user'),
      callUntilAsked(bob, bobTab, 'demo__ask_user'),
    ]);
    expect(forBob.end === undefined ? undefined : screenText(forBob.end.result)).toBeUndefined();
    expect(forAna.end === undefined ? undefined : screenText(forAna.end.result)).toBeUndefined();
    expect(forAna.question).toMatchObject({ mode: 'form', scope: { userId: 'ana' } });
    expect(forBob.question).toMatchObject({ mode: 'form', scope: { userId: 'bob' } });

    for (const [client, tab, call, name] of [
      [bob, bobTab, forBob, 'Bob'],
      [ana, anaTab, forAna, 'Ana'],
    ] as const) {
      const answer = await client.post(`/api/elicitations/${call.question?.id ?? ''}`, {
        answer: { action: 'accept', content: { name } },
      });
      expect(answer.status).toBe(200);
      const end = await tab.waitForEnd(call.id);
      expect(screenText(end.result)).toBe(
        `The user answered the form with action "accept" and content ${JSON.stringify({ name })}.`,
      );
    }
  });
});

describe('a stdio server set to isolation "shared" keeps one process for everyone', () => {
  let running: RunningConsole;
  beforeAll(async () => {
    running = await startConsole(consoleConfig(demoServers().map((s) => ({ ...s, isolation: 'shared' as const }))));
    await running.host.servers.settled();
  });
  afterAll(async () => {
    await running.close();
  });

  it('lists the demo server as shared', () => {
    expect(running.host.servers.list().map((s) => [s.id, s.isolation])).toEqual([['demo', 'shared']]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ElicitationRequest } from '@airlock/core';
import { startConsole } from '@airlock/console';
import type { RunningConsole } from '@airlock/console';
import { ConsoleClient, screenText } from './testing/console-client.js';
import type { ConsoleEventStream } from './testing/console-client.js';
import { memoryConsoleConfig } from './testing/memory-console-config.js';

// The demo's connect_required refuses with -32042 and completes its URL flow at once, before the user has accepted
// it: the accepted flow must still end on every tab and stay gone after a reload. The console under test is the built
// one (`npm run build` first).

describe('a -32042 URL flow the server completed before the user accepted it', () => {
  let running: RunningConsole;
  const tabs: ConsoleEventStream[] = [];
  beforeAll(async () => {
    running = await startConsole(memoryConsoleConfig('url flow test'));
    await running.host.servers.settled();
  });
  afterAll(async () => {
    await Promise.all(tabs.map((t) => t.close()));
    await running.close();
  });

  it('is told completed on the tab, and a reloaded tab shows no flow waiting', async () => {
    const ana = await ConsoleClient.signIn(running.url, { userId: 'ana' });
    const tab = await ana.openEvents();
    tabs.push(tab);
    const id = await ana.startCall('demo__connect_required', { completeAfterMs: 0 });
    await tab.waitForPermission(id);
    expect((await ana.post(`/api/permission-requests/${id}`, { decision: 'allow_once' })).status).toBe(200);
    const question = await tab.waitForElicitation(id);
    expect(question).toMatchObject({ mode: 'url', serverElicitationId: expect.any(String) });

    expect((await ana.post(`/api/elicitations/${question.id}`, { answer: { action: 'accept' } })).status).toBe(200);
    await tab.waitFor(
      (e) => e.event === 'elicitation.completed' && (e.data as { id: string }).id === question.id,
      'the URL flow completing',
    );
    const end = await tab.waitForEnd(id);
    expect(screenText(end.result)).toBe('Connected: the call went through after the URL flow.');

    const reloaded = await ana.openEvents();
    tabs.push(reloaded);
    expect(reloaded.state['urlFlows'] as ElicitationRequest[]).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole } from '@airlock/console';
import type { RunningConsole } from '@airlock/console';
import { ConsoleClient, screenText } from './testing/console-client.js';
import type { ConsoleEventStream } from './testing/console-client.js';
import { memoryConsoleConfig } from './testing/memory-console-config.js';

// A view's calls are answered like any call: accepted at once (202 with the invocation id) while the call waits for
// the user's consent, its end on the tab's event stream. So a view with many calls waiting holds no request open,
// and the console keeps answering everything else.

describe("a view's calls", () => {
  let running: RunningConsole;
  let ana: ConsoleClient;
  let tab: ConsoleEventStream;
  beforeAll(async () => {
    running = await startConsole(memoryConsoleConfig('view calls test'));
    await running.host.servers.settled();
    ana = await ConsoleClient.signIn(running.url, { userId: 'ana' });
    tab = await ana.openEvents();
  });
  afterAll(async () => {
    await tab.close();
    await running.close();
  });

  it('are accepted at once while 30 wait for consent, and the console answers other requests within 1 s', async () => {
    const accepted = await Promise.all(
      Array.from({ length: 30 }, () => ana.post('/api/app-calls', { serverId: 'demo', name: 'app_refresh' })),
    );
    expect(accepted.map((a) => a.status)).toEqual(Array.from({ length: 30 }, () => 202));
    const ids = accepted.map((a) => (a.body as { invocationId: string }).invocationId);
    expect(new Set(ids).size).toBe(30);
    for (const id of ids) await tab.waitForPermission(id);

    const started = performance.now();
    const tools = await ana.get('/api/tools');
    const session = await ana.get('/api/session');
    expect([tools.status, session.status]).toEqual([200, 200]);
    expect(performance.now() - started).toBeLessThan(1000);

    // The user answers each question; each call then ends on the stream with its result.
    for (const id of ids) {
      expect((await ana.post(`/api/permission-requests/${id}`, { decision: 'allow_once' })).status).toBe(200);
    }
    for (const id of ids) {
      const end = await tab.waitForEnd(id);
      expect(end.invocation).toMatchObject({ state: 'success', caller: { kind: 'app', serverId: 'demo' } });
      expect(screenText(end.result)).toMatch(/^Dashboard refreshed/);
    }
  });

  it('refuses at once a tool the view may not call, and audits the attempt', async () => {
    const refused = await ana.post('/api/app-calls', { serverId: 'demo', name: 'model_summary' });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'tool_not_visible' } } });
    // Nothing was recorded as a call, but the audit keeps the attempt.
    const audit = await running.host.audit.query({ scope: { userId: 'ana', workspaceId: 'default' } });
    expect(audit.filter((e) => e.type === 'app.call_refused')).toEqual([
      expect.objectContaining({
        serverId: 'demo',
        tool: 'demo__model_summary',
        data: expect.objectContaining({ outcome: 'tool_not_found', code: 'tool_not_visible' }),
      }),
    ]);
  });
});

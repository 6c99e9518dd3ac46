import { describe, expect, it } from 'vitest';
import type { Scope } from '../scope.js';
import { FakeClock } from '../testing/fake-clock.js';
import { UrlFlows } from './url-flows.js';

const SCOPE: Scope = { userId: 'ana', workspaceId: 'default', conversationId: 'main' };

describe('UrlFlows', () => {
  it("tells of a -32042 flow's completion that came while the user was still being asked", async () => {
    const completed: unknown[] = [];
    const flows = new UrlFlows({
      clock: new FakeClock(),
      timeoutMs: () => 60_000,
      completed: (e) => completed.push(e),
    });
    const retried = flows.required({
      serverId: 'demo',
      elicitations: [{ mode: 'url', message: 'Connect', url: 'https://example.com/c', elicitationId: 'flow-1' }],
      signal: new AbortController().signal,
      ask: () => {
        // The server finishes the flow before the user accepts it (the demo's connect_required does, after 50 ms).
        flows.completed('demo', 'flow-1');
        flows.accepted('demo', 'flow-1', SCOPE);
        return Promise.resolve({ action: 'accept' });
      },
      hold: () => () => undefined,
    });
    expect(await retried).toBe(true);
    expect(completed).toEqual([{ scope: SCOPE, serverId: 'demo', elicitationId: 'flow-1' }]);
  });
});

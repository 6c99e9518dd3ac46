import { describe, expect, it } from 'vitest';
import { createHost } from './create-host.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { demoServer, SCOPE } from '../testing/demo-fixture.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';

describe('host.history.list across conversations', () => {
  it("lists the user's calls from every conversation with allConversations, one conversation without", async () => {
    await using host = createHost({
      servers: [demoServer().config],
      surface: new ScriptedSurface('allow_once'),
      store: new MemoryStore(),
    });
    await host.servers.settled();
    const other = { ...SCOPE, conversationId: 'another-conversation' };
    for (const scope of [SCOPE, other]) {
      await host.invoke({ scope, caller: { kind: 'model' }, tool: 'demo__echo', args: { text: scope.conversationId } });
    }
    const across = await host.history.list({ scope: SCOPE, allConversations: true });
    expect(across.map((call) => call.scope.conversationId).sort()).toEqual(
      [SCOPE.conversationId, other.conversationId].sort(),
    );
    expect(await host.history.list({ scope: SCOPE })).toHaveLength(1);
  });
});

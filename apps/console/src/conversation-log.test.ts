import { describe, expect, it } from 'vitest';
import { MemoryStore } from '@airlock/core';
import type { Scope } from '@airlock/core';
import { ConversationLog } from './conversation-log.js';
import { EventHub } from '@airlock/web-kit';
import type { ConsoleEventMap } from './console-events.js';

const ana = (conversationId: string): Scope => ({ userId: 'ana', workspaceId: 'w', conversationId });
const bob = (conversationId: string): Scope => ({ userId: 'bob', workspaceId: 'w', conversationId });

/** A log over a fresh memory store, with a conversation kept for `scope` under `title`. */
async function logWith(...kept: [Scope, string][]) {
  const store = new MemoryStore();
  const log = new ConversationLog({ store, hub: new EventHub<ConsoleEventMap>() });
  for (const [scope, title] of kept) {
    const conversation = await log.open(scope);
    conversation.title = title;
    log.addLine(conversation, { role: 'user', text: title });
    await log.save(conversation);
  }
  return { store, log };
}

describe('deleting a conversation', () => {
  it('removes it from the store and the list, and a fresh log no longer finds its lines', async () => {
    const { store, log } = await logWith([ana('first'), 'First'], [ana('second'), 'Second']);
    expect(await log.delete(ana('first'))).toBe(true);
    expect((await log.list(ana('x'))).map((c) => c.title)).toEqual(['Second']);
    expect(await store.getConversation(ana('first'), 'first')).toBeUndefined();
    const reopened = await new ConversationLog({ store, hub: new EventHub<ConsoleEventMap>() }).open(ana('first'));
    expect(reopened).toMatchObject({ stored: false, lines: [] });
  });

  it("answers false for another user's conversation and leaves it kept", async () => {
    const { log } = await logWith([ana('shared-id'), 'Ana’s']);
    expect(await log.delete(bob('shared-id'))).toBe(false);
    expect((await log.list(ana('x'))).map((c) => c.title)).toEqual(['Ana’s']);
  });

  it('answers false for an id never kept', async () => {
    const { log } = await logWith();
    expect(await log.delete(ana('never'))).toBe(false);
  });
});

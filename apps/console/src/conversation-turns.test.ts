// One turn per conversation across console instances: two conversation logs over one store (as two instances over
// one database) claim a conversation's turn in the store, so a second turn is refused wherever it starts, and no
// save overwrites a revision another log kept since it read.
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '@airlock/core';
import { FakeClock } from '@airlock/core/testing';
import { ConversationLog, TURN_BUSY_MESSAGE, TURN_CLAIM_MS } from './conversation-log.js';
import { EventHub } from '@airlock/web-kit';
import type { ConsoleEventMap } from './console-events.js';

const scope = { userId: 'ana', workspaceId: 'w', conversationId: 'c1' };

/** Two logs (two instances) over one store, on one fake clock. */
function twoLogs() {
  const store = new MemoryStore();
  const clock = new FakeClock(1_000_000);
  const log = () => new ConversationLog({ store, hub: new EventHub<ConsoleEventMap>(), clock });
  return { store, clock, a: log(), b: log() };
}

/** A conversation kept by `log` with one line, the way a turn's question is kept. */
async function started(log: ConversationLog, text = 'hello') {
  const turn = await log.claimTurn(scope);
  turn.title = text;
  log.addLine(turn, { role: 'user', text });
  await log.save(turn, { listChanged: true });
  return turn;
}

describe('a chat turn claims its conversation in the store', () => {
  it('refuses a second turn on another log while one runs, and lets it run, on what was kept, once it ended', async () => {
    const { a, b } = twoLogs();
    const turn = await started(a);

    await expect(b.claimTurn(scope)).rejects.toThrow(TURN_BUSY_MESSAGE);
    await expect(a.claimTurn(scope)).rejects.toThrow(TURN_BUSY_MESSAGE);
    a.addLine(turn, { role: 'assistant', text: 'hi there' });
    await a.releaseTurn(turn);

    const next = await b.claimTurn(scope);
    expect(next.lines.map((line) => line.text)).toEqual(['hello', 'hi there']);
    await b.releaseTurn(next);
  });

  it('leaves a conversation whose turn was never ended (its instance died) to the others once the claim is old', async () => {
    const { a, b, clock } = twoLogs();
    await started(a);

    clock.advance(TURN_CLAIM_MS - 1);
    await expect(b.claimTurn(scope)).rejects.toThrow(TURN_BUSY_MESSAGE);
    clock.advance(2);
    await expect(b.claimTurn(scope)).resolves.toMatchObject({ title: 'hello' });
  });

  it("keeps a rename or a view's context made on another log during a turn, and the turn's reply with it", async () => {
    const { a, b, store } = twoLogs();
    const turn = await started(a);

    expect(await b.rename(scope, 'Renamed on B')).toBe(true);
    await b.update(scope, (c) => void (c.views = [{ serverId: 'demo', tool: 'demo__t', text: 'x', truncated: false }]));
    a.addLine(turn, { role: 'assistant', text: 'the reply' });
    await a.releaseTurn(turn);

    const kept = (await store.getConversation(scope, 'c1'))!;
    expect(kept.title).toBe('Renamed on B');
    expect((JSON.parse(kept.lines) as { text: string }[]).map((l) => l.text)).toEqual(['hello', 'the reply']);
    expect(JSON.parse(kept.context)).toEqual({
      views: [{ serverId: 'demo', tool: 'demo__t', text: 'x', truncated: false }],
    });
  });

  it('never lets a save of an older revision overwrite a newer one: it is refused, and an update reads afresh', async () => {
    const { a, b, store } = twoLogs();
    await a.releaseTurn(await started(a));
    const stale = await b.open(scope);
    await a.rename(scope, 'Newer on A');

    stale.title = 'Stale on B';
    await expect(b.save(stale)).rejects.toMatchObject({ code: 'conflict' });
    expect((await store.getConversation(scope, 'c1'))!.title).toBe('Newer on A');
    await b.update(scope, (c) => void (c.views = []));
    expect((await store.getConversation(scope, 'c1'))!.title).toBe('Newer on A');
  });
});

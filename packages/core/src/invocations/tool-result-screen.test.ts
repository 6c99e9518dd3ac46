import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { SCOPE } from '../testing/demo-fixture.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe("the screen payload of a call's result", () => {
  it('is the one history keeps, with more of a long text than the model gets', async () => {
    const long = 'line\n'.repeat(8_000);
    host = createHost({
      store: new MemoryStore(),
      surface: new ScriptedSurface('allow_once'),
      tools: [
        {
          name: 'dump',
          inputSchema: { type: 'object' },
          run: () => Promise.resolve({ content: [{ type: 'text', text: long }] }),
        },
      ],
    });

    const result = await host.invoke({ scope: SCOPE, caller: { kind: 'user' }, tool: 'dump' });

    const entry = await host.history.get({ scope: SCOPE, invocationId: result.invocationId });
    expect(result.screen).toEqual(entry?.result?.screen);
    expect(result.screen.blocks[0]).toMatchObject({ type: 'text', text: long });
    expect(result.text.length).toBeLessThan(long.length);
  });

  it("of a call refused before it was recorded is the refusal in words, without the model's frame", async () => {
    host = createHost({ store: new MemoryStore() });

    const result = await host.invoke({ scope: SCOPE, caller: { kind: 'user' }, tool: 'nowhere' });

    expect(result.outcome).toBe('tool_not_found');
    expect(result.screen).toMatchObject({ isError: true, handle: result.handle });
    expect(result.text).toBe('[tool_not_found: tool "nowhere"] unknown tool nowhere');
    expect(result.screen.blocks).toEqual([expect.objectContaining({ type: 'text', text: 'unknown tool nowhere' })]);
  });

  it('of a cancelled call says it was cancelled, once, in words', async () => {
    const controller = new AbortController();
    host = createHost({
      store: new MemoryStore(),
      surface: new ScriptedSurface('allow_once'),
      tools: [
        {
          name: 'wait',
          inputSchema: { type: 'object' },
          // Running, it is cancelled by its caller.
          run: (_args, { signal }) => {
            const ended = new Promise<never>((_resolve, reject) =>
              signal.addEventListener('abort', () => reject(signal.reason as Error)),
            );
            controller.abort();
            return ended;
          },
        },
      ],
    });
    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'user' },
      tool: 'wait',
      signal: controller.signal,
    });

    expect(result.outcome).toBe('cancelled');
    expect(result.text).toMatch(/^\[cancelled: tool "wait" from the host\] /);
    expect(result.screen.blocks).toEqual([
      expect.objectContaining({ type: 'text', text: 'the call of wait was cancelled' }),
    ]);
  });
});

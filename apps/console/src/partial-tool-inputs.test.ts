import { describe, expect, it } from 'vitest';
import type { Tool } from '@airlock/core';
import { FakeClock } from '@airlock/core/testing';
import { PartialToolInputs } from './partial-tool-inputs.js';
import type { PartialToolInput } from './partial-tool-inputs.js';

const tool = (name: string, resourceUri?: string): Pick<Tool, 'name' | 'origin' | 'resourceUri'> => ({
  name,
  origin: { kind: 'mcp', serverId: 'demo', originalName: name.replace('demo__', '') },
  ...(resourceUri === undefined ? {} : { resourceUri }),
});

/** A follower over a view tool and a plain one, on a fake clock, keeping what it sends. */
function following(everyMs = 100) {
  const clock = new FakeClock(1_000);
  const sent: PartialToolInput[] = [];
  const partials = new PartialToolInputs({
    tools: [tool('demo__show_dashboard', 'ui://demo/dashboard'), tool('demo__add_note')],
    send: (input) => sent.push(input),
    clock,
    everyMs,
  });
  const delta = (id: string, text: string) => partials.take({ type: 'tool-input-delta', id, delta: text });
  return { clock, sent, partials, delta, titles: () => sent.map((s) => s.args['title']) };
}

describe("a call's input told to its view while the model writes it", () => {
  it('sends the first reading at once, with the call id, tool and server, and each later one as it grows', () => {
    const { sent, partials, delta, titles } = following(0);
    partials.take({ type: 'tool-input-start', id: 'call_1', toolName: 'demo__show_dashboard' });
    for (const piece of ['{"ti', 'tle": "Quar', 'terly', ' notes"', '}']) delta('call_1', piece);

    expect(sent[0]).toEqual({ modelCallId: 'call_1', tool: 'demo__show_dashboard', serverId: 'demo', args: {} });
    expect(titles()).toEqual([undefined, 'Quar', 'Quarterly', 'Quarterly notes']);
  });

  it('says nothing of a tool without a view', () => {
    const { sent, partials, delta } = following(0);
    partials.take({ type: 'tool-input-start', id: 'call_2', toolName: 'demo__add_note' });
    delta('call_2', '{"title": "x"}');
    expect(sent).toEqual([]);
  });

  it('sends at most one reading per interval: the latest, once the interval is over', () => {
    const { clock, partials, delta, titles } = following(100);
    partials.take({ type: 'tool-input-start', id: 'call_1', toolName: 'demo__show_dashboard' });
    delta('call_1', '{"title": "A');
    delta('call_1', 'B');
    delta('call_1', 'C');
    expect(titles()).toEqual(['A']);
    clock.advance(99);
    expect(titles()).toEqual(['A']);
    clock.advance(1);
    expect(titles()).toEqual(['A', 'ABC']);
    clock.advance(500);
    expect(titles()).toEqual(['A', 'ABC']);
  });

  it('sends nothing more once the input is whole or the call is being made, even what waited for its interval', () => {
    const { clock, partials, delta, titles } = following(100);
    partials.take({ type: 'tool-input-start', id: 'call_1', toolName: 'demo__show_dashboard' });
    delta('call_1', '{"title": "A');
    delta('call_1', 'B"}');
    partials.take({ type: 'tool-input-end', id: 'call_1' });
    partials.take({ type: 'tool-input-start', id: 'call_2', toolName: 'demo__show_dashboard' });
    delta('call_2', '{"title": "C');
    delta('call_2', 'D');
    partials.end('call_2');
    delta('call_2', 'E');
    clock.advance(1_000);
    expect(titles()).toEqual(['A', 'C']);
  });

  it('does not send the same reading twice (a delta inside a key changes nothing read)', () => {
    const { sent, partials, delta } = following(0);
    partials.take({ type: 'tool-input-start', id: 'call_1', toolName: 'demo__show_dashboard' });
    for (const piece of ['{', '"ti', 'tle', '"']) delta('call_1', piece);
    expect(sent.map((s) => s.args)).toEqual([{}]);
  });

  it('ends what it follows when the stream it reads ends, so no timer outlives the turn', async () => {
    const { clock, partials, titles } = following(100);
    async function* model() {
      await Promise.resolve();
      yield { type: 'tool-input-start', id: 'call_1', toolName: 'demo__show_dashboard' } as const;
      yield { type: 'tool-input-delta', id: 'call_1', delta: '{"title": "A' } as const;
      yield { type: 'tool-input-delta', id: 'call_1', delta: 'B' } as const;
      throw new Error('the model went away');
    }
    const seen: string[] = [];
    await expect(async () => {
      for await (const part of partials.follow(model())) seen.push(part.type);
    }).rejects.toThrow('the model went away');
    clock.advance(1_000);
    expect(seen).toEqual(['tool-input-start', 'tool-input-delta', 'tool-input-delta']);
    expect(titles()).toEqual(['A']);
  });
});

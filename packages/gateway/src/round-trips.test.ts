import { describe, expect, it } from 'vitest';
import type { CallToolResult, ElicitResult } from '@modelcontextprotocol/server';
import { RoundTrips } from './round-trips.js';

const FORM = { form: true, url: false };
const QUESTION = {
  mode: 'form' as const,
  message: 'May it run?',
  requestedSchema: { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } },
};

/** A call whose work asks one question and answers with what it was told. */
function askingCall(trips: RoundTrips, owner = 'ada') {
  const call = trips.start(owner, 'demo__echo', FORM);
  call.run(async (signal): Promise<CallToolResult> => {
    const answer: ElicitResult = await call.asker.elicit(QUESTION, signal);
    return { content: [{ type: 'text', text: `told ${JSON.stringify(answer)}` }] };
  });
  return call;
}

describe('RoundTrips: a 2026 call across its retries', () => {
  it('ends a request with the question, and the retry with the answer gets the result', async () => {
    const trips = new RoundTrips();
    const call = askingCall(trips);
    const first = await call.leg({ signal: new AbortController().signal, modes: FORM });
    expect(first).toMatchObject({
      resultType: 'input_required',
      requestState: call.id,
      inputRequests: { q1: { method: 'elicitation/create', params: { message: 'May it run?' } } },
    });

    const resumed = trips.resume(call.id, 'ada', 'demo__echo');
    resumed.answer({ q1: { action: 'accept', content: { ok: true } } });
    const done = await resumed.leg({ signal: new AbortController().signal, modes: FORM });
    expect(done).toEqual({ content: [{ type: 'text', text: 'told {"action":"accept","content":{"ok":true}}' }] });
    expect(trips.size).toBe(0);
  });

  it('refuses a retry of another owner or tool, and an answer that is not an elicitation result', async () => {
    const trips = new RoundTrips();
    const call = askingCall(trips);
    await call.leg({ signal: new AbortController().signal, modes: FORM });
    expect(() => trips.resume(call.id, 'hopper', 'demo__echo')).toThrow('Invalid or expired requestState');
    expect(() => trips.resume(call.id, 'ada', 'demo__delete_note')).toThrow('Invalid or expired requestState');
    expect(() => call.answer({ q1: { action: 'maybe' } })).toThrow('inputResponses.q1 is not an elicitation result');
  });

  it('asks again a question the retry left unanswered', async () => {
    const trips = new RoundTrips();
    const call = askingCall(trips);
    await call.leg({ signal: new AbortController().signal, modes: FORM });
    call.answer({});
    const again = await call.leg({ signal: new AbortController().signal, modes: FORM });
    expect(again).toMatchObject({
      resultType: 'input_required',
      inputRequests: { q1: { method: 'elicitation/create' } },
    });
  });

  it('cancels the call when the request waiting for it is cancelled, and lets one request wait at a time', async () => {
    const trips = new RoundTrips();
    const call = trips.start('ada', 'demo__hang', FORM);
    let cancelled = false;
    call.run(
      (signal) =>
        new Promise<CallToolResult>((resolve) =>
          signal.addEventListener('abort', () => {
            cancelled = true;
            resolve({ content: [{ type: 'text', text: 'cancelled' }], isError: true });
          }),
        ),
    );
    const waiting = new AbortController();
    const leg = call.leg({ signal: waiting.signal, modes: FORM });
    await expect(call.leg({ signal: new AbortController().signal, modes: FORM })).rejects.toThrow(
      'Another request is already waiting for this call',
    );
    waiting.abort();
    await expect(leg).resolves.toMatchObject({ isError: true });
    expect(cancelled).toBe(true);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { HostError } from '../errors/host-error.js';
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

function start(): Host {
  host = createHost({
    store: new MemoryStore(),
    surface: new ScriptedSurface('allow_once'),
    tools: [
      {
        name: 'lookup',
        inputSchema: { type: 'object' },
        run: () => Promise.resolve({ content: [{ type: 'text', text: 'found' }] }),
      },
    ],
  });
  return host;
}

describe("the model's id for a call", () => {
  it('is kept in history and in the audit details of every event of the call', async () => {
    const host = start();
    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'lookup',
      modelCallId: 'toolu_01AbC',
    });
    expect(result.outcome).toBe('success');

    const entry = await host.history.get({ scope: SCOPE, invocationId: result.invocationId });
    expect(entry?.invocation.modelCallId).toBe('toolu_01AbC');
    const events = await host.audit.query({ scope: SCOPE, invocationId: result.invocationId });
    const transitions = events.filter((event) => event.type === 'invocation.transition');
    expect(transitions.map((event) => event.data['to'])).toEqual(['pending', 'running', 'success']);
    for (const event of transitions) expect(event.data['modelCallId']).toBe('toolu_01AbC');
    expect((await host.audit.verify()).ok).toBe(true);
  });

  it('is absent from the record and the audit of a call made without one', async () => {
    const host = start();
    const result = await host.invoke({ scope: SCOPE, caller: { kind: 'user' }, tool: 'lookup' });

    const entry = await host.history.get({ scope: SCOPE, invocationId: result.invocationId });
    expect(entry?.invocation).not.toHaveProperty('modelCallId');
    const events = await host.audit.query({ scope: SCOPE, invocationId: result.invocationId });
    for (const event of events) expect(event.data).not.toHaveProperty('modelCallId');
  });

  it('refuses an id that is not a string of 1 to 256 characters, and records nothing', async () => {
    const host = start();
    for (const modelCallId of ['', 'x'.repeat(257), 42]) {
      const call = host.invoke({
        scope: SCOPE,
        caller: { kind: 'model' },
        tool: 'lookup',
        modelCallId: modelCallId as string,
      });
      await expect(call).rejects.toThrow(HostError);
      await expect(call).rejects.toMatchObject({ code: 'invalid_options' });
    }
    expect(await host.history.list({ scope: SCOPE })).toEqual([]);
  });
});

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

const ran: string[] = [];

/** Three native tools: lookup is asked each time, clock is allowed by a rule, wipe is denied by one. */
function start(): { host: Host; surface: ScriptedSurface } {
  ran.length = 0;
  const surface = new ScriptedSurface('allow_once');
  const tool = (name: string) => ({
    name,
    inputSchema: { type: 'object' },
    run: () => {
      ran.push(name);
      return Promise.resolve({ content: [{ type: 'text' as const, text: `${name} ran` }] });
    },
  });
  host = createHost({
    store: new MemoryStore(),
    surface,
    tools: [tool('lookup'), tool('clock'), tool('wipe')],
    permissions: {
      rules: [
        { effect: 'allow', tool: 'clock' },
        { effect: 'deny', tool: 'wipe' },
      ],
    },
  });
  return { host, surface };
}

async function decisionOf(h: Host, invocationId: string) {
  const events = await h.audit.query({ scope: SCOPE, invocationId });
  return events.find((event) => event.type === 'permission.decision')?.data;
}

describe("the app's own approval of one call", () => {
  it("stands in for the surface: the call runs once, audited as the user's answer with the flow that asked", async () => {
    const { host, surface } = start();
    const told: unknown[] = [];
    host.on('permission.decided', (event) => told.push([event.decision, event.by]));

    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'lookup',
      approval: { decision: 'allow_once', by: 'ai-sdk' },
    });

    expect(result.outcome).toBe('success');
    expect(ran).toEqual(['lookup']);
    expect(surface.requests).toHaveLength(0);
    expect(await decisionOf(host, result.invocationId)).toEqual({
      decision: 'allow_once',
      origin: 'user_prompt',
      via: 'approval',
      by: 'ai-sdk',
    });
    expect(told).toEqual([['allow_once', 'ai-sdk']]);
    expect((await host.audit.verify()).ok).toBe(true);
  });

  it('denies with a deny: nothing runs, history has the call denied and says who asked', async () => {
    const { host, surface } = start();

    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'lookup',
      approval: { decision: 'deny_once', by: 'ai-sdk' },
    });

    expect(result.outcome).toBe('permission_denied');
    expect(result.text).toContain('the user denied lookup when ai-sdk asked');
    expect(ran).toEqual([]);
    expect(surface.requests).toHaveLength(0);
    const entry = await host.history.get({ scope: SCOPE, invocationId: result.invocationId });
    expect(entry?.invocation.outcome).toBe('permission_denied');
    expect(await decisionOf(host, result.invocationId)).toMatchObject({ decision: 'deny_once', by: 'ai-sdk' });
  });

  it("denies a call a rule would allow, and never lets an allow through a rule's deny", async () => {
    const { host } = start();

    const denied = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'clock',
      approval: { decision: 'deny_once', by: 'ai-sdk' },
    });
    const wiped = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'wipe',
      approval: { decision: 'allow_once', by: 'ai-sdk' },
    });

    expect([denied.outcome, wiped.outcome]).toEqual(['permission_denied', 'permission_denied']);
    expect(ran).toEqual([]);
    expect(await decisionOf(host, denied.invocationId)).toMatchObject({ decision: 'deny_once', via: 'approval' });
    expect(await decisionOf(host, wiped.invocationId)).toMatchObject({ decision: 'deny', origin: 'rule' });
  });

  it('is not used where a rule allows: the rule decides, as without one', async () => {
    const { host } = start();

    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'clock',
      approval: { decision: 'allow_once', by: 'ai-sdk' },
    });

    expect(result.outcome).toBe('success');
    expect(await decisionOf(host, result.invocationId)).toMatchObject({ decision: 'allow', origin: 'rule' });
  });

  it('refuses an approval that is not a once-only decision naming its flow, and records nothing', async () => {
    const { host } = start();
    const call = (approval: unknown) =>
      host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'lookup', approval: approval as never });

    await expect(call({ decision: 'allow_always', by: 'ai-sdk' })).rejects.toThrow(HostError);
    await expect(call({ decision: 'allow_once' })).rejects.toThrow(/approval\.by must name the flow/);
    await expect(call({ decision: 'deny_once', by: 'x'.repeat(65) })).rejects.toThrow(/1 to 64 characters/);
    expect(await host.history.list({ scope: SCOPE })).toEqual([]);
  });
});

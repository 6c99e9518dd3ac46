import { describe, expect, it } from 'vitest';
import type { InvocationRecord } from '../store/invocation-record.js';
import type { Surface } from '../host/surface.js';
import type { PermissionDecision, PermissionRequest } from './permission-request.js';
import { FakeClock } from '../testing/fake-clock.js';
import type { Tool } from '../tools/tool.js';
import { askPermission, permissionRequest } from './permission-prompt.js';
import type { RiskAssessment } from './risk.js';

const medium: RiskAssessment = { tier: 'medium', destructive: false, unverified: true, reasons: [] };
const invocation = {
  id: 'i1',
  scope: { userId: 'ana', workspaceId: 'w1', conversationId: 'c1' },
  caller: { kind: 'model' },
  args: { text: 'hi' },
  argsHash: 'args-1',
} as unknown as InvocationRecord;
const echo = {
  name: 'demo__echo',
  title: 'Echo',
  origin: { kind: 'mcp', serverId: 'demo', originalName: 'echo' },
} as Tool;
const request = permissionRequest({
  invocation,
  tool: echo,
  risk: medium,
  server: () => ({ identity: 'identity-demo', trusted: false }),
  reason: 'first_time',
});

/** A surface whose prompt stays open until the test answers it or its signal aborts it. */
function openPrompt() {
  const asked: { signal: AbortSignal; answer: (value: unknown) => void; fail: (error: Error) => void }[] = [];
  const surface: Surface = {
    askPermission: (_request, signal) =>
      new Promise<PermissionDecision>((answer, fail) => {
        asked.push({ signal, answer: answer as (value: unknown) => void, fail });
        signal.addEventListener('abort', () => fail(new Error('the prompt was closed')));
      }),
  };
  return { surface, asked };
}

function ask(surface: Surface | undefined, clock: FakeClock, signal = new AbortController().signal) {
  const requested: PermissionRequest[] = [];
  const answer = askPermission({
    surface,
    request,
    signal,
    clock,
    timeoutMs: 100,
    requested: (r) => requested.push(r),
  });
  return { answer, requested };
}

describe('permissionRequest', () => {
  it('shows the tool as its server names it, the full arguments, and offers allow always for a safe MCP tool', () => {
    expect(request).toMatchObject({
      invocationId: 'i1',
      tool: { name: 'demo__echo', displayName: 'Echo', originalName: 'echo' },
      server: { id: 'demo', trusted: false },
      args: { text: 'hi' },
      allowAlways: { offered: true },
      defaultAction: 'allow_once',
      renewal: false,
      reason: 'first_time',
    });
  });

  it('offers allow always neither for a native tool nor for a destructive one, whose default is deny once', () => {
    const native = permissionRequest({
      invocation,
      tool: { name: 'clock', origin: { kind: 'native' } } as Tool,
      risk: medium,
      server: () => undefined,
      reason: 'asked_each_time',
    });
    expect(native).toMatchObject({ server: null, tool: { originalName: 'clock' }, allowAlways: { offered: false } });
    const destructive = permissionRequest({
      invocation,
      tool: echo,
      risk: { ...medium, destructive: true },
      server: () => undefined,
      reason: 'decision_expired',
    });
    expect(destructive).toMatchObject({
      allowAlways: { offered: false, reason: expect.stringMatching(/modify or delete/) },
      defaultAction: 'deny_once',
      renewal: true,
      reason: 'decision_expired',
    });
  });

  it('carries no reason on the request a listener is shown for a call decided without asking', () => {
    const decided = permissionRequest({
      invocation,
      tool: echo,
      risk: medium,
      server: () => undefined,
      reason: undefined,
    });
    expect(decided).not.toHaveProperty('reason');
    expect(decided.renewal).toBe(false);
  });
});

describe('askPermission', () => {
  it("returns the user's decision and leaves no timer behind", async () => {
    const clock = new FakeClock();
    const { surface, asked } = openPrompt();
    const { answer, requested } = ask(surface, clock);
    expect(requested).toEqual([request]);
    asked[0]!.answer('allow_always');
    expect(await answer).toEqual({ kind: 'answered', decision: 'allow_always' });
    expect(clock.pendingTimers).toBe(0);
  });

  it('fails closed with no surface attached, and tells no listener of a prompt', async () => {
    const { answer, requested } = ask(undefined, new FakeClock());
    expect(await answer).toEqual({
      kind: 'failed',
      origin: 'no_surface',
      reason: 'no surface is attached to ask the user, so demo__echo did not run',
    });
    expect(requested).toEqual([]);
  });

  it('fails closed when no one answers in time on the clock, and closes the prompt', async () => {
    const clock = new FakeClock();
    const { surface, asked } = openPrompt();
    const { answer } = ask(surface, clock);
    clock.advance(99);
    expect(asked[0]!.signal.aborted).toBe(false);
    clock.advance(1);
    expect(asked[0]!.signal.aborted).toBe(true);
    expect(await answer).toEqual({
      kind: 'failed',
      origin: 'prompt_timeout',
      reason: 'no one answered the permission prompt within 100 ms, so demo__echo did not run',
    });
  });

  it('fails closed when the surface fails, saying why', async () => {
    const clock = new FakeClock();
    const { surface, asked } = openPrompt();
    const { answer } = ask(surface, clock);
    asked[0]!.fail(new Error('the terminal went away'));
    expect(await answer).toEqual({
      kind: 'failed',
      origin: 'surface_error',
      reason: 'the permission prompt failed, so demo__echo did not run: the terminal went away',
    });
    expect(clock.pendingTimers).toBe(0);
  });

  it('fails closed when the surface answers something that is not a decision', async () => {
    const { surface, asked } = openPrompt();
    const { answer } = ask(surface, new FakeClock());
    asked[0]!.answer('yes please');
    expect(await answer).toMatchObject({
      kind: 'failed',
      origin: 'invalid_answer',
      reason: expect.stringMatching(/"yes please", which is not/),
    });
  });

  it("closes the prompt when the call's own signal aborts", async () => {
    const call = new AbortController();
    const { surface, asked } = openPrompt();
    const { answer } = ask(surface, new FakeClock(), call.signal);
    call.abort();
    expect(asked[0]!.signal.aborted).toBe(true);
    expect(await answer).toMatchObject({
      kind: 'failed',
      origin: 'call_cancelled',
      reason: expect.stringMatching(/the prompt was closed/),
    });
  });
});

import { describe, expect, it } from 'vitest';
import { LiveCall, RunContext } from './call-context.js';
import type { InvocationRecord } from '../store/invocation-record.js';

const scope = { userId: 'u', workspaceId: 'w', conversationId: 'c' };

describe('RunContext', () => {
  it('builds its signal only when a tool reads it, once per read of the builder', () => {
    const controller = new AbortController();
    let built = 0;
    const context = new RunContext(
      () => {
        built += 1;
        return controller.signal;
      },
      scope,
      () => undefined,
    );
    expect(built).toBe(0);
    expect(context.signal).toBe(controller.signal);
    expect(built).toBe(1);
    expect(context.scope).toBe(scope);
  });

  it('has asTask and onTask only when the call set them, as the literal it replaced did', () => {
    const plain = new RunContext(
      () => new AbortController().signal,
      scope,
      () => undefined,
    );
    expect('asTask' in plain).toBe(false);
    expect('onTask' in plain).toBe(false);
    const onTask = () => undefined;
    const task = new RunContext(
      () => new AbortController().signal,
      scope,
      () => undefined,
      true,
      onTask,
    );
    expect(task.asTask).toBe(true);
    expect(task.onTask).toBe(onTask);
    const told = new RunContext(
      () => new AbortController().signal,
      scope,
      () => undefined,
      false,
      onTask,
    );
    expect('asTask' in told).toBe(false);
    expect(told.onTask).toBe(onTask);
  });

  it('gives its signal through a Proxy a tool wraps it in', () => {
    const controller = new AbortController();
    const context = new RunContext(
      () => controller.signal,
      scope,
      () => undefined,
    );
    const wrapped = new Proxy(context, {});
    expect(wrapped.signal).toBe(controller.signal);
  });
});

describe('LiveCall', () => {
  it('reads the record and the signal only when asked for', () => {
    const reads: string[] = [];
    const record = { id: 'x' } as InvocationRecord;
    const signal = new AbortController().signal;
    const call = new LiveCall({
      serverId: 's',
      scope,
      hold: () => () => undefined,
      invocation: () => {
        reads.push('invocation');
        return record;
      },
      signal: () => {
        reads.push('signal');
        return signal;
      },
    });
    expect(reads).toEqual([]);
    expect(call.invocation).toBe(record);
    expect(call.signal).toBe(signal);
    expect(reads).toEqual(['invocation', 'signal']);
    expect(call.serverId).toBe('s');
  });
});

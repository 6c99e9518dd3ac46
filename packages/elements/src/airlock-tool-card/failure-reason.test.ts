import { afterEach, describe, expect, it } from 'vitest';
import { createHost, formatMessage } from '@airlock/core';
import type { Host, HostConfig, InvocationError, NativeToolDefinition } from '@airlock/core';
import { FakeClock, ScriptedSurface } from '@airlock/core/testing';
import { knownReason } from './failure-reason.js';

// The reasons are read back from a real host's calls (cancelled, timed out, denied, no one to ask), so a host that
// words one differently fails here rather than showing English in a pt-BR page again.

const SCOPE = { userId: 'ana', workspaceId: 'w', conversationId: 'c' } as const;
const hosts: Host[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
});

function start(config: Partial<HostConfig> = {}) {
  let started: () => void = () => undefined;
  const running = new Promise<void>((resolve) => (started = resolve));
  const hang: NativeToolDefinition = {
    name: 'hang',
    inputSchema: { type: 'object' },
    run: () => {
      started();
      return new Promise(() => undefined);
    },
  };
  const host = createHost({ tools: [hang], ...config });
  hosts.push(host);
  return { host, running };
}

const say = (error: InvocationError | null | undefined, locale: 'en-US' | 'pt-BR') => {
  const known = knownReason(error!);
  return known === undefined ? undefined : formatMessage(locale, known.key, known.params);
};

describe('the host’s reasons, in the page’s language', () => {
  it('says a call cancelled while it ran was cancelled', async () => {
    const { host, running } = start({ surface: new ScriptedSurface('allow_once') });
    const controller = new AbortController();
    const call = host.invoke({ scope: SCOPE, caller: { kind: 'user' }, tool: 'hang', signal: controller.signal });
    await running;
    controller.abort();
    const { error } = await call;
    expect(say(error, 'pt-BR')).toBe('A chamada foi cancelada antes de terminar.');
    expect(say(error, 'en-US')).toBe('The call was cancelled before it finished.');
  });

  it('says a call timed out, with the seconds it waited', async () => {
    const clock = new FakeClock();
    const { host, running } = start({ clock, surface: new ScriptedSurface('allow_once') });
    const call = host.invoke({ scope: SCOPE, caller: { kind: 'user' }, tool: 'hang', timeoutMs: 30_000 });
    await running;
    clock.advance(30_000);
    const { error } = await call;
    expect(say(error, 'pt-BR')).toBe('O tempo da chamada esgotou: nenhum resultado ou progresso em 30 s.');
  });

  it('says the user denied the call, and that no one could be asked', async () => {
    const denied = start({ surface: new ScriptedSurface('deny_once') });
    const refused = await denied.host.invoke({ scope: SCOPE, caller: { kind: 'user' }, tool: 'hang' });
    expect(say(refused.error, 'pt-BR')).toBe('Você negou esta chamada; ela não foi executada.');
    const alone = start();
    const unasked = await alone.host.invoke({ scope: SCOPE, caller: { kind: 'user' }, tool: 'hang' });
    expect(say(unasked.error, 'pt-BR')).toBe('Não havia a quem pedir permissão, então a chamada não foi executada.');
  });

  it('knows nothing of a tool’s or a server’s own words', () => {
    expect(knownReason({ code: 'tool_error', message: 'disk full' })).toBeUndefined();
    expect(knownReason({ code: 'cancelled', message: 'cancelled by the user' })).toBeUndefined();
    expect(knownReason({ code: -32602, message: 'the call of x was cancelled' })).toBeUndefined();
  });
});

import { createHost, MemoryStore } from '@airlock/core';
import type { Host, PermissionRequest, Scope, SignInRequest } from '@airlock/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { KitQuestionBus } from './index.js';
import { KitRefusal, KitSurface, memoryQuestionBus } from './index.js';

// The kit's surface as an app with instances of its own builds on it (the console does): a late answer is told it came
// late, an answer to a question whose instance stopped is refused, and sign-in is offered only when asked for.

const ANA: Scope = { userId: 'ana', workspaceId: 'w1', conversationId: 'c1' };
const lookup = {
  name: 'lookup',
  inputSchema: { type: 'object' as const },
  run: () => Promise.resolve({ content: [{ type: 'text' as const, text: 'found' }] }),
};

const hosts: Host[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
});

/** A call of Ana's asked through `surface`, with its question once the surface opens it. */
function ask(surface: KitSurface): { result: ReturnType<Host['invoke']>; question: Promise<PermissionRequest> } {
  const host = createHost({ store: new MemoryStore(), surface, tools: [lookup] });
  hosts.push(host);
  const question = new Promise<PermissionRequest>((resolve) =>
    surface.listen((news) => (news.kind === 'opened' ? resolve(news.request) : undefined)),
  );
  return { result: host.invoke({ scope: ANA, caller: { kind: 'user' }, tool: 'lookup' }), question };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (error instanceof KitRefusal ? { status: error.status, code: error.code } : error),
  );

describe('the kit surface', () => {
  it('tells a second answer to a question answered here that it came too late, not that there is none', async () => {
    const surface = new KitSurface();
    const { result, question } = ask(surface);
    const id = (await question).invocationId;
    await surface.decide(ANA, id, 'allow_once');
    expect((await result).outcome).toBe('success');
    expect(await refusal(surface.decide(ANA, id, 'deny_once'))).toEqual({ status: 409, code: 'already_answered' });
    // Another user's answer to it is still "no such question".
    expect(await refusal(surface.decide({ ...ANA, userId: 'bo' }, id, 'deny_once'))).toEqual({
      status: 404,
      code: 'not_found',
    });
  });

  it('refuses with 410 an answer the bus says no call waits for (its instance stopped), naming that instance', async () => {
    const shared = memoryQuestionBus();
    const lost: KitQuestionBus = { ...shared, claim: () => Promise.resolve({ lost: 'instance-9', staleMs: 30_000 }) };
    const elsewhere = new KitSurface({ questions: shared });
    const here = new KitSurface({ questions: lost });
    const { question } = ask(elsewhere);
    const id = (await question).invocationId;
    const refused = await here.decide(ANA, id, 'allow_once').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(KitRefusal);
    expect(refused).toMatchObject({
      status: 410,
      code: 'instance_lost',
      message: expect.stringContaining('instance-9'),
    });
    await elsewhere.decide(ANA, id, 'deny_once');
  });

  it('offers sign-in only when asked to, and sends it to the hook given once the app can sign in', async () => {
    expect(new KitSurface().authorize).toBeUndefined();
    const surface = new KitSurface({ signIn: true });
    const request: SignInRequest = {
      user: ANA,
      serverId: 'remote',
      authorizationUrl: new URL('https://auth.example/authorize'),
    };
    const signal = new AbortController().signal;
    await expect(surface.authorize!(request, signal)).rejects.toThrow('not ready to sign in');
    surface.signInWith((asked) => Promise.resolve(`opened ${asked.serverId}`));
    expect(await surface.authorize!(request, signal)).toBe('opened remote');
  });
});

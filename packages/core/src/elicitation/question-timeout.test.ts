// Seed 001 R4/T7: a question's timeout. A server may set its own for one question (`_meta["airlock/timeoutMs"]`,
// bounded 10 s .. 1 h); a question nobody answers in time is answered cancel with `_meta["airlock/reason"]: "timeout"`.
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import { demoServer, nextEvent, SCOPE } from '../testing/demo-fixture.js';
import { FakeClock } from '../testing/fake-clock.js';
import type { ElicitationRequest } from './elicitation-request.js';
import { questionTimeout } from './question-timeout.js';

let hosts: Host[] = [];
afterEach(async () => {
  for (const h of hosts) await h.close();
  hosts = [];
});

/** A legacy-era host on the demo server whose surface allows calls and never answers a question. */
async function start(clock: FakeClock) {
  const asked: { request: ElicitationRequest; signal: AbortSignal }[] = [];
  let told: () => void = () => undefined;
  const surface = {
    elicitationModes: ['form'] as const,
    askPermission: () => Promise.resolve('allow_once' as const),
    elicit: (request: ElicitationRequest, signal: AbortSignal) => {
      asked.push({ request, signal });
      told();
      return new Promise<never>(() => undefined);
    },
  };
  const host = createHost({ servers: [demoServer('demo', { negotiation: 'legacy' }).config], surface, clock });
  hosts.push(host);
  await host.servers.settled();
  const question = () =>
    asked.length > 0 ? Promise.resolve(asked[0]!) : new Promise<(typeof asked)[0]>((r) => (told = () => r(asked[0]!)));
  return { host, question };
}

// The server's own wait (timeoutMs, real time) is an hour, so only the host's deadline on the fake clock can end it.
const askBriefly = (host: Host, hostTimeoutMs?: number) =>
  host.invoke({
    scope: SCOPE,
    caller: { kind: 'model' },
    tool: 'demo__ask_briefly',
    args: { timeoutMs: 3_600_000, ...(hostTimeoutMs === undefined ? {} : { hostTimeoutMs }) },
  });

describe("a question's timeout", () => {
  it("is the server's own when it sets one, and the server hears cancel with the reason timeout", async () => {
    const clock = new FakeClock();
    const { host, question } = await start(clock);
    const call = askBriefly(host, 20_000);
    const { request, signal } = await question();
    expect(request.deadline - request.createdAt).toBe(20_000);
    const closed = nextEvent(host, 'elicitation.closed');
    clock.advance(19_999);
    expect(signal.aborted).toBe(false);
    clock.advance(1);
    expect((await closed).end).toBe('timeout');
    expect((await call).text).toContain('action "cancel" (reason: timeout)');
  });

  it("is the host's five minutes when the server sets none", async () => {
    const clock = new FakeClock();
    const { host, question } = await start(clock);
    const call = askBriefly(host);
    const { request } = await question();
    expect(request.deadline - request.createdAt).toBe(5 * 60_000);
    clock.advance(5 * 60_000);
    expect((await call).text).toContain('(reason: timeout)');
  });

  it("clamps a server's value below ten seconds, and warns naming the server and the value", async () => {
    const clock = new FakeClock();
    const { host, question } = await start(clock);
    const warning = nextEvent(host, 'server.warning');
    const call = askBriefly(host, 1_000);
    const { request } = await question();
    expect(request.deadline - request.createdAt).toBe(10_000);
    expect((await warning).message).toBe(
      'server "demo" asked a question with _meta["airlock/timeoutMs"] = 1000, outside 10000..3600000 ms; 10000 ms applies',
    );
    clock.advance(10_000);
    await call;
  });
});

describe('questionTimeout', () => {
  it('takes a value within bounds as it is, and the host default when there is none', () => {
    expect(questionTimeout({ 'airlock/timeoutMs': 90_000 }, 300_000, 's')).toEqual({ ms: 90_000 });
    expect(questionTimeout(undefined, 300_000, 's')).toEqual({ ms: 300_000 });
    expect(questionTimeout({ other: 1 }, 300_000, 's')).toEqual({ ms: 300_000 });
  });

  it('clamps above an hour, and ignores what is not a number, each with a warning', () => {
    expect(questionTimeout({ 'airlock/timeoutMs': 7_200_000 }, 300_000, 's')).toMatchObject({
      ms: 3_600_000,
      warning: expect.stringMatching(/= 7200000, outside 10000\.\.3600000 ms; 3600000 ms applies$/),
    });
    expect(questionTimeout({ 'airlock/timeoutMs': '5m' }, 300_000, 's')).toEqual({
      ms: 300_000,
      warning: `server "s" asked a question with _meta["airlock/timeoutMs"] = "5m", not a number of milliseconds; the host's 300000 ms applies`,
    });
  });
});

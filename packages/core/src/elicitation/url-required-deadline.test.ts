import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { Surface } from '../host/surface.js';
import type { ElicitationAnswer, ElicitationRequest } from './elicitation-request.js';
import { demoServer, readCallLog, SCOPE } from '../testing/demo-fixture.js';
import { FakeClock } from '../testing/fake-clock.js';

let hosts: Host[] = [];
afterEach(async () => {
  for (const h of hosts) await h.close();
  hosts = [];
});

/** A surface that allows every call and hands each question to the test, to answer when it likes. */
class Browser implements Surface {
  readonly elicitationModes = ['form', 'url'] as const;
  #waiting: ((q: { request: ElicitationRequest; answer: (a: ElicitationAnswer) => void }) => void) | undefined;
  askPermission() {
    return Promise.resolve('allow_once' as const);
  }
  elicit(request: ElicitationRequest): Promise<ElicitationAnswer> {
    return new Promise((answer) => this.#waiting?.({ request, answer }));
  }
  next(): Promise<{ request: ElicitationRequest; answer: (a: ElicitationAnswer) => void }> {
    return new Promise((resolve) => (this.#waiting = resolve));
  }
}

/** Lets every promise reaction and I/O callback already due run, so the host reaches its next wait. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

const MINUTE = 60_000;

async function connectRequired(completeAfterMs: number) {
  const clock = new FakeClock();
  const surface = new Browser();
  const demo = demoServer('demo', { negotiation: 'legacy' });
  // The elicitation deadline (2 minutes here) is longer than the call's 60 s idle timeout.
  const host = createHost({ servers: [demo.config], surface, clock, limits: { elicitationTimeoutMs: 2 * MINUTE } });
  hosts.push(host);
  await host.servers.settled();
  const asked = surface.next();
  let ended = false;
  const call = host
    .invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'demo__connect_required', args: { completeAfterMs } })
    .finally(() => (ended = true));
  const question = await asked;
  expect(question.request.mode).toBe('url');
  question.answer({ action: 'accept' });
  await settle();
  return { clock, call, ended: () => ended, log: demo.log };
}

describe('a -32042 URL flow the user accepted', () => {
  it('is not killed by the idle timeout while the user is still in the browser', async () => {
    // The server says the flow is complete one real second after it refused the call: long after the test has moved
    // the host's clock 61 s on, past the idle timeout.
    const { clock, call, ended, log } = await connectRequired(1_000);
    clock.advance(MINUTE + 1_000);
    await settle();
    expect(ended()).toBe(false);
    const result = await call;
    expect(result.outcome).toBe('success');
    expect(result.text).toMatch(/Connected: the call went through after the URL flow/);
    expect(readCallLog(log).filter((l) => l.tool === 'connect_required')).toHaveLength(2);
  });

  it('ends when the elicitation deadline passes without completion, with the server refusal standing', async () => {
    const { clock, call, ended, log } = await connectRequired(600_000);
    clock.advance(2 * MINUTE - 1_000);
    await settle();
    expect(ended()).toBe(false);
    clock.advance(1_000);
    const result = await call;
    expect(result.outcome).toBe('protocol_error');
    expect(result.error?.code).toBe(-32042);
    expect(readCallLog(log).filter((l) => l.tool === 'connect_required')).toHaveLength(1);
  });
});

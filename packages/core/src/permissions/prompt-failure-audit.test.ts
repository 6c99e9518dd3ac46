import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { Surface } from '../host/surface.js';
import type { PermissionDecision } from './permission-request.js';
import { demoServer, nextEvent, readCallLog, SCOPE } from '../testing/demo-fixture.js';

let hosts: Host[] = [];
afterEach(async () => {
  for (const h of hosts) await h.close();
  hosts = [];
});

async function callWith(surface: Surface) {
  const demo = demoServer();
  const host = createHost({ servers: [demo.config], surface });
  hosts.push(host);
  await host.servers.settled();
  const decided = nextEvent(host, 'permission.decided');
  const result = await host.invoke({
    scope: SCOPE,
    caller: { kind: 'model' },
    tool: 'demo__echo',
    args: { text: 'x' },
  });
  const [audit] = await host.audit.query({ scope: SCOPE, type: 'permission.decision' });
  return { result, audit, event: await decided, log: demo.log };
}

describe('a prompt that fails is audited as what happened, not as the user saying no', () => {
  it('records a surface that throws as surface_error', async () => {
    const { result, audit, event, log } = await callWith({
      askPermission: () => Promise.reject(new Error('the terminal went away')),
    });
    expect(result.outcome).toBe('permission_denied');
    expect(result.text).toMatch(/the permission prompt failed, so demo__echo did not run: the terminal went away/);
    expect(audit?.data).toEqual({ decision: 'deny_once', origin: 'surface_error' });
    expect(event).toMatchObject({ decision: 'deny_once', origin: 'surface_error' });
    expect(readCallLog(log)).toEqual([]);
  });

  it('records an answer that is not a decision as invalid_answer', async () => {
    const { result, audit, event, log } = await callWith({
      askPermission: () => Promise.resolve('yes please' as PermissionDecision),
    });
    expect(result.outcome).toBe('permission_denied');
    expect(result.text).toMatch(/the surface answered "yes please", which is not a decision/);
    expect(audit?.data).toEqual({ decision: 'deny_once', origin: 'invalid_answer' });
    expect(event).toMatchObject({ decision: 'deny_once', origin: 'invalid_answer' });
    expect(readCallLog(log)).toEqual([]);
  });

  it('still records a real answer of the user as user_prompt', async () => {
    const { audit } = await callWith({ askPermission: () => Promise.resolve('deny_once') });
    expect(audit?.data).toEqual({ decision: 'deny_once', origin: 'user_prompt' });
  });
});

// The host's policy for tools without annotations (`permissions.unannotatedRisk`): the demo server's run_command has
// none, so by MCP's defaults it is high risk and destructive; a host may rate a trusted server's such tools lower.
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { HostConfig } from '../host/host-config.js';
import { demoServer, SCOPE } from '../testing/demo-fixture.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';

let hosts: Host[] = [];
afterEach(async () => {
  for (const h of hosts) await h.close();
  hosts = [];
});

async function askedAbout(options: { trusted: boolean; permissions?: HostConfig['permissions'] }) {
  const surface = new ScriptedSurface({ permissions: ['allow_always'] });
  const host = createHost({
    servers: [demoServer('demo', { trusted: options.trusted }).config],
    surface,
    ...(options.permissions === undefined ? {} : { permissions: options.permissions }),
  });
  hosts.push(host);
  await host.servers.settled();
  await host.permissions.ready();
  await host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'demo__run_command', args: { command: 'ls' } });
  await host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'demo__run_command', args: { command: 'ls' } });
  return { requests: surface.requests, stored: host.permissions.list({ scope: SCOPE }) };
}

describe("the host's risk for tools without annotations", () => {
  it('treats them as the worst case by default: high, destructive, allow always withheld', async () => {
    const { requests, stored } = await askedAbout({ trusted: true });
    expect(requests[0]).toMatchObject({
      risk: { tier: 'high', destructive: true },
      allowAlways: { offered: false },
      defaultAction: 'deny_once',
    });
    expect(requests).toHaveLength(2);
    expect(stored).toEqual([]);
  });

  it("rates a trusted server's such tools as the host says, and then keeps allow always", async () => {
    const { requests, stored } = await askedAbout({ trusted: true, permissions: { unannotatedRisk: 'medium' } });
    expect(requests[0]).toMatchObject({
      risk: { tier: 'medium', destructive: false, unverified: false },
      allowAlways: { offered: true },
      defaultAction: 'allow_once',
    });
    expect(requests).toHaveLength(1);
    expect(stored).toEqual([expect.objectContaining({ tool: 'run_command', effect: 'allow', riskTier: 'medium' })]);
  });

  it("keeps an untrusted server's such tools at the worst case whatever the host says", async () => {
    const { requests } = await askedAbout({ trusted: false, permissions: { unannotatedRisk: 'low' } });
    expect(requests[0]).toMatchObject({ risk: { tier: 'high', destructive: true }, allowAlways: { offered: false } });
  });

  it('refuses a value that is not a risk tier, naming the setting', () => {
    expect(() => createHost({ permissions: { unannotatedRisk: 'none' as 'low' } })).toThrow(
      expect.objectContaining({
        code: 'config_invalid',
        message: expect.stringMatching(/permissions\.unannotatedRisk must be "low", "medium" or "high", not "none"/),
      }),
    );
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { Surface } from '../host/surface.js';
import type { PermissionDecision, PermissionRequest } from './permission-request.js';
import { demoServer, nextEvent, readCallLog, SCOPE } from '../testing/demo-fixture.js';

let hosts: Host[] = [];
afterEach(async () => {
  for (const h of hosts) await h.close();
  hosts = [];
});

/** A surface that answers allow always whatever it was offered, after doing what it likes with the request. */
class AlwaysAllow implements Surface {
  readonly asked: PermissionRequest[] = [];
  constructor(private readonly tamper: (request: PermissionRequest) => void = () => undefined) {}
  askPermission(request: PermissionRequest): Promise<PermissionDecision> {
    this.asked.push(request);
    this.tamper(request);
    return Promise.resolve('allow_always');
  }
}

async function start(surface: Surface) {
  const demo = demoServer();
  const host = createHost({ servers: [demo.config], surface });
  hosts.push(host);
  await host.servers.settled();
  await host.permissions.ready();
  return { host, log: demo.log };
}

const del = (host: Host) =>
  host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'demo__delete_note', args: { id: 'n1' } });

describe('allow always answered by a surface for an effectively destructive tool', () => {
  it.each([
    ['a surface that ignores the offer', undefined],
    [
      'a surface that rewrote the request it was shown to offer allow always',
      (request: PermissionRequest) => {
        (request as { allowAlways: PermissionRequest['allowAlways'] }).allowAlways = { offered: true };
        (request as { risk: PermissionRequest['risk'] }).risk = { ...request.risk, destructive: false, tier: 'low' };
      },
    ],
  ])('runs the call once, stores nothing and warns, for %s', async (_case, tamper) => {
    const surface = new AlwaysAllow(tamper);
    const { host, log } = await start(surface);
    const decided = nextEvent(host, 'permission.decided');
    expect((await del(host)).outcome).toBe('success');
    expect(await decided).toMatchObject({ decision: 'allow_once', origin: 'user_prompt', allowAlwaysRefused: true });
    expect(host.permissions.list({ scope: SCOPE })).toEqual([]);
    const [audit] = await host.audit.query({ scope: SCOPE, type: 'permission.decision' });
    expect(audit?.data).toEqual({ decision: 'allow_once', origin: 'user_prompt', allowAlwaysRefused: true });

    expect((await del(host)).outcome).toBe('success');
    expect(surface.asked).toHaveLength(2);
    expect(readCallLog(log).filter((l) => l.tool === 'delete_note')).toHaveLength(2);
  });

  it("keeps the offer out of a surface's reach: writing offered = true into it changes nothing", async () => {
    const surface = new AlwaysAllow((request) => {
      try {
        (request.allowAlways as { offered: boolean }).offered = true;
      } catch {
        // The offer is frozen; a surface that ignores the failure still answers allow always.
      }
    });
    const { host } = await start(surface);
    const decided = nextEvent(host, 'permission.decided');
    expect((await del(host)).outcome).toBe('success');
    expect(await decided).toMatchObject({ decision: 'allow_once', allowAlwaysRefused: true });
    expect(surface.asked[0]?.allowAlways.offered).toBe(false);
    expect(host.permissions.list({ scope: SCOPE })).toEqual([]);
  });

  it('denies a native tool answered deny always once, audited deny_once, and stores nothing', async () => {
    const answers: Surface = { askPermission: () => Promise.resolve('deny_always') };
    const { host } = await start(answers);
    let ran = 0;
    host.tools.register({
      name: 'clock',
      inputSchema: { type: 'object', properties: {} },
      run: () => {
        ran += 1;
        return Promise.resolve({ content: [{ type: 'text', text: 'noon' }] });
      },
    });
    const result = await host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'clock' });
    expect(result.outcome).toBe('permission_denied');
    expect(result.text).toMatch(/the user denied clock/);
    expect(ran).toBe(0);
    expect(host.permissions.list({ scope: SCOPE })).toEqual([]);
    const audit = await host.audit.query({ scope: SCOPE, type: 'permission.decision' });
    expect(audit.map((event) => event.data)).toEqual([{ decision: 'deny_once', origin: 'user_prompt' }]);
  });

  it("keeps the tool's risk out of a surface's reach: changing it in place fails the prompt, and nothing runs", async () => {
    const surface = new AlwaysAllow((request) => {
      (request.risk as { destructive: boolean }).destructive = false;
    });
    const { host, log } = await start(surface);
    const result = await del(host);
    expect(result.outcome).toBe('permission_denied');
    expect(result.text).toMatch(/the permission prompt failed/);
    expect(host.permissions.list({ scope: SCOPE })).toEqual([]);
    expect(readCallLog(log)).toEqual([]);
  });

  it('stores allow always for a tool that is not destructive, and tells no one it was refused', async () => {
    const demo = demoServer();
    const host = createHost({ servers: [demo.config], surface: new AlwaysAllow() });
    hosts.push(host);
    await host.servers.settled();
    await host.permissions.ready();
    const decided = nextEvent(host, 'permission.decided');
    await host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'demo__echo', args: { text: 'x' } });
    const event = await decided;
    expect(event.decision).toBe('allow_always');
    expect(event).not.toHaveProperty('allowAlwaysRefused');
    expect(host.permissions.list({ scope: SCOPE })).toHaveLength(1);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { HostEventMap } from '../events/host-events.js';
import type { Scope } from '../scope.js';
import type { Surface } from '../host/surface.js';
import type { ElicitationAnswer, ElicitationRequest } from '../elicitation/elicitation-request.js';
import type { PermissionDecision } from '../permissions/permission-request.js';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEMO_BIN, demoServer, nextEvent, readCallLog, scriptServer } from '../testing/demo-fixture.js';
import { FakeClock } from '../testing/fake-clock.js';
import { scratchDir } from '../testing/scratch-dir.js';
import type { ServerIsolation } from './server-config.js';

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const ana: Scope = { userId: 'ana', workspaceId: 'team', conversationId: 'c-ana' };
const ben: Scope = { userId: 'ben', workspaceId: 'team', conversationId: 'c-ben' };
const cy: Scope = { userId: 'cy', workspaceId: 'other', conversationId: 'c-cy' };

/** Allows every call; holds every question until the test answers it, so questions of two users are open at once. */
class HoldingSurface implements Surface {
  readonly elicitationModes = ['form'] as const;
  readonly asked: { request: ElicitationRequest; answer: (a: ElicitationAnswer) => void }[] = [];
  #waiters: (() => void)[] = [];
  askPermission(): Promise<PermissionDecision> {
    return Promise.resolve('allow_once');
  }
  elicit(request: ElicitationRequest): Promise<ElicitationAnswer> {
    return new Promise((answer) => {
      this.asked.push({ request, answer });
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }
  /** Resolves once `count` questions are open. */
  async questions(count: number): Promise<void> {
    while (this.asked.length < count) await new Promise<void>((wake) => this.#waiters.push(wake));
  }
}

function start(isolation: ServerIsolation | undefined, extra: Record<string, number> = {}) {
  const demo = demoServer();
  const surface = new HoldingSurface();
  const clock = new FakeClock();
  host = createHost({
    servers: [{ ...demo.config, ...(isolation === undefined ? {} : { isolation }) }],
    surface,
    clock,
    limits: { connectTimeoutMs: 10_000, ...extra },
  });
  return { host, surface, clock, log: demo.log };
}

const askUser = (h: Host, scope: Scope) =>
  h.invoke({ scope, caller: { kind: 'model' }, tool: 'demo__ask_user', args: {} });
const echo = (h: Host, scope: Scope, text: string) =>
  h.invoke({ scope, caller: { kind: 'model' }, tool: 'demo__echo', args: { text } });

describe('a connection per user', () => {
  it("ties each server question to its own user: two users' open questions on one server are both answered", async () => {
    const { host, surface } = start('user');
    await host.servers.settled();
    const first = askUser(host, ana);
    await surface.questions(1);
    // Over stdio in the 2025 era a question carries no link to its call: on one shared connection the second user's
    // question could not be told apart from the first's. With a connection each, it can only be ben's.
    const second = askUser(host, ben);
    await surface.questions(2);
    const byUser = new Map(surface.asked.map((q) => [q.request.scope.userId, q]));
    expect([...byUser.keys()].sort()).toEqual(['ana', 'ben']);
    byUser.get('ben')!.answer({ action: 'accept', content: { name: 'Ben' } });
    byUser.get('ana')!.answer({ action: 'accept', content: { name: 'Ana' } });
    const [a, b] = await Promise.all([first, second]);
    expect(a.outcome).toBe('success');
    expect(a.text).toContain('"name":"Ana"');
    expect(b.outcome).toBe('success');
    expect(b.text).toContain('"name":"Ben"');
  });

  it('refuses the second question on one shared stdio connection, which cannot tell whose it is', async () => {
    const { host, surface } = start('shared');
    await host.servers.settled();
    const first = askUser(host, ana);
    await surface.questions(1);
    const second = await askUser(host, ben);
    expect(second.outcome).toBe('tool_error');
    expect(second.text).toMatch(/several users or conversations/);
    surface.asked[0]!.answer({ action: 'decline' });
    expect((await first).outcome).toBe('success');
  });

  it("opens a user's connection on their first call, and shows each user their own state", async () => {
    const { host } = start('user');
    await host.servers.settled();
    expect(host.servers.list()[0]).toMatchObject({ id: 'demo', isolation: 'user', state: 'ready' });
    expect(host.servers.list({ scope: ana })[0]).toMatchObject({ tenantConnection: false, state: 'ready' });
    const opened = nextEvent(host, 'server.state', (e) => e.tenant === 'user:ana' && e.state === 'ready');
    expect((await echo(host, ana, 'hi')).outcome).toBe('success');
    await opened;
    expect(host.servers.list({ scope: ana })[0]).toMatchObject({ tenantConnection: true, state: 'ready' });
    expect(host.servers.list({ scope: ben })[0]).toMatchObject({ tenantConnection: false });
  });

  it('closes a connection left unused for the idle time, and opens it again on the next call', async () => {
    const { host, clock } = start('user', { tenantIdleMs: 60_000 });
    await host.servers.settled();
    expect((await echo(host, ana, 'one')).outcome).toBe('success');
    const closed = nextEvent(host, 'server.state', (e) => e.tenant === 'user:ana' && e.state === 'closed');
    clock.advance(59_999);
    expect(host.servers.list({ scope: ana })[0]?.tenantConnection).toBe(true);
    clock.advance(1);
    await closed;
    expect(host.servers.list({ scope: ana })[0]?.tenantConnection).toBe(false);
    expect((await echo(host, ana, 'two')).outcome).toBe('success');
  });

  it('keeps at most maxTenantConnections open, closing the least recently used idle one', async () => {
    const { host } = start('user', { maxTenantConnections: 2 });
    await host.servers.settled();
    const events: HostEventMap['server.state'][] = [];
    host.on('server.state', (e) => events.push(e));
    await echo(host, ana, 'a');
    await echo(host, ben, 'b');
    await echo(host, ana, 'a again'); // ana is now the most recently used
    const benClosed = nextEvent(host, 'server.state', (e) => e.tenant === 'user:ben' && e.state === 'closed');
    expect((await echo(host, cy, 'c')).outcome).toBe('success');
    await benClosed;
    expect(events.some((e) => e.tenant === 'user:ana' && e.state === 'closed')).toBe(false);
    expect(host.servers.list({ scope: ana })[0]?.tenantConnection).toBe(true);
    expect(host.servers.list({ scope: ben })[0]?.tenantConnection).toBe(false);
  });

  it('refuses a call when every connection is busy with other users, naming the server', async () => {
    const { host, surface } = start('user', { maxTenantConnections: 1 });
    await host.servers.settled();
    const busy = askUser(host, ana);
    await surface.questions(1);
    const refused = await echo(host, ben, 'no room');
    expect(refused.outcome).toBe('transport_error');
    expect(refused.text).toMatch(/server "demo" has all its 1 connections busy/);
    surface.asked[0]!.answer({ action: 'decline' });
    expect((await busy).outcome).toBe('success');
  });

  it('shares one connection per workspace with workspace isolation', async () => {
    const { host, log } = start('workspace');
    await host.servers.settled();
    await echo(host, ana, 'a');
    await echo(host, ben, 'b');
    await echo(host, cy, 'c');
    expect(host.servers.list({ scope: ana })[0]?.tenantConnection).toBe(true);
    expect(host.servers.list({ scope: cy })[0]?.tenantConnection).toBe(true);
    // Every call reached the server, on two connections (team, other) beside the catalog's.
    expect(readCallLog(log).filter((l) => l.event === 'call')).toHaveLength(3);
  });

  it("opens a user's connection afresh on the next call when its start failed", async () => {
    const starts = join(scratchDir('airlock-flaky-'), 'starts');
    // The demo server, except the second time it is started (ana's first connection, after the catalog's): it exits.
    const script = `const fs = require('node:fs');
      const n = (fs.existsSync(${JSON.stringify(starts)}) ? Number(fs.readFileSync(${JSON.stringify(starts)}, 'utf8')) : 0) + 1;
      fs.writeFileSync(${JSON.stringify(starts)}, String(n));
      if (n === 2) process.exit(3);
      import(${JSON.stringify(pathToFileURL(DEMO_BIN).href)});`;
    host = createHost({
      servers: [{ ...scriptServer('demo', script), isolation: 'user' }],
      surface: new HoldingSurface(),
      clock: new FakeClock(),
      limits: { connectTimeoutMs: 10_000 },
    });
    await host.servers.settled();
    const first = await echo(host, ana, 'one');
    expect(first.outcome).toBe('transport_error');
    expect(host.servers.list({ scope: ana })[0]).toMatchObject({ tenantConnection: true, state: 'failed' });
    expect((await echo(host, ana, 'two')).outcome).toBe('success');
  });

  it('runs stdio servers shared by default', async () => {
    const { host } = start(undefined);
    await host.servers.settled();
    expect(host.servers.list({ scope: ana })[0]).toMatchObject({ isolation: 'shared' });
    expect(host.servers.list({ scope: ana })[0]?.tenantConnection).toBeUndefined();
  });
});

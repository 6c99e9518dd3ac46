import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { Scope } from '../scope.js';
import type { HostStore } from '../store/host-store.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import { demoServer } from '../testing/demo-fixture.js';
import { scratchDir } from '../testing/scratch-dir.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';

const ANA = { userId: 'ana', workspaceId: 'w1', conversationId: 'c1' } as const;
const BEN = { userId: 'ben', workspaceId: 'w1', conversationId: 'c2' } as const;
const ANA_ELSEWHERE = { userId: 'ana', workspaceId: 'w2', conversationId: 'c3' } as const;

const demo = demoServer('demo');
let hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  hosts = [];
});

async function open(store: HostStore): Promise<Host> {
  const host = createHost({ servers: [demo.config], store, surface: new ScriptedSurface('allow_once') });
  hosts.push(host);
  await host.servers.settled();
  return host;
}

const modelSees = (host: Host, scope: Scope) => host.tools.list({ audience: 'model', scope }).map((t) => t.name);

/** Each store twice over one place, as a host restarted on the same data would open it. */
const stores: [string, () => () => HostStore][] = [
  [
    'SQLite (a real file)',
    () => {
      const file = join(scratchDir('airlock-switches-'), 'airlock.db');
      return () => new SqliteStore({ database: new Database(file) });
    },
  ],
];

describe('tools hidden from the model (MemoryStore)', () => {
  it('leaves a tool hidden for one user out of their model list only, and refuses the model calling it', async () => {
    const host = await open(new MemoryStore());
    expect(modelSees(host, ANA)).toContain('demo__echo');
    expect(await host.tools.setHidden({ scope: ANA, tool: 'demo__echo', level: 'user', hidden: true })).toBe(true);
    expect(modelSees(host, ANA)).not.toContain('demo__echo');
    expect(modelSees(host, BEN)).toContain('demo__echo');
    expect(modelSees(host, ANA_ELSEWHERE)).toContain('demo__echo');
    // The user still sees it, and may still call it from a form.
    expect(host.tools.list({ audience: 'user', scope: ANA }).map((t) => t.name)).toContain('demo__echo');
    const byModel = await host.invoke({
      scope: ANA,
      caller: { kind: 'model' },
      tool: 'demo__echo',
      args: { text: 'hi' },
    });
    expect(byModel.outcome).toBe('tool_not_found');
    expect(byModel.error?.message).toBe('tool demo__echo is not listed to the model: it was switched off for you');
    const byUser = await host.invoke({
      scope: ANA,
      caller: { kind: 'user' },
      tool: 'demo__echo',
      args: { text: 'hi' },
    });
    expect(byUser.outcome).toBe('success');
    expect(host.tools.switches({ scope: ANA })).toMatchObject([{ serverId: 'demo', tool: 'echo', level: 'user' }]);
    expect(host.tools.switches({ scope: BEN })).toEqual([]);
    // Shown again: listed and callable by the model.
    expect(await host.tools.setHidden({ scope: ANA, tool: 'demo__echo', level: 'user', hidden: false })).toBe(true);
    expect(await host.tools.setHidden({ scope: ANA, tool: 'demo__echo', level: 'user', hidden: false })).toBe(false);
    expect(modelSees(host, ANA)).toContain('demo__echo');
    const events = await host.audit.query({ scope: ANA, type: 'tool.switched' });
    expect(events.map((e) => [e.userId, e.workspaceId, e.serverId, e.tool, e.data])).toEqual([
      ['ana', 'w1', 'demo', 'demo__echo', { hidden: true, level: 'user' }],
      ['ana', 'w1', 'demo', 'demo__echo', { hidden: false, level: 'user' }],
    ]);
  });

  it('hides a tool for everyone in a workspace, and refuses a tool it does not know or a bad level', async () => {
    const host = await open(new MemoryStore());
    await host.tools.setHidden({ scope: BEN, tool: 'demo__echo', level: 'workspace', hidden: true });
    expect(modelSees(host, ANA)).not.toContain('demo__echo');
    expect(modelSees(host, ANA_ELSEWHERE)).toContain('demo__echo');
    expect(host.tools.switches({ scope: ANA })).toMatchObject([{ tool: 'echo', level: 'workspace', updatedBy: 'ben' }]);
    await expect(host.tools.setHidden({ scope: ANA, tool: 'demo__nope', level: 'user', hidden: true })).rejects.toThrow(
      'unknown tool demo__nope',
    );
    await expect(
      host.tools.setHidden({ scope: ANA, tool: 'demo__echo', level: 'team' as 'user', hidden: true }),
    ).rejects.toThrow('a tool is hidden for "user" or "workspace", not team');
  });

  it('switches a server off (its tools gone, a call refused naming it) and on again, audited', async () => {
    const host = await open(new MemoryStore());
    await host.servers.setEnabled('demo', { enabled: false, by: 'root' });
    expect(host.servers.list()[0]).toMatchObject({ id: 'demo', state: 'closed', disabled: true });
    expect(modelSees(host, ANA)).toEqual([]);
    const refused = await host.invoke({ scope: ANA, caller: { kind: 'model' }, tool: 'demo__echo', args: {} });
    expect(refused.error?.message).toBe(
      'tool demo__echo is not available: server "demo" is switched off by an administrator',
    );
    await host.servers.setEnabled('demo', { enabled: true, by: 'root' });
    expect(host.servers.list()[0]).toMatchObject({ state: 'ready', disabled: false });
    expect(modelSees(host, ANA)).toContain('demo__echo');
    const events = await host.audit.query({ scope: { userId: 'root', workspaceId: '' }, type: 'server.switched' });
    expect(events.map((e) => [e.userId, e.serverId, e.data])).toEqual([
      ['root', 'demo', { enabled: false }],
      ['root', 'demo', { enabled: true }],
    ]);
    await expect(host.servers.setEnabled('nope', { enabled: false, by: 'root' })).rejects.toThrow(
      'no server "nope" is configured',
    );
  }, 20_000);
});

describe.each(stores)('switches kept in %s', (_name, place) => {
  it('still hides the tool and keeps the server off after the host restarts', async () => {
    const reopen = place();
    const first = await open(reopen());
    await first.tools.setHidden({ scope: ANA, tool: 'demo__echo', level: 'user', hidden: true });
    await first.servers.setEnabled('demo', { enabled: false, by: 'root' });
    await first.close();
    hosts = [];
    const second = await open(reopen());
    // The server switched off never started: its tools are not listed, its state is closed.
    expect(second.servers.list()[0]).toMatchObject({ state: 'closed', disabled: true });
    expect(modelSees(second, ANA)).toEqual([]);
    await second.servers.setEnabled('demo', { enabled: true, by: 'root' });
    expect(modelSees(second, ANA)).not.toContain('demo__echo');
    expect(modelSees(second, BEN)).toContain('demo__echo');
    expect(second.tools.switches({ scope: ANA })).toMatchObject([{ serverId: 'demo', tool: 'echo', level: 'user' }]);
  }, 30_000);
});

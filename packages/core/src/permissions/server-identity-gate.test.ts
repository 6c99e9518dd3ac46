import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { ServerConfig } from '../servers/server-config.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import { demoServer, readCallLog, SCOPE } from '../testing/demo-fixture.js';
import { scratchDir } from '../testing/scratch-dir.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';

let hosts: Host[] = [];
afterEach(async () => {
  for (const h of hosts) await h.close();
  hosts = [];
});

async function start(servers: ServerConfig[], surface: ScriptedSurface, file?: string): Promise<Host> {
  const host = createHost({
    servers,
    surface,
    ...(file === undefined ? {} : { store: new SqliteStore({ database: new Database(file) }) }),
  });
  hosts.push(host);
  await host.servers.settled();
  await host.permissions.ready();
  return host;
}

const echo = (host: Host, tool: string) =>
  host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool, args: { text: 'hi' } });

describe('a stored decision is bound to everything that makes a server what it is', () => {
  it('does not let allow always on one server run the same command with another env without asking', async () => {
    // Same command and arguments; only the environment differs (each demo server logs to its own file).
    const a = demoServer('a');
    const b = demoServer('b');
    expect([
      a.config.transport === 'stdio' && a.config.args,
      a.config.transport === 'stdio' && a.config.env,
    ]).not.toEqual([b.config.transport === 'stdio' && b.config.args, b.config.transport === 'stdio' && b.config.env]);
    const surface = new ScriptedSurface({ permissions: ['allow_always', 'deny_once'] });
    const host = await start([a.config, b.config], surface);
    expect((await echo(host, 'a__echo')).outcome).toBe('success');
    expect((await echo(host, 'a__echo')).outcome).toBe('success');
    expect(surface.requests.map((r) => r.tool.name)).toEqual(['a__echo']);

    const other = await echo(host, 'b__echo');
    expect(surface.requests.map((r) => r.tool.name)).toEqual(['a__echo', 'b__echo']);
    expect(other.outcome).toBe('permission_denied');
    expect(readCallLog(b.log)).toEqual([]);
    expect(host.permissions.explain({ scope: SCOPE, tool: 'b__echo' }).source).not.toBe('stored_decision');
  });

  it.each([
    [
      'its env',
      (c: ServerConfig): ServerConfig => ({ ...c, env: { ...(c as { env: object }).env, EXTRA: '1' } }) as ServerConfig,
    ],
    ['its trust', (c: ServerConfig): ServerConfig => ({ ...c, trusted: !c.trusted })],
  ])('asks again when the same server id comes back with another of %s', async (_what, change) => {
    const file = join(scratchDir('airlock-identity-'), 'airlock.db');
    const demo = demoServer('demo');
    const first = new ScriptedSurface('allow_always');
    const host = await start([demo.config], first, file);
    await echo(host, 'demo__echo');
    await echo(host, 'demo__echo');
    expect(first.requests).toHaveLength(1);
    await host.close();
    hosts = [];

    const same = new ScriptedSurface('allow_once');
    const unchanged = await start([demo.config], same, file);
    await echo(unchanged, 'demo__echo');
    expect(same.requests).toHaveLength(0);
    await unchanged.close();
    hosts = [];

    const again = new ScriptedSurface('allow_once');
    const changed = await start([change(demo.config)], again, file);
    await echo(changed, 'demo__echo');
    expect(again.requests.map((r) => [r.tool.name, r.reason])).toEqual([['demo__echo', 'server_changed']]);
  });
});

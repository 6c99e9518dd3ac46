import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createHost } from '@airlock/core';
import type { Host, ServerConfig } from '@airlock/core';
import { SqliteStore } from '@airlock/core/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { startGatewayHttp } from './gateway-http.js';
import type { GatewayHttp } from './gateway-http.js';
import { GatewaySurface } from './gateway-surface.js';

/** A stdio server that starts and never answers `initialize`: its first connection stays unsettled. */
const SILENT: ServerConfig = {
  id: 'silent',
  transport: 'stdio',
  command: process.execPath,
  args: ['-e', 'setInterval(() => {}, 60_000)'],
  env: {},
  trusted: false,
  disabled: false,
};

const opened: { dir: string; host: Host; gateway: GatewayHttp }[] = [];
afterEach(async () => {
  for (const { dir, host, gateway } of opened.splice(0)) {
    await gateway.close();
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A gateway over a host on a fresh SQLite file; `store` is that file's store, for closing it underneath. */
async function gatewayOn(servers: ServerConfig[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-gateway-health-'));
  const store = new SqliteStore({ database: new Database(join(dir, 'airlock.db')) });
  const surface = new GatewaySurface();
  const host = createHost({ store, surface, servers });
  const gateway = await startGatewayHttp({ host, surface, users: [], port: 0 });
  opened.push({ dir, host, gateway });
  const probe = async (path: string) => {
    const response = await fetch(new URL(path, gateway.url));
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return { host, store, probe };
}

describe('the HTTP gateway health endpoints', () => {
  it('answers /healthz and /readyz with 200 without a token once its servers have settled', async () => {
    const { host, probe } = await gatewayOn();
    await host.servers.settled();
    expect(await probe('/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await probe('/readyz')).toEqual({ status: 200, body: { status: 'ready' } });
  });

  it('answers /readyz with 503 servers_connecting while a server has not answered initialize', async () => {
    const { probe } = await gatewayOn([SILENT]);
    expect(await probe('/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await probe('/readyz')).toEqual({
      status: 503,
      body: { status: 'not_ready', reason: 'servers_connecting', message: 'the servers are still connecting' },
    });
  });

  it('answers /readyz with 503 store_unreachable when its SQLite file is closed underneath it', async () => {
    const { host, store, probe } = await gatewayOn();
    await host.servers.settled();
    expect((await probe('/readyz')).status).toBe(200);
    await store.close();
    expect(await probe('/readyz')).toEqual({
      status: 503,
      body: { status: 'not_ready', reason: 'store_unreachable', message: 'the history store failed a read' },
    });
    // The process still serves: liveness is not readiness.
    expect((await probe('/healthz')).status).toBe(200);
  });
});

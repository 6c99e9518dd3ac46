import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoServers, startConsole } from '@airlock/console';
import type { RunningConsole } from '@airlock/console';
import { ConsoleClient } from './testing/console-client.js';
import { memoryConsoleConfig } from './testing/memory-console-config.js';

// A server that is down is connected afresh from the page: only while it is down (a tenant cannot interrupt a working
// server for the others), and the page is told what the server says of itself once it is up.

let running: RunningConsole;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'airlock-console-restart-'));
  running = await startConsole(
    memoryConsoleConfig('restart test', {
      servers: [
        ...demoServers(),
        // A server whose process exits at once: failed from its first start.
        {
          id: 'broken',
          transport: 'stdio',
          command: process.execPath,
          args: ['-e', 'process.exit(3)'],
          env: {},
          trusted: false,
          disabled: false,
        },
      ],
      limits: { connectTimeoutMs: 10_000 },
    }),
  );
  await running.host.servers.settled();
});

afterAll(async () => {
  await running.close();
  await rm(dir, { recursive: true, force: true });
});

describe('reconnecting a server from the page', () => {
  it('reconnects a server that is down, and refuses one that works', async () => {
    const ana = await ConsoleClient.signIn(running.url, { userId: 'ana' });
    const again = await ana.post('/api/servers/broken/restart');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: 'broken', state: 'failed' });
    const working = await ana.post('/api/servers/demo/restart');
    expect(working.status).toBe(409);
    expect(working.body).toMatchObject({ error: { code: 'server_working' } });
    expect((await ana.post('/api/servers/nope/restart')).status).toBe(404);
  });

  it('tells the page what a server says of itself', async () => {
    const ana = await ConsoleClient.signIn(running.url, { userId: 'ana' });
    const servers = (await ana.get('/api/servers')).body as { id: string; about?: { capabilities: string[] } }[];
    const demo = servers.find((s) => s.id === 'demo');
    expect(demo?.about?.capabilities).toEqual(expect.arrayContaining(['resources', 'tools']));
    expect(servers.find((s) => s.id === 'broken')?.about).toBeUndefined();
  });
});

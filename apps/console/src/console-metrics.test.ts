// /metrics over real HTTP: a console with `console.metrics.prometheus` serves what its host recorded to a loopback
// scraper, to one elsewhere only with the configured token, and a console without it serves nothing there.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleLogger, startConsole } from '@airlock/console';
import type { ConsoleConfig, RunningConsole } from '@airlock/console';
import { demoServers } from './console-config.js';
import { ConsoleClient } from './testing/console-client.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const logger = createConsoleLogger({ level: 'silent' });
let running: RunningConsole | undefined;
let dir: string | undefined;
afterEach(async () => {
  await running?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  running = dir = undefined;
});

/** This machine's first address another machine could reach it by: the scraper "elsewhere". */
function lanAddress(): string {
  const found = Object.values(networkInterfaces())
    .flat()
    .find((i) => i !== undefined && !i.internal && i.family === 'IPv4');
  if (found === undefined) throw new Error('this test needs a non-loopback IPv4 interface');
  return found.address;
}

async function open(metrics: ConsoleConfig['metrics']): Promise<{ console: RunningConsole; port: number }> {
  dir = await mkdtemp(join(tmpdir(), 'airlock-console-metrics-'));
  const config: ConsoleConfig = {
    source: 'console metrics test',
    servers: demoServers(),
    rules: [{ effect: 'allow', layer: 'host', server: 'demo', tool: 'echo', source: 'console metrics test' }],
    limits: {},
    storePath: join(dir, 'console.db'),
    host: '0.0.0.0',
    port: 0,
    auth: 'token',
    users: [{ id: 'ana', tokenSha256: sha256('ana-token') }],
    retention: {},
    ...(metrics === undefined ? {} : { metrics }),
  };
  running = await startConsole(config, { logger });
  await running.host.servers.settled();
  return { console: running, port: Number(new URL(running.url).port) };
}

async function scrape(url: string, token?: string) {
  const response = await fetch(url, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, text: await response.text() };
}

describe("the console's /metrics", () => {
  it('serves the Prometheus text to a loopback scraper, elsewhere only with the token', async () => {
    const { port } = await open({ prometheus: true, tokenSha256: sha256('scrape-token') });
    const ana = await ConsoleClient.signIn(`http://127.0.0.1:${port}`, { token: 'ana-token' });
    const tab = await ana.openEvents();
    await tab.waitForEnd(await ana.startCall('demo__echo', { text: 'counted' }));
    await tab.close();

    const local = await scrape(`http://127.0.0.1:${port}/metrics`);
    expect(local.status).toBe(200);
    expect(local.text).toMatch(/^airlock_calls_total\{[^}]*airlock_outcome="success"[^}]*\} 1$/m);
    expect(local.text).toMatch(/^mcp_client_operation_duration_count\{[^}]*mcp_method_name="tools\/call"/m);

    const elsewhere = `http://${lanAddress()}:${port}/metrics`;
    expect((await scrape(elsewhere)).status).toBe(404);
    expect((await scrape(elsewhere, 'wrong-token')).status).toBe(404);
    const scraped = await scrape(elsewhere, 'scrape-token');
    expect(scraped.status).toBe(200);
    expect(scraped.text).toContain('airlock_calls_total');
  });

  it('serves nothing at /metrics unless the config turns it on', async () => {
    const { port } = await open(undefined);
    expect((await scrape(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
  });
});

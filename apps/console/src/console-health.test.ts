// The console's probes over real HTTP: /healthz and /readyz answer without a session on a console over a SQLite
// file, and /readyz answers 503 naming the store when the PostgreSQL server under a console is stopped.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleLogger, startConsole } from '@airlock/console';
import type { ConsoleConfig, RunningConsole } from '@airlock/console';
import { startPostgres } from '../../../test/support/postgres/postgres-server.js';
import type { PostgresServer } from '../../../test/support/postgres/postgres-server.js';
import { demoServers } from './console-config.js';
import { postgresConsoleConfig } from './testing/postgres-console-config.js';

const logger = createConsoleLogger({ level: 'silent' });
let running: RunningConsole | undefined;
let postgres: PostgresServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await running?.close();
  await postgres?.stop();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  running = postgres = dir = undefined;
});

/** GET a path with no cookie and no token, as an orchestrator's probe does. */
async function probe(console: RunningConsole, path: string) {
  const response = await fetch(new URL(path, console.url));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("the console's health endpoints", () => {
  it('answers /healthz and /readyz with 200 without a session once started, while /api still asks for one', async () => {
    dir = await mkdtemp(join(tmpdir(), 'airlock-console-health-'));
    const config: ConsoleConfig = {
      source: 'console health test',
      servers: demoServers(),
      rules: [],
      limits: {},
      storePath: join(dir, 'console.db'),
      host: '127.0.0.1',
      port: 0,
      auth: 'local',
      users: [],
      retention: {},
    };
    running = await startConsole(config, { logger });
    await running.host.servers.settled();
    expect(await probe(running, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await probe(running, '/readyz')).toEqual({ status: 200, body: { status: 'ready' } });
    expect((await fetch(new URL('/api/invocations', running.url))).status).toBe(401);
  });

  it('answers /readyz with 503 store_unreachable once the PostgreSQL server under it has stopped', async () => {
    postgres = await startPostgres();
    const url = await postgres.createDatabase();
    running = await startConsole(postgresConsoleConfig(url, 'console health test'), { logger });
    await running.host.servers.settled();
    expect((await probe(running, '/readyz')).status).toBe(200);

    await postgres.stop();
    expect(await probe(running, '/readyz')).toEqual({
      status: 503,
      body: { status: 'not_ready', reason: 'store_unreachable', message: 'the history store failed a read' },
    });
    expect((await probe(running, '/healthz')).status).toBe(200);
  }, 60_000);
});

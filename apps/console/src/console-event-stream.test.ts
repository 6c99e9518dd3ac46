// The console's tab stream (GET /api/events) on the kit's event stream, over real HTTP on a console over a SQLite
// file: a snapshot the store cannot give is told as one `failure` event, and the stream ends.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleLogger, startConsole } from '@airlock/console';
import type { RunningConsole } from '@airlock/console';
import { demoServers } from './console-config.js';
import { ConsoleClient } from './testing/console-client.js';

let running: RunningConsole | undefined;
let dir: string | undefined;
afterEach(async () => {
  await running?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  running = dir = undefined;
});

/** Every event of a stream read to its end: name and parsed data. */
function eventsOf(text: string): { event: string; data: unknown }[] {
  return text
    .split('\n\n')
    .map((block) => ({ event: /^event: (.*)$/m.exec(block)?.[1], data: /^data: (.*)$/m.exec(block)?.[1] }))
    .filter((e): e is { event: string; data: string } => e.event !== undefined && e.data !== undefined)
    .map((e) => ({ event: e.event, data: JSON.parse(e.data) as unknown }));
}

describe("the console's tab stream", () => {
  it('sends one failure instead of state when the snapshot fails, then ends', async () => {
    dir = await mkdtemp(join(tmpdir(), 'airlock-console-stream-'));
    const storePath = join(dir, 'console.db');
    running = await startConsole(
      {
        source: 'console stream test',
        servers: demoServers(),
        rules: [],
        limits: {},
        storePath,
        host: '127.0.0.1',
        port: 0,
        auth: 'local',
        users: [],
        retention: {},
      },
      { logger: createConsoleLogger({ level: 'silent' }) },
    );
    await running.host.servers.settled();
    const ana = await ConsoleClient.signIn(running.url, { userId: 'ana' });
    // The conversations the snapshot lists are gone from under the console (a damaged or half-restored file).
    const db = new Database(storePath);
    db.exec('ALTER TABLE conversations RENAME TO conversations_gone');
    db.close();

    const response = await fetch(new URL('/api/events', running.url), { headers: { cookie: ana.cookie } });
    expect(response.status).toBe(200);
    const events = eventsOf(await response.text());
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ event: 'failure', data: { code: expect.any(String) } });
    expect(JSON.stringify(events[0]!.data)).not.toContain('conversations_gone');
  });
});

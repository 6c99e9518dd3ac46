// A question left open by an instance that died, answered before any console has noticed the death (a real
// PostgreSQL server, started by test/support/postgres): the answer is refused with 410 naming why, since no one
// holds the call it would go to, and the question stays for the heartbeat to close.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionRequest } from '@airlock/core';
import { InstanceHeartbeat, PostgresStore, STALE_MS, instanceOption } from '@airlock/core/postgres';
import { FakeClock, createWrite, invocation } from '@airlock/core/testing';
import { startConsole } from '@airlock/console';
import { startPostgres } from '../../../test/support/postgres/postgres-server.js';
import type { PostgresServer } from '../../../test/support/postgres/postgres-server.js';
import { ageHeartbeat } from '../../../test/support/postgres/heartbeats.js';
import { PostgresQuestions } from './postgres-questions.js';
import { postgresConsoleConfig } from './testing/postgres-console-config.js';
import { ConsoleClient } from './testing/console-client.js';

let server: PostgresServer;
const closing: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  for (const c of closing.reverse()) await c.close();
  await server?.stop();
});

describe('a permission question whose instance has gone stale', () => {
  it('is refused with 410 instance_lost, naming the instance, and is not taken as answered', async () => {
    const url = await server.createDatabase();
    const clock = new FakeClock(Date.now());
    const b = await startConsole(postgresConsoleConfig(url, 'dead question test'), { clock });
    closing.push(b);
    await b.host.servers.settled();
    const onB = await ConsoleClient.signIn(b.url, { userId: 'alice' });
    const tab = await onB.openEvents();
    closing.push(tab);

    // The dead instance's last heartbeat is made older than STALE_MS (on the database's clock); the console's next
    // beat, which would take it over, is yet to come.
    const pool = new pg.Pool({ connectionString: url, max: 3, options: instanceOption('dead-2') });
    pool.on('error', () => undefined);
    const store = await PostgresStore.open({ pool });
    closing.push(store);
    await new InstanceHeartbeat({ pool, store, instanceId: 'dead-2', clock }).beat();
    await ageHeartbeat(url, 'dead-2', STALE_MS + 1);
    const scope = { userId: 'alice', workspaceId: onB.workspaceId, conversationId: 'main' };
    const asked = invocation({ scope, tool: 'demo__echo', serverId: 'demo' });
    await store.write([createWrite(asked)]);
    const questions = new PostgresQuestions({ pool, instanceId: 'dead-2' });
    await questions.open({
      invocationId: asked.id,
      scope,
      tool: { name: 'demo__echo' },
    } as unknown as PermissionRequest);
    await tab.waitForPermission(asked.id);

    const answer = await onB.post(`/api/permission-requests/${asked.id}`, { decision: 'allow_once' });
    expect(answer.status).toBe(410);
    expect(answer.body).toEqual({
      error: { code: 'instance_lost', message: expect.stringContaining('dead-2') },
    });
    const { rows } = await pool.query<{ answer: string | null; closed_at: unknown }>(
      'SELECT answer, closed_at FROM open_questions WHERE id = $1',
      [asked.id],
    );
    expect(rows).toEqual([{ answer: null, closed_at: null }]);
  }, 60_000);
});

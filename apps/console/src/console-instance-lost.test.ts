// An instance that died mid-call, seen from a console on the same PostgreSQL database (a real server, started by
// test/support/postgres): the dead instance's permission question shows on the console's tab, and once its heartbeat
// is stale (on the database's clock), the console ends its call in the shared history with the reason and the question
// closes on the tab.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionRequest } from '@airlock/core';
import { HEARTBEAT_MS, InstanceHeartbeat, PostgresStore, STALE_MS, instanceOption } from '@airlock/core/postgres';
import { FakeClock, createWrite, invocation } from '@airlock/core/testing';
import { startConsole } from '@airlock/console';
import type { RunningConsole } from '@airlock/console';
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

describe('a console on PostgreSQL noticing an instance that died', () => {
  it("ends the dead instance's call in history and closes its question on the tab", async () => {
    const url = await server.createDatabase();
    const clock = new FakeClock(Date.now());
    const b: RunningConsole = await startConsole(postgresConsoleConfig(url, 'instance lost test'), { clock });
    closing.push(b);
    // The demo server's start is timed on the same clock: it has answered before the clock moves.
    await b.host.servers.settled();
    const onB = await ConsoleClient.signIn(b.url, { userId: 'alice' });
    const tab = await onB.openEvents();
    closing.push(tab);

    // The instance that is about to die: its last heartbeat, a call of alice's it asked about, the question open.
    const pool = new pg.Pool({ connectionString: url, max: 3, options: instanceOption('dead-1') });
    pool.on('error', () => undefined);
    const store = await PostgresStore.open({ pool });
    await new InstanceHeartbeat({ pool, store, instanceId: 'dead-1', clock }).beat();
    const scope = { userId: 'alice', workspaceId: onB.workspaceId, conversationId: 'main' };
    const asked = invocation({ scope, tool: 'demo__echo', serverId: 'demo' });
    await store.write([createWrite(asked)]);
    const questions = new PostgresQuestions({ pool, instanceId: 'dead-1' });
    await questions.open({
      invocationId: asked.id,
      scope,
      tool: { name: 'demo__echo' },
    } as unknown as PermissionRequest);
    closing.push(store);
    await tab.waitForPermission(asked.id);

    // It falls silent past the limit (on the database's clock); the console's next heartbeat finds it stale.
    await ageHeartbeat(url, 'dead-1', STALE_MS + 1);
    clock.advance(HEARTBEAT_MS);
    const closed = await tab.waitFor(
      (e) => e.event === 'permission.closed' && (e.data as { id: string }).id === asked.id,
      'the dead instance question closing',
    );
    expect(closed.data).toEqual({ id: asked.id, decision: null });
    const card = await onB.get(`/api/invocations/${asked.id}`);
    expect(card.body).toMatchObject({
      invocation: { state: 'cancelled', error: { code: 'instance_lost', message: expect.stringContaining('dead-1') } },
    });
    expect((await onB.post('/api/audit/verify')).body).toEqual({ ok: true });
  }, 60_000);
});

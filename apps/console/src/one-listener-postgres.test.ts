// One LISTEN connection per console process, on a real PostgreSQL server (test/support/postgres): the store's
// decisions and switches, the questions and the sessions all hear their news on the store's one connection; when the
// database kills it (pg_terminate_backend), it is made once more on the host's clock, every subscriber is told to
// read again, and a question answered while it was down still reaches the instance.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionRequest } from '@airlock/core';
import { InstanceHeartbeat, PostgresStore, RELISTEN_BACKOFF, instanceOption } from '@airlock/core/postgres';
import { FakeClock } from '@airlock/core/testing';
import { startPostgres } from '../../../test/support/postgres/postgres-server.js';
import type { PostgresServer } from '../../../test/support/postgres/postgres-server.js';
import { PostgresQuestions } from './postgres-questions.js';
import { PostgresSessions } from './postgres-sessions.js';
import type { QuestionNews } from './question-bus.js';
import type { SessionNews } from './sessions.js';

let server: PostgresServer;
const closing: (() => Promise<void>)[] = [];
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  for (const close of closing.reverse()) await close();
  await server?.stop();
});

const tenant = { userId: 'alice', workspaceId: 'w1' };

/** An instance as the console wires one: a store, and its questions and sessions heard through the store's news. */
async function instance(url: string, name: string, clock: FakeClock) {
  const pool = new pg.Pool({ connectionString: url, max: 6, application_name: name, options: instanceOption(name) });
  pool.on('error', () => undefined);
  const store = await PostgresStore.open({ pool, clock });
  await new InstanceHeartbeat({ pool, store, instanceId: name, clock }).beat();
  const questions = new PostgresQuestions({ pool, instanceId: name, clock, news: store.news });
  const sessions = new PostgresSessions(pool, () => clock.now(), clock, store.news);
  closing.push(async () => {
    await questions.stop();
    await sessions.stop();
    await store.close();
  });
  return { pool, store, questions, sessions };
}

/** The connections of `name` that last ran a LISTEN: those it holds for news. */
async function listenConnections(pool: pg.Pool, name: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN %'",
    [name],
  );
  return rows[0]!.n;
}

describe('one LISTEN connection per console instance', () => {
  it('holds one for decisions, switches, questions and sessions, makes it again once when killed, and misses nothing', async () => {
    const url = await server.createDatabase();
    const clock = new FakeClock(Date.now());
    const a = await instance(url, 'listen-a', clock);
    const b = await instance(url, 'listen-b', new FakeClock(Date.now()));

    const decisions: unknown[] = [];
    const switches: string[] = [];
    const questions: QuestionNews[] = [];
    const sessions: (SessionNews | undefined)[] = [];
    a.store.watchDecisions((t) => decisions.push(t));
    a.store.watchSwitches(() => switches.push('switched'));
    a.questions.listen((news) => questions.push(news));
    a.sessions.watch((news) => sessions.push(news));
    await a.questions.listening();
    await a.sessions.listening();
    await a.store.news.listening();
    expect(await listenConnections(b.pool, 'listen-a')).toBe(1);

    // Each channel is heard on that one connection.
    await b.sessions.save({ id: 'session-1', ...tenant });
    await b.sessions.remove('session-1');
    await expect.poll(() => sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ kind: 'ended' });
    await a.questions.open({
      invocationId: 'call-1',
      scope: { ...tenant, conversationId: 'main' },
      tool: { name: 'demo__echo' },
    } as unknown as PermissionRequest);

    const { rows } = await b.pool.query<{ cut: boolean }>(
      "SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE application_name = 'listen-a' " +
        "AND query LIKE 'LISTEN %'",
    );
    expect(rows).toEqual([{ cut: true }]);
    await expect.poll(() => listenConnections(b.pool, 'listen-a')).toBe(0);
    await expect.poll(() => a.store.news.connected).toBe(false);

    // Answered on B while A cannot hear: the notification is lost, the news row is not.
    expect(await b.questions.claim(tenant, 'call-1', 'allow_once')).toBe('first');
    expect(questions).toEqual([]);

    clock.advance(RELISTEN_BACKOFF.maxMs);
    await expect.poll(() => questions).toHaveLength(1);
    expect(questions[0]).toEqual({ kind: 'answered', id: 'call-1', tenant, decision: 'allow_once' });
    // Every other subscriber is told to read again (decisions of any tenant, the switches, every session).
    expect(decisions).toEqual([undefined]);
    expect(switches).toEqual(['switched']);
    expect(sessions.at(-1)).toBeUndefined();
    // Made again once: still one connection.
    await a.store.news.listening();
    expect(await listenConnections(b.pool, 'listen-a')).toBe(1);
  }, 30_000);
});

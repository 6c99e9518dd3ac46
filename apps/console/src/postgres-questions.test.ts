// What one console instance tells another of its questions, over a real PostgreSQL server (test/support/postgres):
// news told while an instance's LISTEN connection is down (cut from the database's side) still reaches it once it
// is back, each once; an answer of 50 KB reaches the instance holding the question; a notification carries a seq
// only. The instance whose connection is cut runs on a fake clock, so it comes back when the test says.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionRequest } from '@airlock/core';
import { InstanceHeartbeat, PostgresStore, RELISTEN_BACKOFF, instanceOption } from '@airlock/core/postgres';
import { FakeClock } from '@airlock/core/testing';
import { startPostgres } from '../../../test/support/postgres/postgres-server.js';
import type { PostgresServer } from '../../../test/support/postgres/postgres-server.js';
import { PostgresQuestions, QUESTIONS_CHANNEL } from './postgres-questions.js';
import type { QuestionNews } from './question-bus.js';

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

function question(invocationId: string): PermissionRequest {
  const scope = { ...tenant, conversationId: 'main' };
  return { invocationId, scope, tool: { name: 'demo__echo' } } as unknown as PermissionRequest;
}

/** Two instances' questions on a fresh database, each on its own pool named after it, both with a live heartbeat. */
async function twoInstances() {
  const url = await server.createDatabase();
  const open = async (name: string, clock: FakeClock) => {
    const pool = new pg.Pool({ connectionString: url, max: 4, application_name: name, options: instanceOption(name) });
    pool.on('error', () => undefined);
    const store = await PostgresStore.open({ pool });
    await new InstanceHeartbeat({ pool, store, instanceId: name, clock }).beat();
    const errors: Error[] = [];
    const questions = new PostgresQuestions({ pool, instanceId: name, clock, onError: (e) => errors.push(e) });
    closing.push(async () => {
      await questions.stop();
      await store.close(); // ends the pool
    });
    return { pool, questions, errors };
  };
  const clock = new FakeClock(Date.now());
  return { url, clock, a: await open('questions-a', clock), b: await open('questions-b', new FakeClock(Date.now())) };
}

describe("a console instance's questions on PostgreSQL", () => {
  it('hears an answer, a close and a cancel told while its LISTEN connection was down, each once, when it is back', async () => {
    const { clock, a, b } = await twoInstances();
    const heard: QuestionNews[] = [];
    a.questions.listen((news) => heard.push(news));
    await a.questions.listening();
    await a.questions.open(question('call-1'));
    await a.questions.open(question('call-2'));

    const { rows } = await b.pool.query<{ cut: boolean }>(
      "SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE application_name = 'questions-a' " +
        `AND query = 'LISTEN ${QUESTIONS_CHANNEL}'`,
    );
    expect(rows).toEqual([{ cut: true }]);
    await expect.poll(() => a.errors.length).toBeGreaterThan(0);

    // All three are told while A cannot hear: their notifications are lost, their rows are not.
    expect(await b.questions.claim(tenant, 'call-1', 'allow_once')).toBe('first');
    await a.questions.close(tenant, 'call-2');
    await b.questions.cancel(tenant, 'call-3');
    expect(heard).toEqual([]);

    clock.advance(RELISTEN_BACKOFF.maxMs);
    await expect.poll(() => heard).toHaveLength(3);
    await a.questions.listening();
    expect(heard).toEqual([
      { kind: 'answered', id: 'call-1', tenant, decision: 'allow_once' },
      { kind: 'closed', id: 'call-2', tenant },
      { kind: 'cancel', invocationId: 'call-3', tenant },
    ]);

    // Heard live again, and nothing told before is told twice.
    await b.questions.cancel(tenant, 'call-4');
    await expect.poll(() => heard).toHaveLength(4);
    expect(heard[3]).toEqual({ kind: 'cancel', invocationId: 'call-4', tenant });
  }, 30_000);

  it('hears news told long before its connection came back even when newer news arrives as LISTEN returns', async () => {
    const { clock, a, b } = await twoInstances();
    // A's LISTEN connection, wrapped: as it is made again, one notification comes in the same read as LISTEN's
    // answer, so it is heard before the catch-up runs (as a busy event loop can have it).
    const early: { seq?: string } = {};
    const patched = new WeakSet<object>();
    a.pool.on('acquire', (client) => {
      if (patched.has(client)) return;
      patched.add(client);
      const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
      (client as unknown as { query: typeof query }).query = async (...args) => {
        const result = await query(...args);
        const config = args[0];
        const text = typeof config === 'string' ? config : (config as { text?: string }).text;
        if (text?.startsWith('LISTEN') === true && early.seq !== undefined) {
          client.emit('notification', { channel: QUESTIONS_CHANNEL, payload: early.seq, processId: 0 });
        }
        return result;
      };
    });
    const errors: Error[] = [];
    const wrapped = new PostgresQuestions({
      pool: a.pool,
      instanceId: 'questions-a',
      clock,
      onError: (e) => errors.push(e),
    });
    closing.push(() => wrapped.stop());
    const heard: QuestionNews[] = [];
    wrapped.listen((news) => heard.push(news));
    await wrapped.listening();

    await b.pool.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'questions-a' " +
        `AND query = 'LISTEN ${QUESTIONS_CHANNEL}'`,
    );
    await expect.poll(() => errors.length).toBeGreaterThan(0);
    // Told while A was cut off: one cancel, then, a minute later, another (its row dated a minute on, as if the
    // connection had stayed down that long).
    await b.questions.cancel(tenant, 'long-ago');
    await b.questions.cancel(tenant, 'just-now');
    const { rows } = await b.pool.query<{ seq: string }>(
      "UPDATE question_news SET told_at = told_at + 60000 WHERE news LIKE '%just-now%' RETURNING seq",
    );
    early.seq = rows[0]!.seq;

    clock.advance(RELISTEN_BACKOFF.maxMs);
    await expect.poll(() => heard).toHaveLength(2);
    await wrapped.listening();
    expect(heard.map((n) => (n.kind === 'cancel' ? n.invocationId : n.kind)).sort()).toEqual(['just-now', 'long-ago']);
  }, 30_000);

  it('carries a 50 KB answer to the holder and its reply back, notifying seqs only, and keeps neither after', async () => {
    const { url, a, b } = await twoInstances();
    const raw = new pg.Client({ connectionString: url });
    await raw.connect();
    closing.push(() => raw.end());
    const payloads: string[] = [];
    raw.on('notification', (message) => payloads.push(message.payload ?? ''));
    await raw.query(`LISTEN ${QUESTIONS_CHANNEL}`);

    const answers: unknown[] = [];
    a.questions.listen((news) => {
      if (news.kind !== 'elicitation.answer') return;
      answers.push(news.answer);
      void a.questions.reply(news.replyTo, { ok: true });
    });
    await a.questions.listening();

    const answer = { text: 'x'.repeat(50_000) };
    expect(await b.questions.answerElsewhere(tenant, 'question-1', answer)).toEqual({ ok: true });
    expect(answers).toEqual([answer]);
    await expect.poll(() => payloads).toHaveLength(2);
    for (const payload of payloads) expect(payload).toMatch(/^\d+$/);
    // The exchange over, neither the answer nor its reply is kept.
    await expect
      .poll(async () => (await b.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM question_news')).rows[0]?.n)
      .toBe(0);
  }, 30_000);
});

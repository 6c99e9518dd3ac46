import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startConsole } from '@airlock/console';
import type { ConsoleConfig, RunningConsole } from '@airlock/console';
import { REPORT_TOOL, startTaskServer } from '../../../test/support/tasks/task-server.js';
import type { TaskServer } from '../../../test/support/tasks/task-server.js';
import { ConsoleClient, screenText } from './testing/console-client.js';
import type { ConsoleEventStream } from './testing/console-client.js';

// A task outlives the console that started it: a console on a SQLite file starts a task on the test task server
// (Streamable HTTP, which keeps its tasks), closes, and a new console on the same file picks the task up. Its card
// comes back live (the snapshot shows it working with its status and when it began; its end arrives as an event),
// and Cancel on that card reaches the server as tasks/cancel; another user's cancel of it is not found.

const TOOL = `reports__${REPORT_TOOL}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let dir: string;
let server: TaskServer;
let consoles: RunningConsole[] = [];
let streams: ConsoleEventStream[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'airlock-console-tasks-'));
  server = await startTaskServer();
});
afterEach(async () => {
  await Promise.all(streams.map((s) => s.close()));
  for (const running of consoles) await running.close();
  await server.close();
  streams = [];
  consoles = [];
  await rm(dir, { recursive: true, force: true });
});

async function open(): Promise<RunningConsole> {
  const config: ConsoleConfig = {
    source: 'console tasks test',
    servers: [{ id: 'reports', transport: 'http', url: server.url, headers: {}, trusted: false, disabled: false }],
    rules: [{ effect: 'allow', layer: 'host', server: 'reports', tool: REPORT_TOOL, source: 'console tasks test' }],
    limits: {},
    storePath: join(dir, 'console.db'),
    host: '127.0.0.1',
    port: 0,
    auth: 'token',
    users: [
      { id: 'ana', tokenSha256: sha256('ana-token') },
      { id: 'bia', tokenSha256: sha256('bia-token') },
    ],
    retention: {},
  };
  const running = await startConsole(config);
  consoles.push(running);
  await running.host.servers.settled();
  return running;
}

async function tab(client: ConsoleClient): Promise<ConsoleEventStream> {
  const stream = await client.openEvents();
  streams.push(stream);
  return stream;
}

/** Starts the task on a first console, waits for its handle to be stored, and closes that console. */
async function startTaskThenClose(): Promise<{ id: string; taskId: string }> {
  const first = await open();
  const ana = await ConsoleClient.signIn(first.url, { token: 'ana-token' });
  const events = await tab(ana);
  const id = await ana.startCall(TOOL, { topic: 'tide pools' });
  await events.waitForInvocation(id, 'working');
  const taskId = await server.taskCreated();
  // Reading the call drains the history writer: the handle is stored once it answers.
  expect((await ana.get(`/api/invocations/${id}`)).body).toMatchObject({ invocation: { state: 'working' } });
  await events.close();
  streams = streams.filter((s) => s !== events);
  await first.close();
  consoles = consoles.filter((c) => c !== first);
  // Closing the console left the task alone in the server.
  expect(server.cancels).toEqual([]);
  return { id, taskId };
}

describe('a task across a console restart', () => {
  it("brings the task's card back live: working with its status, then its end as an event", async () => {
    const { id, taskId } = await startTaskThenClose();
    const second = await open();
    await second.host.tasks.resumed();
    const ana = await ConsoleClient.signIn(second.url, { token: 'ana-token' });
    const events = await tab(ana);
    const cards = events.state['cards'] as { invocation: { id: string; state: string }; taskStartedAt?: number }[];
    const card = cards.find((c) => c.invocation.id === id);
    expect(card?.invocation.state).toBe('working');
    expect(card?.taskStartedAt).toEqual(expect.any(Number));
    // Its status as the server last told it.
    const task = await second.host.tasks.get({
      scope: { userId: 'ana', workspaceId: ana.workspaceId, conversationId: 'main' },
      invocationId: id,
    });
    expect(task).toMatchObject({ taskId, status: 'working' });

    server.finish(taskId);
    const end = await events.waitForEnd(id);
    expect(end.invocation.state).toBe('success');
    expect(screenText(end.result)).toContain('Report on tide pools: all sources read.');
    expect((await ana.get(`/api/invocations/${id}`)).body).toMatchObject({ invocation: { state: 'success' } });
    expect(server.cancels).toEqual([]);
  });

  it("cancels a resumed task from its card: tasks/cancel reaches the server; another user's cancel is not found", async () => {
    const { id, taskId } = await startTaskThenClose();
    const second = await open();
    await second.host.tasks.resumed();
    const ana = await ConsoleClient.signIn(second.url, { token: 'ana-token' });
    const bia = await ConsoleClient.signIn(second.url, { token: 'bia-token' });
    const events = await tab(ana);

    const refused = await bia.post(`/api/invocations/${id}/cancel?conversation=main`);
    expect(refused.status).toBe(404);
    expect(server.cancels).toEqual([]);

    const cancelled = await ana.post(`/api/invocations/${id}/cancel?conversation=main`);
    expect(cancelled.status).toBeLessThan(300);
    expect(await server.taskCancelled()).toBe(taskId);
    const end = await events.waitForEnd(id);
    expect(end.invocation.state).toBe('cancelled');
    expect(server.cancels).toEqual([taskId]);
  });
});

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { HostConfig } from '../host/host-config.js';
import type { ServerConfig } from '../servers/server-config.js';
import type { ElicitationRequest } from '../elicitation/elicitation-request.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import { SCOPE } from '../testing/demo-fixture.js';
import { FakeClock } from '../testing/fake-clock.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';
import { REPORT_TOOL, REVIEW_TOOL, startTaskServer } from '../../../../test/support/tasks/task-server.js';
import type { TaskServer } from '../../../../test/support/tasks/task-server.js';

// A host restart in the middle of a task: a child Node process runs a host (the BUILT package, packages/core/dist:
// run "npx tsc -b" first) on a SQLite file and starts a task on the test task server over Streamable HTTP; the test
// kills it (SIGKILL) once the task's handle is committed, and a new host on the same file picks the task up. The task
// lives in the server, which outlives the host; a server restarted meanwhile has forgotten it.

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist');
const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

function childScript(): string {
  const url = (path: string) => JSON.stringify(pathToFileURL(path).href);
  return `
import Database from ${url(DRIVER)};
import { createHost } from ${url(join(DIST, 'index.js'))};
import { SqliteStore } from ${url(join(DIST, 'storage/sqlite/index.js'))};
import { ScriptedSurface } from ${url(join(DIST, 'testing/index.js'))};
const [file, serverUrl, scopeJson, tool] = process.argv.slice(2);
const scope = JSON.parse(scopeJson);
const host = createHost({
  servers: [{ id: 'reports', transport: 'http', url: serverUrl, headers: {}, trusted: false, disabled: false }],
  store: new SqliteStore({ database: new Database(file) }),
  surface: new ScriptedSurface('allow_once'),
});
await host.servers.settled();
let told = false;
host.on('task.updated', ({ task }) => {
  if (told) return;
  told = true;
  // Reading history drains the writer: the handle is committed once this resolves.
  void host.history.get({ scope, invocationId: task.invocationId }).then(() => console.log(JSON.stringify(task)));
});
void host.invoke({ scope, caller: { kind: 'model' }, tool: 'reports__' + tool, args: { topic: 'tide pools' } });
`;
}

interface Started {
  readonly invocationId: string;
  readonly taskId: string;
}

let dir: string;
let server: TaskServer | undefined;
let host: Host | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'airlock-tasks-'));
});
afterEach(async () => {
  await host?.close();
  await server?.close();
  host = undefined;
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** Runs a host in a child process until its task's handle is committed, then kills it (SIGKILL). */
async function startTaskAndKillHost(file: string, url: string, tool = REPORT_TOOL): Promise<Started> {
  if (!existsSync(join(DIST, 'index.js'))) throw new Error(`${DIST} is missing: run "npx tsc -b" first`);
  const script = join(dir, 'host.mjs');
  await writeFile(script, childScript(), 'utf8');
  const child = spawn(process.execPath, [script, file, url, JSON.stringify(SCOPE), tool], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<NodeJS.Signals | null>((done) => child.on('close', (_code, signal) => done(signal)));
  const line = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout }).once('line', done);
    void exited.then(() => fail(new Error(`the host exited before its task started: ${stderr}`)));
  });
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  return JSON.parse(line) as Started;
}

function reports(url: string): ServerConfig {
  return { id: 'reports', transport: 'http', url, headers: {}, trusted: false, disabled: false };
}

/** A host on the SQLite file with the task server, as every host of these cases is made. */
function hostOn(file: string, url: string, more: Pick<HostConfig, 'clock' | 'limits'> = {}): Host {
  return createHost({
    servers: [reports(url)],
    store: new SqliteStore({ database: new Database(file) }),
    surface: new ScriptedSurface('allow_once'),
    ...more,
  });
}

/** A host of its own starts a report task on `topic` and closes while it works: the call's id and what its caller got. */
async function startTaskAndCloseHost(
  file: string,
  url: string,
  topic: string,
): Promise<{ invocationId: string; cut: Awaited<ReturnType<Host['invoke']>> }> {
  const first = hostOn(file, url);
  await first.servers.settled();
  const handle = new Promise<string>((done) => first.on('task.updated', ({ task }) => done(task.invocationId)));
  const call = first.invoke({
    scope: SCOPE,
    caller: { kind: 'model' },
    tool: `reports__${REPORT_TOOL}`,
    args: { topic },
  });
  const invocationId = await handle;
  await first.close();
  return { invocationId, cut: await call };
}

describe('tasks across a host restart', () => {
  it('picks up a task a killed host started: polling resumes and the result lands in history', async () => {
    server = await startTaskServer();
    const file = join(dir, 'airlock.db');
    const started = await startTaskAndKillHost(file, server.url);
    expect(server.created).toEqual([started.taskId]);

    host = hostOn(file, server.url);
    const h = host;
    const progress: string[] = [];
    const polledAgain = server.polls.get(started.taskId) ?? 0;
    const ended = new Promise<void>((done) =>
      h.on('invocation.transition', ({ invocation }) => {
        if (invocation.state === 'success' || invocation.state === 'error') done();
      }),
    );
    // The task finishes once the new host has asked for its status again.
    h.on('invocation.progress', ({ progress: p }) => {
      progress.push(p.message ?? '');
      if ((server?.polls.get(started.taskId) ?? 0) > polledAgain) server?.finish(started.taskId);
    });
    await h.tasks.resumed();
    await ended;

    const entry = await h.history.get({ scope: SCOPE, invocationId: started.invocationId });
    expect(entry?.invocation).toMatchObject({ state: 'success', outcome: 'success' });
    expect(entry?.transitions.map((t) => t.to)).toEqual(['pending', 'running', 'working', 'success']);
    expect(entry?.result?.model.text).toContain('Report on tide pools');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(await h.tasks.get({ scope: SCOPE, invocationId: started.invocationId })).toMatchObject({
      taskId: started.taskId,
      status: 'completed',
    });
    expect(await h.tasks.list()).toEqual([]);
    const audit = await h.audit.query({
      scope: SCOPE,
      invocationId: started.invocationId,
      type: 'invocation.transition',
    });
    expect(audit.map((e) => (e.data as { to?: string }).to)).toEqual(['pending', 'running', 'working', 'success']);
  }, 30_000);

  it('answers the question a resumed task asks while input_required, and the result carries the answer', async () => {
    server = await startTaskServer();
    const file = join(dir, 'airlock.db');
    const started = await startTaskAndKillHost(file, server.url, REVIEW_TOOL);
    // The task asks at once: over the killed host's tasks/result if it reached the server (never answered), and over
    // the new host's when it arrives.
    server.ask(started.taskId);

    const surface = new ScriptedSurface({
      permissions: [],
      elicitations: [{ action: 'accept', content: { reviewer: 'Ada' } }],
    });
    host = createHost({
      servers: [reports(server.url)],
      store: new SqliteStore({ database: new Database(file) }),
      surface,
    });
    const h = host;
    const asked: ElicitationRequest[] = [];
    h.on('elicitation.requested', ({ request }) => asked.push(request));
    const ended = new Promise<void>((done) =>
      h.on('invocation.transition', ({ invocation }) => {
        if (invocation.state === 'success' || invocation.state === 'error') done();
      }),
    );
    await h.tasks.resumed();
    await ended;

    const entry = await h.history.get({ scope: SCOPE, invocationId: started.invocationId });
    expect(entry?.invocation).toMatchObject({ state: 'success', outcome: 'success' });
    expect(entry?.result?.model.text).toContain('Report on tide pools: Reviewed by Ada.');
    expect(asked.map((q) => [q.message, q.invocationId, q.scope])).toEqual([
      ['Who reviews the report?', started.invocationId, SCOPE],
    ]);
    expect(await h.tasks.list()).toEqual([]);
  }, 30_000);

  it('leaves a task open when its host closes mid-task, and the next host on the store finishes it', async () => {
    server = await startTaskServer();
    const file = join(dir, 'airlock.db');
    const { invocationId, cut } = await startTaskAndCloseHost(file, server.url, 'kelp');
    expect(cut.error?.code).toBe('host_closed');

    server.finish();
    host = hostOn(file, server.url);
    const h = host;
    const ended = new Promise<void>((done) =>
      h.on('invocation.transition', ({ invocation }) => {
        if (invocation.state === 'success') done();
      }),
    );
    await ended;
    const entry = await h.history.get({ scope: SCOPE, invocationId });
    expect(entry?.transitions.map((t) => t.to)).toEqual(['pending', 'running', 'working', 'success']);
    expect(entry?.result?.model.text).toContain('Report on kelp');
  });

  it('waits for a server not ready when the task is resumed, and follows the task once it is', async () => {
    server = await startTaskServer();
    const file = join(dir, 'airlock.db');
    const { invocationId } = await startTaskAndCloseHost(file, server.url, 'dunes');

    // The server answers 503 while the next host starts: its first connection fails.
    server.refuse(true);
    const clock = new FakeClock();
    host = hostOn(file, server.url, { clock });
    const h = host;
    const waiting = new Promise<string>((done) =>
      h.on('invocation.progress', ({ progress }) => {
        if (progress.message?.startsWith('waiting') === true) done(progress.message);
      }),
    );
    const ended = new Promise<string>((done) =>
      h.on('invocation.transition', ({ invocation }) => {
        if (invocation.state === 'success' || invocation.state === 'error') done(invocation.state);
      }),
    );
    expect(await waiting).toBe('waiting for server "reports" (failed)');
    expect((await h.history.get({ scope: SCOPE, invocationId }))?.invocation.state).toBe('working');

    server.refuse(false);
    server.finish();
    clock.advance(1_000);
    expect(await ended).toBe('success');
    const entry = await h.history.get({ scope: SCOPE, invocationId });
    expect(entry?.transitions.map((t) => t.to)).toEqual(['pending', 'running', 'working', 'success']);
    expect(entry?.result?.model.text).toContain('Report on dunes');
  });

  it('ends a resumed task at its ceiling while its server is still not ready (timeout, not transport_error)', async () => {
    server = await startTaskServer();
    const file = join(dir, 'airlock.db');
    const { invocationId } = await startTaskAndCloseHost(file, server.url, 'reefs');

    server.refuse(true);
    const clock = new FakeClock(Date.now());
    host = hostOn(file, server.url, { clock, limits: { taskMaxTotalMs: 60_000 } });
    const h = host;
    const waiting = new Promise<void>((done) =>
      h.on('invocation.progress', ({ progress }) => {
        if (progress.message?.startsWith('waiting') === true) done();
      }),
    );
    const ended = new Promise<string | null>((done) =>
      h.on('invocation.transition', ({ invocation }) => {
        if (invocation.state === 'success' || invocation.state === 'error') done(invocation.outcome);
      }),
    );
    await waiting;
    clock.advance(120_000);
    expect(await ended).toBe('timeout');
    expect(server.cancels).toEqual([]);
    const entry = await h.history.get({ scope: SCOPE, invocationId });
    expect(entry?.transitions.map((t) => t.to)).toEqual(['pending', 'running', 'working', 'error']);
  });

  it('ends a task its restarted server has forgotten with task_lost, naming the server and the task', async () => {
    server = await startTaskServer();
    const file = join(dir, 'airlock.db');
    const started = await startTaskAndKillHost(file, server.url);
    const port = server.port;
    await server.close();
    server = await startTaskServer({ port });

    host = hostOn(file, server.url);
    const h = host;
    const ended = new Promise<void>((done) =>
      h.on('invocation.transition', ({ invocation }) => {
        if (invocation.state === 'error') done();
      }),
    );
    await h.tasks.resumed();
    await ended;
    const entry = await h.history.get({ scope: SCOPE, invocationId: started.invocationId });
    expect(entry?.invocation.error?.code).toBe('task_lost');
    expect(entry?.invocation.error?.message).toContain(`server "reports" no longer knows the task ${started.taskId}`);
    expect(await h.tasks.list({ scope: SCOPE })).toEqual([]);
  }, 30_000);
});

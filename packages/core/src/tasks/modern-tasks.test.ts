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
import type { InvocationTask } from '../store/invocation-task.js';
import type { ServerConfig } from '../servers/server-config.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import { SCOPE } from '../testing/demo-fixture.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';
import type { Surface } from '../host/surface.js';
import { REVIEW_TOOL, REVIEWER_KEY, startModernTaskServer } from '../../../../test/support/tasks/modern-task-server.js';
import type { ModernTaskServer } from '../../../../test/support/tasks/modern-task-server.js';

// Tasks of the 2026-07-28 era (the io.modelcontextprotocol/tasks extension) against a real 2026 server over
// Streamable HTTP (test/support/tasks/modern-task-server.ts), which refuses every task request that does not declare
// the extension: the server decides to answer tools/call with a task, the host follows it through the one path
// (stored handle of era 2026-07-28, statuses as transitions), input goes through the elicitation broker and back
// with tasks/update, cancel sends tasks/cancel, and a new host on the same SQLite file finishes a task.

const TOOL = `reviews__${REVIEW_TOOL}`;
const DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist');
const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

let host: Host | undefined;
let server: ModernTaskServer | undefined;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'airlock-modern-tasks-'));
});
afterEach(async () => {
  await host?.close();
  await server?.close();
  host = undefined;
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

function reviews(url: string): ServerConfig {
  return { id: 'reviews', transport: 'http', url, headers: {}, trusted: false, disabled: false, negotiation: 'auto' };
}

async function started(url: string, surface: Surface = new ScriptedSurface('allow_once')): Promise<Host> {
  host = createHost({ servers: [reviews(url)], surface });
  await host.servers.settled();
  expect(host.servers.list()[0]?.protocolVersion).toBe('2026-07-28');
  return host;
}

function review(h: Host, topic: string) {
  return h.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: TOOL, args: { topic } });
}

describe('tasks of the 2026-07-28 extension', () => {
  it('follows a task the server answered tools/call with to its completion, stored as a 2026-07-28 handle', async () => {
    server = await startModernTaskServer({ completeAfterPolls: 2 });
    const h = await started(server.url);
    const told: InvocationTask[] = [];
    h.on('task.updated', ({ task }) => told.push(task));
    const result = await review(h, 'tide pools');
    expect(result.outcome).toBe('success');
    expect(result.text).toContain('Report on tide pools: all sources read.');
    const entry = await h.history.get({ scope: SCOPE, invocationId: result.invocationId });
    expect(entry?.transitions.map((t) => t.to)).toEqual(['pending', 'running', 'working', 'success']);
    expect(await h.tasks.get({ scope: SCOPE, invocationId: result.invocationId })).toMatchObject({
      serverId: 'reviews',
      taskId: server.created[0],
      era: '2026-07-28',
      pollIntervalMs: 250,
      ttlMs: 3_600_000,
      status: 'completed',
    });
    expect(told.map((t) => t.statusMessage)).toContain('Writing the report');
    expect(server.polls.get(server.created[0]!)).toBe(2);
    expect(server.undeclared).toEqual([]);
    expect(await h.tasks.list({ scope: SCOPE })).toEqual([]);
  });

  it('keeps history going when a server asks a poll interval no store keeps (a negative one): it is not kept', async () => {
    server = await startModernTaskServer({ pollIntervalMs: -1, completeAfterPolls: 1 });
    const h = await started(server.url);
    const failures: unknown[] = [];
    h.on('store.error', (error) => failures.push(error));
    const result = await review(h, 'rock pools');
    expect(result.outcome).toBe('success');
    expect(await h.tasks.get({ scope: SCOPE, invocationId: result.invocationId })).toMatchObject({
      pollIntervalMs: null,
      status: 'completed',
    });
    // The next call is recorded as any call: the malformed task did not stop the history writer.
    expect((await review(h, 'kelp')).outcome).toBe('success');
    expect(failures).toEqual([]);
  });

  it('asks the task input through the surface and sends the answer back with tasks/update', async () => {
    server = await startModernTaskServer({ askReviewer: true });
    const surface = new ScriptedSurface({
      permissions: ['allow_once'],
      elicitations: [{ action: 'accept', content: { reviewer: 'Ana' } }],
    });
    const h = await started(server.url, surface);
    const result = await review(h, 'kelp');
    expect(result.outcome).toBe('success');
    expect(result.text).toContain('Report on kelp, reviewed by Ana.');
    expect(surface.questions).toHaveLength(1);
    expect(surface.questions[0]).toMatchObject({
      message: 'Who reviews the report?',
      invocationId: result.invocationId,
      scope: SCOPE,
      serverId: 'reviews',
    });
    expect(server.updates).toEqual([
      {
        taskId: server.created[0],
        inputResponses: { [REVIEWER_KEY]: { action: 'accept', content: { reviewer: 'Ana' } } },
      },
    ]);
    const entry = await h.history.get({ scope: SCOPE, invocationId: result.invocationId });
    expect(entry?.transitions.map((t) => t.to)).toEqual(['pending', 'running', 'working', 'input_required', 'success']);
    expect(server.undeclared).toEqual([]);
  });

  it('sends tasks/cancel when the task is cancelled by its call id, and the call ends cancelled', async () => {
    server = await startModernTaskServer();
    const h = await started(server.url);
    const open = new Promise<InvocationTask>((done) => h.on('task.updated', ({ task }) => done(task)));
    const running = review(h, 'dunes');
    const task = await open;
    expect(task).toMatchObject({ era: '2026-07-28', status: 'working' });
    expect(h.tasks.cancel({ scope: SCOPE, invocationId: task.invocationId })).toBe(true);
    expect((await running).outcome).toBe('cancelled');
    expect(await server.taskCancelled()).toBe(task.taskId);
    expect(server.undeclared).toEqual([]);
  });

  it('ends a followed task call when its host closes, leaving the task to the server and the next host', async () => {
    server = await startModernTaskServer();
    const h = await started(server.url);
    const open = new Promise<InvocationTask>((done) => h.on('task.updated', ({ task }) => done(task)));
    const running = review(h, 'salt marsh');
    await open;
    await h.close();
    // The polls of a closed connection can only fail: the call ends (it hung, polling with back-off, before).
    const result = await running;
    expect(result.outcome).toBe('transport_error');
    expect(result.text).toContain('the host closed while task');
  });

  it('lets a new host on the same SQLite file finish a task a killed host started', async () => {
    server = await startModernTaskServer();
    const file = join(dir, 'airlock.db');
    const first = await startTaskAndKillHost(file, server.url);
    expect(first).toMatchObject({ era: '2026-07-28', taskId: server.created[0] });

    host = createHost({
      servers: [reviews(server.url)],
      store: new SqliteStore({ database: new Database(file) }),
      surface: new ScriptedSurface('allow_once'),
    });
    const h = host;
    const polledBefore = server.polls.get(first.taskId) ?? 0;
    const ended = new Promise<void>((done) =>
      h.on('invocation.transition', ({ invocation }) => {
        if (invocation.state === 'success' || invocation.state === 'error') done();
      }),
    );
    // The task finishes once the new host has asked for its status again.
    h.on('invocation.progress', () => {
      if ((server?.polls.get(first.taskId) ?? 0) > polledBefore) server?.finish(first.taskId);
    });
    await h.tasks.resumed();
    await ended;
    const entry = await h.history.get({ scope: SCOPE, invocationId: first.invocationId });
    expect(entry?.invocation).toMatchObject({ state: 'success', outcome: 'success' });
    expect(entry?.result?.model.text).toContain('Report on tide pools: all sources read.');
    expect(await h.tasks.get({ scope: SCOPE, invocationId: first.invocationId })).toMatchObject({
      taskId: first.taskId,
      era: '2026-07-28',
      status: 'completed',
    });
    expect(server.undeclared).toEqual([]);
  }, 30_000);
});

// The killed host: a child Node process running the BUILT package (packages/core/dist: run "npx tsc -b" first).
function childScript(): string {
  const url = (path: string) => JSON.stringify(pathToFileURL(path).href);
  return `
import Database from ${url(DRIVER)};
import { createHost } from ${url(join(DIST, 'index.js'))};
import { SqliteStore } from ${url(join(DIST, 'storage/sqlite/index.js'))};
import { ScriptedSurface } from ${url(join(DIST, 'testing/index.js'))};
const [file, serverUrl, scopeJson] = process.argv.slice(2);
const scope = JSON.parse(scopeJson);
const host = createHost({
  servers: [{ id: 'reviews', transport: 'http', url: serverUrl, headers: {}, trusted: false, disabled: false, negotiation: 'auto' }],
  store: new SqliteStore({ database: new Database(file) }),
  surface: new ScriptedSurface('allow_once'),
});
await host.servers.settled();
let told = false;
host.on('task.updated', ({ task }) => {
  if (told) return;
  told = true;
  void host.history.get({ scope, invocationId: task.invocationId }).then(() => console.log(JSON.stringify(task)));
});
void host.invoke({ scope, caller: { kind: 'model' }, tool: ${JSON.stringify(TOOL)}, args: { topic: 'tide pools' } });
`;
}

async function startTaskAndKillHost(file: string, url: string): Promise<InvocationTask> {
  if (!existsSync(join(DIST, 'index.js'))) throw new Error(`${DIST} is missing: run "npx tsc -b" first`);
  const script = join(dir, 'host.mjs');
  await writeFile(script, childScript(), 'utf8');
  const child = spawn(process.execPath, [script, file, url, JSON.stringify(SCOPE)], {
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
  return JSON.parse(line) as InvocationTask;
}

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { createHost } from '@airlock/core';
import type { InvocationTask } from '@airlock/core';
import { SqliteStore } from '@airlock/core/sqlite';
import { ScriptedSurface, scratchDir } from '@airlock/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { REPORT_TOOL, startTaskServer } from '../../../test/support/tasks/task-server.js';
import type { TaskServer } from '../../../test/support/tasks/task-server.js';

// `airlock tasks` over a real history: a host starts a task on the test task server (Streamable HTTP) and closes
// mid-task, which leaves the task open in its SQLite file; the built CLI then lists it, per tenant, without starting
// a server or following it.

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/bin.js');

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

let server: TaskServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('airlock tasks', () => {
  it('lists the open tasks of the history per user and workspace, and says when there are none', async () => {
    server = await startTaskServer();
    const dir = scratchDir('airlock-tasks-cli-');
    const store = join(dir, 'airlock.db');
    const config = join(dir, 'airlock.config.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { reports: { url: server.url } } }));
    const common = ['--config', config, '--store', store];
    expect((await run(['tasks', ...common])).stdout).toBe('no open tasks\n');

    const host = createHost({
      servers: [{ id: 'reports', transport: 'http', url: server.url, headers: {}, trusted: false, disabled: false }],
      store: new SqliteStore({ database: new Database(store) }),
      surface: new ScriptedSurface('allow_once'),
    });
    await host.servers.settled();
    const scope = { userId: 'ana', workspaceId: 'research', conversationId: 'c1' };
    const opened = new Promise<InvocationTask>((done) => host.on('task.updated', ({ task }) => done(task)));
    const call = host.invoke({
      scope,
      caller: { kind: 'model' },
      tool: `reports__${REPORT_TOOL}`,
      args: { topic: 'x' },
    });
    const task = await opened;
    await host.close();
    await call;
    const polled = server.polls.get(task.taskId) ?? 0;

    const listed = await run(['tasks', ...common]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('ana · research\n');
    expect(listed.stdout).toContain(
      `${task.invocationId.slice(0, 8)} · reports__${REPORT_TOOL} · working: Gathering sources`,
    );
    expect(listed.stdout).toContain(`task ${task.taskId} on reports (2025-11-25)`);
    const json = JSON.parse((await run(['tasks', '--json', ...common])).stdout) as InvocationTask[];
    expect(json.map((t) => t.taskId)).toEqual([task.taskId]);
    // Listing follows nothing: the server was not asked about the task again.
    expect(server.polls.get(task.taskId) ?? 0).toBe(polled);
  }, 30_000);
});

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchDir } from '@airlock/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPORT_TOOL, startTaskServer } from '../../../test/support/tasks/task-server.js';
import type { TaskServer } from '../../../test/support/tasks/task-server.js';

// `airlock call` on a tool that runs as a task (the BUILT cli, packages/cli/dist: run "npx tsc -b" first), against the
// test task server over Streamable HTTP, which runs in this process and so outlives the CLI: Ctrl-C (SIGINT) while
// the task works sends tasks/cancel before the CLI exits.

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/bin.js');

let server: TaskServer;
beforeEach(async () => {
  server = await startTaskServer();
});
afterEach(async () => {
  await server.close();
});

describe('airlock call on a task', () => {
  it('cancels the task on Ctrl-C: the server receives tasks/cancel and the call ends cancelled (exit 130)', async () => {
    const dir = scratchDir('airlock-cli-task-');
    const config = join(dir, 'airlock.config.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { reports: { url: server.url } } }));
    const child = spawn(
      process.execPath,
      [
        BIN,
        'call',
        `reports/${REPORT_TOOL}`,
        '--args',
        '{"topic":"tide pools"}',
        '--allow',
        '--config',
        config,
        '--store',
        join(dir, 'airlock.db'),
      ],
      { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const closed = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    // The server has made the task and the CLI shows it working: then Ctrl-C.
    const taskId = await server.taskCreated();
    await new Promise<void>((working, failed) => {
      const look = () => {
        if (stderr.includes('working')) working();
      };
      child.stderr.on('data', look);
      look();
      void closed.then(() => failed(new Error(`the CLI ended before the task worked: ${stderr}`)));
    });
    child.kill('SIGINT');

    expect(await closed).toBe(130);
    expect(server.cancels).toEqual([taskId]);
    expect(stderr).toContain('cancelling');
    expect(stderr).toContain(`${REPORT_TOOL} · reports · cancelled`);
  });
});

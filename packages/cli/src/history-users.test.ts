import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { createHost } from '@airlock/core';
import { SqliteStore } from '@airlock/core/sqlite';
import { ScriptedSurface, scratchDir } from '@airlock/core/testing';
import { describe, expect, it } from 'vitest';

// `airlock history` on the file the console writes: a host makes calls as a console user would (a sign-in name, two
// chat conversations) on the demo server over stdio, then the built CLI lists them with --user, in every
// conversation, and shows one by a prefix of its id; the OS user's own history does not include them.

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../dist/bin.js');
const DEMO = resolve(here, '../../demo-server/dist/bin.js');

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

describe('airlock history --user', () => {
  it("lists a console user's calls in every conversation, and shows one by its prefix", async () => {
    const dir = scratchDir('airlock-history-users-');
    const store = join(dir, 'airlock.db');
    const config = join(dir, 'airlock.config.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { demo: { command: process.execPath, args: [DEMO] } } }));
    const host = createHost({
      servers: [
        {
          id: 'demo',
          transport: 'stdio',
          command: process.execPath,
          args: [DEMO],
          env: {},
          trusted: false,
          disabled: false,
        },
      ],
      store: new SqliteStore({ database: new Database(store) }),
      surface: new ScriptedSurface('allow_once'),
    });
    await host.servers.settled();
    const ids: string[] = [];
    for (const conversationId of ['main', 'c-second']) {
      const result = await host.invoke({
        scope: { userId: 'ana', workspaceId: 'default', conversationId },
        caller: { kind: 'model' },
        tool: 'demo__echo',
        args: { text: `from ${conversationId}` },
      });
      ids.push(result.invocationId);
    }
    await host.close();
    const common = ['--config', config, '--store', store];

    const listed = await run(['history', '--user', 'ana', '--json', ...common]);
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as { id: string; scope: { conversationId: string } }[];
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(rows.map((r) => r.scope.conversationId).sort()).toEqual(['c-second', 'main']);

    const shown = await run(['history', 'show', ids[1]!.slice(0, 16), '--user', 'ana', '--full', ...common]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('from c-second');

    // Another user's history is theirs alone.
    const mine = JSON.parse((await run(['history', '--user', 'bob', '--json', ...common])).stdout) as unknown[];
    expect(mine).toEqual([]);
    const bad = await run(['history', '--user', '../ana', ...common]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--user must be 1-64 letters');
  }, 30_000);
});

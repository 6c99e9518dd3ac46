import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchDir } from '@airlock/core/testing';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../dist/bin.js');
const EVERYTHING = resolve(here, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const BROKEN = "process.stderr.write('cannot open config: \\x1b[31mdenied\\n'); process.exit(2)";

/** A fresh directory with server-everything and a server that cannot start, and its own history file. */
function workspace() {
  const dir = scratchDir('airlock-servers-');
  const config = join(dir, 'airlock.config.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
        broken: { command: process.execPath, args: ['-e', BROKEN] },
      },
    }),
  );
  return ['--config', config, '--store', join(dir, 'airlock.db')];
}

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

describe('airlock servers, servers logs and tools hide/show', () => {
  it('shows state, protocol and counts, why a server failed and that it does not retry, and its stderr', async () => {
    const ws = workspace();
    const listed = await run(['servers', ...ws]);
    expect(listed.stdout).toMatch(
      /everything · ready · stdio · untrusted · \d+ tools, \d+ resources, \d+ prompts · protocol 2025-11-25/,
    );
    expect(listed.stdout).toMatch(/broken · failed · stdio · untrusted · 0 tools/);
    expect(listed.stdout).toContain('(stderr: cannot open config: \\x1b[31mdenied)');
    expect(listed.stdout).toContain('not retrying on its own');
    const logs = await run(['servers', 'logs', 'broken', ...ws]);
    expect(logs.code).toBe(0);
    expect(logs.stdout).toMatch(/ stderr cannot open config: \\x1b\[31mdenied\n$/);
    const banner = await run(['servers', 'logs', 'everything', ...ws]);
    expect(banner.stdout).toContain('stderr Starting default (STDIO) server...');
    expect((await run(['servers', 'logs', ...ws])).stderr).toContain('servers logs needs a server id');
  }, 60_000);

  it('hides a tool from the model for this user, kept in the history file, and shows it again', async () => {
    const ws = workspace();
    const hidden = await run(['tools', 'hide', 'everything/echo', ...ws]);
    expect(hidden.stdout).toBe('everything/echo is now hidden from the model for you\n');
    const model = await run(['tools', '--server', 'everything', ...ws]);
    expect(model.stdout).not.toContain('everything__echo');
    expect(model.stdout).toContain('everything__get-sum');
    const user = await run(['tools', '--audience', 'user', '--server', 'everything', ...ws]);
    expect(user.stdout).toContain('everything__echo');
    expect((await run(['tools', 'show', 'everything/echo', ...ws])).stdout).toBe(
      'everything/echo is now shown to the model for you\n',
    );
    expect((await run(['tools', '--server', 'everything', ...ws])).stdout).toContain('everything__echo');
    expect((await run(['tools', 'hide', 'everything/nope', ...ws])).stderr).toContain(
      'server "everything" has no tool nope',
    );
  }, 60_000);
});

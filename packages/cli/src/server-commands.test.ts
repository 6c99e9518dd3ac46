import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchDir } from '@airlock/core/testing';
import { runCli } from '../../../test/support/cli/run-cli.js';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
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

describe('airlock servers, servers logs and tools hide/show', () => {
  it('shows state, protocol and counts, why a server failed and that it does not retry, and its stderr', async () => {
    const ws = workspace();
    const listed = await runCli(['servers', ...ws]);
    expect(listed.stdout).toMatch(
      /everything · ready · stdio · untrusted · \d+ tools, \d+ resources, \d+ prompts · protocol 2025-11-25/,
    );
    expect(listed.stdout).toMatch(/broken · failed · stdio · untrusted · 0 tools/);
    expect(listed.stdout).toContain('(stderr: cannot open config: \\x1b[31mdenied)');
    expect(listed.stdout).toContain('not retrying on its own');
    const logs = await runCli(['servers', 'logs', 'broken', ...ws]);
    expect(logs.code).toBe(0);
    expect(logs.stdout).toMatch(/ stderr cannot open config: \\x1b\[31mdenied\n$/);
    const banner = await runCli(['servers', 'logs', 'everything', ...ws]);
    expect(banner.stdout).toContain('stderr Starting default (STDIO) server...');
    expect((await runCli(['servers', 'logs', ...ws])).stderr).toContain('servers logs needs a server id');
  }, 60_000);

  it('hides a tool from the model for this user, kept in the history file, and shows it again', async () => {
    const ws = workspace();
    const hidden = await runCli(['tools', 'hide', 'everything/echo', ...ws]);
    expect(hidden.stdout).toBe('everything/echo is now hidden from the model for you\n');
    const model = await runCli(['tools', '--server', 'everything', ...ws]);
    expect(model.stdout).not.toContain('everything__echo');
    expect(model.stdout).toContain('everything__get-sum');
    const user = await runCli(['tools', '--audience', 'user', '--server', 'everything', ...ws]);
    expect(user.stdout).toContain('everything__echo');
    expect((await runCli(['tools', 'show', 'everything/echo', ...ws])).stdout).toBe(
      'everything/echo is now shown to the model for you\n',
    );
    expect((await runCli(['tools', '--server', 'everything', ...ws])).stdout).toContain('everything__echo');
    expect((await runCli(['tools', 'hide', 'everything/nope', ...ws])).stderr).toContain(
      'server "everything" has no tool nope',
    );
  }, 60_000);
});

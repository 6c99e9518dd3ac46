import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchDir } from '@airlock/core/testing';
import { runCli } from '../../../test/support/cli/run-cli.js';
import { describe, expect, it } from 'vitest';
import { terminalText } from './resource-commands.js';

const here = dirname(fileURLToPath(import.meta.url));
const EVERYTHING = resolve(here, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = resolve(here, '../../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

/** A fresh directory with server-everything configured and its own history file. */
function workspace() {
  const dir = scratchDir('airlock-resources-');
  const config = join(dir, 'airlock.config.json');
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }),
  );
  return ['--config', config, '--store', join(dir, 'airlock.db')];
}

describe('airlock resources, read, prompts and prompt against server-everything', () => {
  it('lists resources and templates, reads one (audited), and names the server and URI of an unknown one', async () => {
    const ws = workspace();
    const listed = await runCli(['resources', ...ws]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(
      'demo://resource/static/document/architecture.md  (everything) · architecture.md · text/markdown',
    );
    expect(listed.stdout).toContain('demo://resource/dynamic/text/{resourceId}  (everything)');
    const json = JSON.parse((await runCli(['resources', '--server', 'everything', '--json', ...ws])).stdout) as {
      resources: { serverId: string }[];
    };
    expect(json.resources.length).toBeGreaterThan(0);
    const read = await runCli(['read', 'everything', 'demo://resource/dynamic/text/4', ...ws]);
    expect(read).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Resource 4: /) });
    const audit = await runCli(['audit', '--json', ...ws]);
    expect(audit.stdout).toContain('"resource.read"');
    expect(audit.stdout).not.toContain('dynamic/text/4');
    const missing = await runCli(['read', 'everything', 'demo://nope', ...ws]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('server "everything" answered the read of resource "demo://nope"');
  }, 60_000);

  it('lists prompts with their arguments and fills one from --args', async () => {
    const ws = workspace();
    const listed = await runCli(['prompts', ...ws]);
    expect(listed.stdout).toContain('completable-prompt  (everything) [department*, name*]');
    const filled = await runCli([
      'prompt',
      'everything',
      'completable-prompt',
      '--args',
      '{"department":"Sales","name":"Eve"}',
      ...ws,
    ]);
    expect(filled).toMatchObject({ code: 0, stdout: 'user: Please promote Eve to the head of the Sales team.\n' });
  }, 60_000);

  it('checks the arguments before any server starts', async () => {
    const cases: [string[], string][] = [
      [['read', 'everything'], 'read needs SERVER URI'],
      [['prompt', 'everything', 'x', '--args', '[1]'], '--args of a prompt must be a JSON object'],
      [['prompt', 'everything', 'x', '--args', '{"a":1}'], '--args: the value of "a" must be text'],
      [['resources', 'extra'], 'unexpected argument extra after resources'],
    ];
    for (const [args, error] of cases) {
      const result = await runCli(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(error);
    }
  });
});

describe('airlock against server-filesystem in a temporary directory', () => {
  it('lists no resources or prompts, refuses a read by name, and reads its files through its tools', async () => {
    const dir = scratchDir('airlock-fs-cli-');
    const files = join(dir, 'files');
    mkdirSync(files);
    writeFileSync(join(files, 'notes.txt'), 'first line\nsecond line\n');
    const config = join(dir, 'airlock.config.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { files: { command: process.execPath, args: [FILESYSTEM, files] } } }),
    );
    const ws = ['--config', config, '--store', join(dir, 'airlock.db')];
    const listed = await runCli(['resources', '--server', 'files', ...ws]);
    expect(listed).toMatchObject({ code: 0, stdout: 'resources\n  (none)\n\nresource templates\n  (none)\n' });
    expect((await runCli(['prompts', '--server', 'files', ...ws])).stdout).toBe('  (none)\n');
    const read = await runCli(['read', 'files', `file://${join(files, 'notes.txt')}`, ...ws]);
    expect(read.code).not.toBe(0);
    expect(read.stderr).toContain('server "files" offers no resources (it declares no "resources" capability)');
    const args = JSON.stringify({ path: join(files, 'notes.txt') });
    const called = await runCli(['call', 'files/read_text_file', '--args', args, '--allow', ...ws]);
    expect(called.code).toBe(0);
    expect(called.stdout).toMatch(/first line\n\s*second line/);
  }, 60_000);
});

describe('airlock read --full', () => {
  it("prints the whole of a read, fetched by the read's handle", async () => {
    const ws = workspace();
    const cut = await runCli(['read', 'everything', 'demo://resource/static/document/architecture.md', ...ws]);
    const whole = await runCli([
      'read',
      'everything',
      'demo://resource/static/document/architecture.md',
      '--full',
      ...ws,
    ]);
    expect(whole.code).toBe(0);
    expect(whole.stdout.startsWith(cut.stdout.slice(0, 200))).toBe(true);
    const json = JSON.parse(
      (
        await runCli([
          'read',
          'everything',
          'demo://resource/static/document/architecture.md',
          '--full',
          '--json',
          ...ws,
        ])
      ).stdout,
    ) as { handle: string; contents: { text: string }[] };
    expect(json.handle).toMatch(/^airlock:read\//);
    expect(whole.stdout).toBe(`${json.contents[0]!.text}${json.contents[0]!.text.endsWith('\n') ? '' : '\n'}`);
  }, 60_000);
});

describe('terminalText', () => {
  it('shows control characters from a server as \\xNN, keeping tabs and newlines', () => {
    expect(terminalText('a\u001b]0;owned\u0007b\r\tc\n')).toBe('a\\x1b]0;owned\\x07b\\x0d\tc\n');
  });
});

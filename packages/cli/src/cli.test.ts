import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { scratchDir } from '@airlock/core/testing';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../dist/bin.js');
const DEMO = resolve(here, '../../demo-server/dist/bin.js');

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A fresh workspace: a config with the demo server (logging its calls) and an empty history file. */
function workspace(extra: Record<string, unknown> = {}) {
  const dir = scratchDir('airlock-cli-');
  const log = join(dir, 'calls.ndjson');
  const config = join(dir, 'airlock.config.json');
  writeFileSync(
    config,
    JSON.stringify(
      {
        mcpServers: { demo: { command: process.execPath, args: [DEMO], env: { AIRLOCK_DEMO_CALL_LOG: log } } },
        ...extra,
      },
      null,
      2,
    ),
  );
  return { dir, log, config, store: join(dir, 'airlock.db') };
}

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** Runs the CLI in a pseudo-terminal (python's pty module) and types `keys` once `prompt` has been printed. */
function runInTerminal(
  args: string[],
  steps: { prompt: string; keys: string }[],
  env: NodeJS.ProcessEnv = {},
): Promise<Run> {
  return new Promise((resolvePromise) => {
    const child = spawn(
      'python3',
      ['-c', 'import pty, sys; sys.exit(pty.spawn(sys.argv[1:]) >> 8)', process.execPath, BIN, ...args],
      // The words are what these tests read; colour in a terminal has its own test (cli-habits.test.ts).
      { env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let output = '';
    const pending = [...steps];
    let seen = 0;
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      // Each step waits for a new occurrence of its prompt after the last one answered.
      for (let next = pending[0]; next !== undefined; next = pending[0]) {
        const at = output.indexOf(next.prompt, seen);
        if (at === -1) break;
        seen = at + next.prompt.length;
        pending.shift();
        child.stdin.write(next.keys);
      }
    });
    child.on('close', (code) => resolvePromise({ code, stdout: output, stderr: '' }));
  });
}

describe('airlock call', () => {
  it('denies a call when nothing decided and no terminal can ask, and says how to allow', async () => {
    const w = workspace();
    const r = await run(['call', 'demo/echo', '--args', '{"text":"hi"}', '--config', w.config, '--store', w.store]);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/needs your permission and this is not a terminal.*\n.*--allow/);
    expect(r.stderr).toMatch(/⊘ echo · demo · cancelled \(permission_denied\)/);
  });

  it('runs an allowed call and prints the card: header, arguments, result', async () => {
    const w = workspace();
    const r = await run([
      'call',
      'demo/echo',
      '--args',
      '{"text":"hello card"}',
      '--allow',
      '--config',
      w.config,
      '--store',
      w.store,
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('… echo · demo · pending');
    expect(r.stderr).toContain('"text": "hello card"');
    expect(r.stderr).toContain('✓ echo · demo · success');
    expect(r.stdout).toContain('hello card');
    const history = await run(['history', '--config', w.config, '--store', w.store]);
    expect(history.stdout).toMatch(/✓ echo · demo · success/);
  });

  it('gives each outcome its own exit code', async () => {
    const w = workspace();
    const common = ['--allow', '--config', w.config, '--store', w.store];
    expect((await run(['call', 'demo/fail_tool', ...common])).code).toBe(1);
    expect((await run(['call', 'demo/protocol_error', ...common])).code).toBe(3);
    expect((await run(['call', 'demo/hang', '--timeout', '200', ...common])).code).toBe(5);
    expect((await run(['call', 'demo/bad_structured', ...common])).code).toBe(6);
  });

  it('cancels a running call on Ctrl-C and exits 130', async () => {
    const w = workspace();
    const r = await runInTerminal(
      [
        'call',
        'demo/slow_task',
        '--args',
        '{"steps":100,"stepMs":100}',
        '--allow',
        '--config',
        w.config,
        '--store',
        w.store,
      ],
      // Progress means the server is working on it (in a terminal, a bar redrawn in place); then Ctrl-C.
      [{ prompt: '1/100', keys: '\u0003' }],
    );
    expect(r.code).toBe(130);
    expect(r.stdout).toContain('\r\u001b[2K  [');
    expect(r.stdout).toMatch(/\] {2}1\/100 {2}1%/);
    expect(r.stdout).toContain('cancelling');
    expect(r.stdout).toContain('⊘ slow_task · demo · cancelled');
    // The terminal sends SIGINT to the whole foreground group, the server process included, so the server may be
    // gone before the cancellation notification reaches it; the host side is what this test can hold to.
    expect(readFileSync(w.log, 'utf8')).toContain('"event":"call","tool":"slow_task"');
  });

  it('refuses bad --args JSON, an unknown tool and arguments that fail the schema before anything is sent', async () => {
    const w = workspace();
    const common = ['--allow', '--config', w.config, '--store', w.store];
    const badJson = await run(['call', 'demo/echo', '--args', '{text:', ...common]);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toMatch(/--args is not valid JSON/);
    expect((await run(['call', 'demo/nope', ...common])).stderr).toMatch(/server "demo" has no tool nope/);
    expect((await run(['call', 'demo/echo', '--args', '{"text":1}', ...common])).stderr).toMatch(
      /\/text must be string/,
    );
  });

  it('reports a rules file with a syntax error with its line and column', async () => {
    const w = workspace();
    const rules = join(w.dir, 'rules.json');
    writeFileSync(rules, '{\n  "rules": [\n    { "effect": "allow" "server": "demo" }\n  ]\n}\n');
    const r = await run([
      'call',
      'demo/echo',
      '--args',
      '{"text":"x"}',
      '--rules',
      rules,
      '--config',
      w.config,
      '--store',
      w.store,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${rules}:3:25: not valid JSON (CommaExpected)`);
  });
});

describe('the terminal permission prompt', () => {
  it('shows tool, server, risk, annotations and the full arguments; 2 allows always, and the next call is not asked', async () => {
    const w = workspace();
    const args = [
      'call',
      'demo/echo',
      '--args',
      '{"text":"from a terminal"}',
      '--config',
      w.config,
      '--store',
      w.store,
    ];
    const first = await runInTerminal(args, [{ prompt: 'Choose 1-5', keys: '2' }]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Allow this tool to run?');
    expect(first.stdout).toContain('Echo (echo) · From demo (untrusted) · Medium risk');
    expect(first.stdout).toContain('Unverified hints from an untrusted server');
    expect(first.stdout).toContain('• Only reads data');
    expect(first.stdout).toContain('"text": "from a terminal"');
    expect(first.stdout).toMatch(/\[1\] Allow once ←\s+\[2\] Allow always\s+\[3\] Deny once\s+\[4\] Deny always/);
    const second = await runInTerminal(args, []);
    expect(second.code).toBe(0);
    expect(second.stdout).not.toContain('Allow this tool to run?');
    const list = await run(['permissions', 'list', '--config', w.config, '--store', w.store]);
    expect(list.stdout).toMatch(/allow always {2}demo\/echo {2}any arguments {2}risk medium {2}expires /);
    const audit = await run(['audit', '--verify', '--config', w.config, '--store', w.store]);
    expect(audit.code).toBe(0);
    expect(audit.stdout).toMatch(/audit chain intact: \d+ events/);
    const exported = await run(['audit', '--export', '--config', w.config, '--store', w.store]);
    const origins = exported.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; data: { origin?: string } })
      .filter((e) => e.type === 'permission.decision')
      .map((e) => e.data.origin);
    expect(origins).toEqual(['user_prompt', 'cache_hit']);

    const db = new Database(w.store);
    db.prepare("UPDATE audit_events SET data = json_set(data, '$.decision', 'deny_once') WHERE seq = 2").run();
    db.close();
    const tampered = await run(['audit', '--verify', '--config', w.config, '--store', w.store]);
    expect(tampered.code).toBe(8);
    expect(tampered.stdout).toMatch(/audit chain BROKEN at event 2 .*: event 2 was edited/);
  });

  it('denies once on Esc, with the server never called', async () => {
    const w = workspace();
    const r = await runInTerminal(
      ['call', 'demo/echo', '--args', '{"text":"x"}', '--config', w.config, '--store', w.store],
      [{ prompt: 'Choose 1-5', keys: '\u001b' }],
    );
    expect(r.code).toBe(7);
    expect(r.stdout).toContain('Deny once');
  });

  it('does not offer allow always for a destructive tool, and Enter takes the default, deny once', async () => {
    const w = workspace();
    const r = await runInTerminal(
      ['call', 'demo/delete_note', '--args', '{"id":"n1"}', '--config', w.config, '--store', w.store],
      // 2 (allow always) is not accepted here; Enter then takes the default.
      [{ prompt: 'Choose 1-5', keys: '2\r' }],
    );
    expect(r.stdout).toContain('(2) —');
    expect(r.stdout).toContain('[3] Deny once ←');
    expect(r.stdout).toContain('Allow always is not offered for tools that may modify or delete data.');
    expect(r.code).toBe(7);
  });

  it('speaks Brazilian Portuguese when LANG says so', async () => {
    const w = workspace();
    const r = await runInTerminal(
      ['call', 'demo/echo', '--args', '{"text":"oi"}', '--config', w.config, '--store', w.store],
      [{ prompt: 'Escolha 1-5', keys: '1' }],
      { LANG: 'pt_BR.UTF-8' },
    );
    expect(r.stdout).toContain('Permitir execução desta ferramenta?');
    expect(r.stdout).toContain('Risco médio');
    expect(r.stdout).toContain('[1] Permitir uma vez');
    expect(r.code).toBe(0);
  });
});

describe('server questions at the terminal', () => {
  it('asks a form field by field with validation, and sends the answer', async () => {
    const w = workspace();
    const r = await runInTerminal(
      ['call', 'demo/ask_user', '--config', w.config, '--store', w.store],
      [
        { prompt: 'Choose 1-5', keys: '1' },
        { prompt: 'Name *', keys: '\r' },
        { prompt: '! Required', keys: 'Ana\r' },
        { prompt: 'Age', keys: 'old\r' },
        { prompt: '  ! ', keys: '30\r' },
        { prompt: 'Enter submits', keys: '\r' },
      ],
    );
    expect(r.stdout).toContain('The server demo asks:');
    expect(r.stdout).toContain('Name *');
    expect(r.stdout).toContain('Age');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('action "accept" and content {"name":"Ana","age":30}');
  });

  it('shows a URL with its host, and opens the browser only after the user says yes', async () => {
    const w = workspace();
    const opened = join(w.dir, 'opened.txt');
    const browser = join(w.dir, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`, { mode: 0o755 });
    const r = await runInTerminal(
      ['call', 'demo/connect_account', '--config', w.config, '--store', w.store],
      [
        { prompt: 'Choose 1-5', keys: '1' },
        { prompt: '[y/N]', keys: 'y\r' },
      ],
      { BROWSER: browser },
    );
    expect(r.stdout).toMatch(/https:\/\/example\.com\/connect\?session=\S+/);
    expect(r.stdout).toContain('Site: >>> example.com <<<');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Account connected');
    const url = /https:\/\/example\.com\/connect\?session=[\w-]+/.exec(r.stdout)?.[0];
    await expect.poll(() => (existsSync(opened) ? readFileSync(opened, 'utf8') : ''), { timeout: 10_000 }).toBe(url);
  });
});

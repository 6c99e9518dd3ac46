import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { SqliteStore } from '@airlock/core/sqlite';
import { scratchDir } from '@airlock/core/testing';
import { describe, expect, it } from 'vitest';

// The habits of a good CLI, on the built bin as a user runs it: colour only where it belongs, ids by prefix, the
// command line checked before any server starts, --json that parses, shell completion, the config's store.path.

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../dist/bin.js');
const DEMO = resolve(here, '../../demo-server/dist/bin.js');
const ESC = '\u001b[';

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment without anything that decides colour or the history file, plus `env`. */
function cleanEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const key of ['NO_COLOR', 'FORCE_COLOR', 'AIRLOCK_STORE', 'TERM']) delete base[key];
  return { ...base, TERM: 'xterm-256color', ...env };
}

function run(args: string[], env: NodeJS.ProcessEnv = {}, command = process.execPath, pre = [BIN]): Promise<Run> {
  return new Promise((resolvePromise) => {
    const child = spawn(command, [...pre, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** Runs the CLI with a pseudo-terminal as stdin, stdout and stderr (python's pty module); output is both streams. */
function runInTerminal(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const script = 'import pty, sys; sys.exit(pty.spawn(sys.argv[1:]) >> 8)';
  return run(args, env, 'python3', ['-c', script, process.execPath, BIN]);
}

/** A workspace: the demo server, and a second "probe" server that leaves a marker file when it is started. */
function workspace(extra: Record<string, unknown> = {}) {
  const dir = scratchDir('airlock-habits-');
  const marker = join(dir, 'probe-started');
  const config = join(dir, 'airlock.config.json');
  const probe = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'started')`;
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        demo: { command: process.execPath, args: [DEMO] },
        probe: { command: process.execPath, args: ['-e', probe] },
      },
      ...extra,
    }),
  );
  const store = join(dir, 'airlock.db');
  return { dir, config, marker, store, common: ['--config', config, '--store', store] };
}

describe('colour', () => {
  it('colours state and risk in a terminal, and never with NO_COLOR, in a pipe, or in --json', async () => {
    const w = workspace();
    const tty = await runInTerminal(['servers', '--server', 'demo', ...w.common]);
    expect(tty.stdout).toContain(`${ESC}32mready${ESC}39m`);

    const noColor = await runInTerminal(['servers', '--server', 'demo', ...w.common], { NO_COLOR: '1' });
    expect(noColor.stdout).toContain('demo · ready · stdio');
    expect(noColor.stdout).not.toContain(ESC);

    const piped = await run(['servers', '--server', 'demo', ...w.common]);
    expect(piped.stdout).toContain('demo · ready · stdio');
    expect(piped.stdout).not.toContain(ESC);

    const json = await run(['servers', '--server', 'demo', '--json', ...w.common], { FORCE_COLOR: '1' });
    expect(json.stdout).not.toContain(ESC);
    expect(JSON.parse(json.stdout)).toContainEqual(expect.objectContaining({ id: 'demo', state: 'ready' }));
  });

  it('FORCE_COLOR turns colour on for a pipe, and FORCE_COLOR=0 off', async () => {
    const w = workspace();
    const forced = await run(['call', 'demo/echo', '--args', '{"text":"hi"}', '--allow', ...w.common], {
      FORCE_COLOR: '1',
    });
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain(`${ESC}32m✓${ESC}39m`);
    const history = await run(['history', ...w.common], { FORCE_COLOR: '1', NO_COLOR: '1' });
    expect(history.stdout).toContain(`${ESC}32msuccess${ESC}39m`);
    const off = await run(['history', ...w.common], { FORCE_COLOR: '0' });
    expect(off.stdout).toContain('✓ echo · demo · success');
    expect(off.stdout).not.toContain(ESC);
  });
});

describe('ids', () => {
  it('shows a call by a prefix of its id, names the candidates of an ambiguous one, and says when none matches', async () => {
    const w = workspace();
    for (const text of ['one', 'two']) {
      expect((await run(['call', 'demo/echo', '--args', JSON.stringify({ text }), '--allow', ...w.common])).code).toBe(
        0,
      );
    }
    // Two ids that share their first characters, as a long history has.
    const rows = JSON.parse((await run(['history', '--json', ...w.common])).stdout) as { id: string }[];
    const ids = ['abcd0000-0000-4000-8000-000000000001', 'abcd1111-0000-4000-8000-000000000002'];
    const db = new Database(w.store);
    db.pragma('foreign_keys = OFF');
    rows.forEach((row, i) => {
      for (const [table, column] of [
        ['invocations', 'id'],
        ['invocation_transitions', 'invocation_id'],
        ['invocation_results', 'invocation_id'],
      ] as const) {
        db.prepare(`UPDATE ${table} SET ${column} = ? WHERE ${column} = ?`).run(ids[i], row.id);
      }
    });
    db.close();

    const unique = await run(['history', 'show', 'abcd1', ...w.common]);
    expect(unique.code).toBe(0);
    expect(unique.stdout).toContain('✓ echo · demo · success');
    expect(unique.stdout).toContain(ids[1]);

    const ambiguous = await run(['history', 'show', 'abcd', ...w.common]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('invocation prefix abcd is ambiguous: 2 match');
    expect(ambiguous.stderr).toContain(`  ${ids[0]}\n`);
    expect(ambiguous.stderr).toContain(`  ${ids[1]}\n`);

    const none = await run(['history', 'show', 'ffff', ...w.common]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no invocation ffff in this workspace');
  });

  it('revokes a stored decision by a prefix of its id', async () => {
    const w = workspace();
    // An allow-always decision comes from the terminal prompt: answer "allow always" (2). The prompt paints the risk.
    const asked = await runInTerminalAnswering(['call', 'demo/echo', '--args', '{"text":"x"}', ...w.common], '2');
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain(`${ESC}33mMedium risk${ESC}39m`);
    const decisions = JSON.parse((await run(['permissions', 'list', '--json', ...w.common])).stdout) as {
      id: string;
    }[];
    expect(decisions).toHaveLength(1);
    const revoked = await run(['permissions', 'revoke', decisions[0]?.id.slice(0, 6) ?? '', '--json', ...w.common]);
    expect(JSON.parse(revoked.stdout)).toEqual({ revoked: 1 });
  });

  it('names the real id in the hint under a collapsed result', async () => {
    const w = workspace();
    const r = await run(['call', 'demo/huge_output', '--args', '{"megabytes":0.01}', '--allow', ...w.common]);
    expect(r.code).toBe(0);
    const [row] = JSON.parse((await run(['history', '--json', ...w.common])).stdout) as { id: string }[];
    expect(r.stdout).toContain(`(run with --full, or airlock history show ${row?.id} --full)`);
    expect(r.stdout).not.toContain('<id>');
  });
});

/** Runs the CLI in a pseudo-terminal and types `key` once the permission prompt asks. */
function runInTerminalAnswering(args: string[], key: string): Promise<Run> {
  return new Promise((resolvePromise) => {
    const script = 'import pty, sys; sys.exit(pty.spawn(sys.argv[1:]) >> 8)';
    const child = spawn('python3', ['-c', script, process.execPath, BIN, ...args], {
      env: cleanEnv({}),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let answered = false;
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      if (!answered && output.includes('Choose 1-5')) {
        answered = true;
        child.stdin.write(key);
      }
    });
    child.on('close', (code) => resolvePromise({ code, stdout: output, stderr: '' }));
  });
}

describe('the command line is checked before any server starts', () => {
  it.each([
    [['call'], 'call needs SERVER/TOOL'],
    [['call', 'probe'], 'call needs SERVER/TOOL'],
    [['call', 'probe/x', '--args', '{oops'], '--args is not valid JSON'],
    [['call', 'probe/x', '--timeout', 'soon'], '--timeout must be a positive number of milliseconds, not soon'],
    [['tools', '--audience', 'robots'], '--audience must be model, app or user, not robots'],
    [['tools', '--audience', 'app'], '--audience app needs --server'],
    [['tools', '--no-such-flag'], 'unknown option --no-such-flag'],
    [['servers', 'extra'], 'unknown servers action extra: use logs, disable or enable'],
    [['history', 'show'], 'history show needs an invocation id'],
    [['history', '--limit', '0'], '--limit must be a positive integer, not 0'],
    [['permissions', 'explain'], 'permissions explain needs SERVER/TOOL'],
    [['permissions', 'revoke'], 'permissions revoke takes a decision ID'],
    [['permissions', 'forget'], 'unknown permissions action forget'],
    [['audit', '--export', '--format', 'csv'], '--format must be ndjson or seed, not csv'],
    [['completion', 'tcsh'], 'completion supports bash, zsh or fish, not tcsh'],
    [['frobnicate'], 'unknown command frobnicate'],
  ])('airlock %j fails at once (exit 2) and starts no server', async (args, message) => {
    const w = workspace();
    const r = await run([...args, ...w.common]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(existsSync(w.marker)).toBe(false);
  });

  it('starts the servers once the command line is right (the probe above does leave its marker)', async () => {
    const w = workspace();
    await run(['servers', ...w.common]);
    expect(existsSync(w.marker)).toBe(true);
  });
});

describe('--json on every list', () => {
  it('prints one JSON document on stdout for the overview, servers, tools, history, permissions, audit, retention', async () => {
    const w = workspace();
    const only = ['--server', 'demo'];
    expect((await run(['call', 'demo/echo', '--args', '{"text":"j"}', '--allow', ...w.common])).code).toBe(0);
    const lists: [string[], (value: unknown) => void][] = [
      [['--json', ...only], (v) => expect(v).toMatchObject({ servers: expect.any(Array), tools: expect.any(Array) })],
      [
        ['servers', '--json', ...only],
        (v) => expect(v).toContainEqual(expect.objectContaining({ id: 'demo', state: 'ready' })),
      ],
      [['tools', '--json', ...only], (v) => expect(v).toContainEqual(expect.objectContaining({ name: 'demo__echo' }))],
      [['history', '--json'], (v) => expect(v).toEqual([expect.objectContaining({ originalName: 'echo' })])],
      [['permissions', 'list', '--json'], (v) => expect(v).toEqual([])],
      [['audit', '--json'], (v) => expect(Array.isArray(v)).toBe(true)],
      [['retention', '--dry-run', '--json'], (v) => expect(v).toMatchObject({ invocations: 0, auditEvents: 0 })],
    ];
    for (const [args, check] of lists) {
      const r = await run([...args, ...w.common], { FORCE_COLOR: '1' });
      expect(r.stderr, args.join(' ')).not.toMatch(/"level":"warn"/);
      check(JSON.parse(r.stdout));
    }
  });
});

describe('shell completion', () => {
  /** What bash offers for `line` through the script `airlock completion bash` prints, `airlock` being the built CLI. */
  const complete = async (line: string) => {
    const words = line.split(' ');
    const script = [
      `airlock() { "${process.execPath}" "${BIN}" "$@"; }`,
      `source <(airlock completion bash)`,
      `COMP_WORDS=(${words.map((word) => `"${word}"`).join(' ')}); COMP_CWORD=${words.length - 1}`,
      '_airlock; echo "${COMPREPLY[@]}"',
    ].join('\n');
    return (await run(['-c', script], {}, 'bash', [])).stdout.trim().split(' ');
  };

  it('bash: completes commands, actions and options through the script it prints', async () => {
    expect(await complete('airlock hi')).toEqual(['history']);
    expect(await complete('airlock permissions re')).toEqual(['revoke']);
    expect(await complete('airlock tools --aud')).toEqual(['--audience']);
    expect(await complete('airlock tools --audience ')).toEqual(['model', 'app', 'user']);
  });

  it("bash: offers the config's server ids and the tools used before, from the config and history given", async () => {
    const w = workspace();
    const called = await run(['call', 'demo/echo', '--args', '{"text":"hi"}', '--allow', ...w.common]);
    expect(called.code).toBe(0);
    const given = `--config ${w.config} --store ${w.store}`;
    expect(await complete(`airlock servers disable ${given} `)).toEqual(['demo', 'probe']);
    expect(await complete(`airlock ${given} call d`)).toEqual(['demo/echo']);
    expect(await complete(`airlock permissions explain ${given} `)).toEqual(['demo/echo']);
    expect(await complete(`airlock servers ${given} --server p`)).toEqual(['probe']);
    expect(await complete(`airlock tools ${given} `)).toEqual(['hide', 'show', 'demo/echo']);
    // The probe server leaves a marker when started: completing started no server.
    expect(existsSync(w.marker)).toBe(false);
  });

  it('bash: offers no tools, and creates no history file, where nothing was called', async () => {
    const w = workspace();
    expect(await complete(`airlock call --config ${w.config} --store ${w.store} `)).toEqual(['']);
    expect(existsSync(w.store)).toBe(false);
  });

  it('bash: never runs a tool name kept in history, and never offers it', async () => {
    const w = workspace();
    const marker = join(w.dir, 'ran');
    const store = new SqliteStore({ path: w.store });
    const name = `x$(touch ${marker})`;
    const userId = userInfo().username || 'local';
    await store.write([
      {
        kind: 'decision.put',
        audit: {
          type: 'permission.decision',
          at: 1,
          userId,
          workspaceId: 'default',
          conversationId: null,
          serverId: 'demo',
          tool: name,
          argsHash: null,
          riskTier: 'low',
          invocationId: null,
          data: {},
        },
        decision: {
          id: 'd1',
          userId,
          workspaceId: 'default',
          serverId: 'demo',
          serverIdentity: 'i',
          tool: name,
          argsHash: null,
          definitionHash: 'd',
          effect: 'deny',
          riskTier: 'low',
          grantedAt: 1,
          expiresAt: null,
          grantedBy: 'x',
        },
      },
    ]);
    await store.close();
    expect(await complete(`airlock call --config ${w.config} --store ${w.store} `)).toEqual(['']);
    expect(await complete(`airlock call --config ${w.config} --store ${w.store} demo/x`)).toEqual(['']);
    expect(existsSync(marker)).toBe(false);
  });

  it('zsh and fish: scripts naming every command and option', async () => {
    const zsh = await run(['completion', 'zsh']);
    expect(zsh.code).toBe(0);
    expect(zsh.stdout).toMatch(/^#compdef airlock\n/);
    expect(zsh.stdout).toContain(
      "'1:command:(servers tools call resources read prompts prompt history tasks permissions audit retention auth config inputs completion console gateway help)'",
    );
    const fish = await run(['completion', 'fish']);
    expect(fish.stdout).toContain(
      "complete -c airlock -n '__fish_seen_subcommand_from permissions' -a 'list revoke explain'",
    );
    expect(fish.stdout).toContain('complete -c airlock -l config -r -F');
  });
});

describe("the config's store.path", () => {
  it('keeps history in the file the config names when --store and $AIRLOCK_STORE do not', async () => {
    const w = workspace({ store: { path: 'from-config.db' } });
    const args = ['call', 'demo/echo', '--args', '{"text":"kept"}', '--allow', '--config', w.config];
    const r = await new Promise<Run>((resolvePromise) => {
      const child = spawn(process.execPath, [BIN, ...args], { cwd: w.dir, env: cleanEnv({}), stdio: 'pipe' });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolvePromise({ code, stdout: '', stderr }));
    });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(w.dir, 'from-config.db'))).toBe(true);
    const db = new Database(join(w.dir, 'from-config.db'), { readonly: true });
    expect(db.prepare('SELECT original_name AS name FROM invocations').all()).toEqual([{ name: 'echo' }]);
    db.close();
  });

  it('says which key is wrong when store.path is not a path', async () => {
    const w = workspace({ store: { path: 42 } });
    const r = await run(['history', '--config', w.config]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('store.path must be a file path or ":memory:"');
  });
});

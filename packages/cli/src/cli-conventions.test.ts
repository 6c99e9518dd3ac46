import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { didYouMean } from './did-you-mean.js';

// The conventions a user brings from gh and git, on the built bin: help per command, short usage errors with a hint,
// did-you-mean for commands, options, servers and tools, --args from a file or stdin, one tool in detail, and log
// warnings as sentences in a terminal (JSON lines for programs).

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../dist/bin.js');
const DEMO = resolve(here, '../../demo-server/dist/bin.js');

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A directory with a config naming the demo server (and `extra` servers), and a history file beside it. */
function workspace(extra: Record<string, unknown> = {}): { dir: string; common: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-conventions-'));
  dirs.push(dir);
  const config = join(dir, 'airlock.config.json');
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { demo: { command: process.execPath, args: [DEMO] }, ...extra } }),
  );
  return { dir, common: ['--config', config, '--store', join(dir, 'airlock.db')] };
}

function run(
  args: readonly string[],
  options: { stdin?: string; command?: string; pre?: string[] } = {},
): Promise<Run> {
  return new Promise((done) => {
    const env = { ...process.env };
    delete env['AIRLOCK_STORE'];
    const child = spawn(options.command ?? process.execPath, [...(options.pre ?? [BIN]), ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

/** Runs the CLI in a pseudo-terminal (util-linux `script`); stdout and stderr both arrive as stdout. */
function runInTerminal(args: readonly string[]): Promise<Run> {
  const quoted = [process.execPath, BIN, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  return run([], { command: 'script', pre: ['-qec', quoted, '/dev/null'] });
}

describe('help', () => {
  it('prints one page per command, the same for airlock help CMD and airlock CMD --help', async () => {
    const [help, flag, global] = await Promise.all([run(['help', 'call']), run(['call', '--help']), run(['help'])]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: airlock call SERVER\/TOOL/);
    expect(help.stdout).toContain('@FILE to read them from a file, - to read them from stdin');
    expect(flag.stdout).toBe(help.stdout);
    expect(help.stdout.split('\n').length).toBeLessThan(global.stdout.split('\n').length / 2);
    expect(global.stdout).toContain('airlock help [COMMAND]');
  });

  it('names no internal document in the global help', async () => {
    const help = await run(['--help']);
    expect(help.stdout).not.toMatch(/seed \d{3}|R\d\b/);
  });
});

describe('a usage error', () => {
  it("prints the error, the command's usage and a hint, not the whole help (exit 2)", async () => {
    const result = await run(['call']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'airlock: call needs SERVER/TOOL, e.g. demo/echo; got ""\n' +
        'usage: airlock call SERVER/TOOL [--args JSON|@FILE|-] [--allow] [--timeout MS] [--full] [--json]\n' +
        "Run 'airlock help call' for more.\n",
    );
  });

  it('says in our words that an option needs a value or takes none', async () => {
    expect((await run(['call', 'demo/echo', '--args'])).stderr).toMatch(/^airlock: --args needs a value\n/);
    expect((await run(['tools', '--json=yes'])).stderr).toMatch(/^airlock: --json takes no value\n/);
  });
});

describe('did you mean', () => {
  it('suggests the command, the option, the server and the tool closest to a typo', async () => {
    const w = workspace();
    const [command, option, server, tool, helpTopic] = await Promise.all([
      run(['tols']),
      run(['tools', '--jsn']),
      run(['call', 'dmeo/echo', ...w.common]),
      run(['call', 'demo/ecoh', '--allow', ...w.common]),
      run(['help', 'histroy']),
    ]);
    expect(command.stderr).toContain('unknown command tols. Did you mean tools?');
    expect(option.stderr).toContain('unknown option --jsn. Did you mean --json?');
    expect(option.stderr).not.toContain("Unknown option '--jsn'");
    expect(server.stderr).toContain('no server "dmeo"');
    expect(server.stderr).toContain('Did you mean demo?');
    expect(tool.stderr).toContain('server "demo" has no tool ecoh. Did you mean echo?');
    expect(helpTopic.stderr).toContain('Did you mean history?');
    for (const result of [command, option, server, tool, helpTopic]) expect(result.code).toBe(2);
  });

  it('offers nothing when no candidate is close', () => {
    expect(didYouMean('frobnicate', ['tools', 'servers', 'call'])).toBeUndefined();
    expect(didYouMean('sevrers', ['tools', 'servers', 'call'])).toBe('servers');
  });
});

describe('--args', () => {
  it('reads the arguments from @FILE and from stdin with -', async () => {
    const w = workspace();
    const file = join(w.dir, 'args.json');
    writeFileSync(file, JSON.stringify({ text: 'from a file' }));
    const fromFile = await run(['call', 'demo/echo', '--args', `@${file}`, '--allow', '--json', ...w.common]);
    const fromStdin = await run(['call', 'demo/echo', '--args', '-', '--allow', '--json', ...w.common], {
      stdin: JSON.stringify({ text: 'from stdin' }),
    });
    expect(fromFile.stdout).toContain('from a file');
    expect(fromStdin.stdout).toContain('from stdin');
    expect([fromFile.code, fromStdin.code]).toEqual([0, 0]);
  });

  it('names the file it cannot read and JSON that does not parse', async () => {
    const missing = await run(['call', 'demo/echo', '--args', '@/no/such/args.json']);
    expect(missing.stderr).toMatch(
      /^airlock: --args @\/no\/such\/args.json: cannot read \/no\/such\/args.json \(ENOENT\)/,
    );
    const broken = await run(['call', 'demo/echo', '--args', '-'], { stdin: '{oops' });
    expect(broken.stderr).toMatch(/^airlock: --args is not valid JSON/);
    expect([missing.code, broken.code]).toEqual([2, 2]);
  });
});

describe('airlock tools SERVER/TOOL', () => {
  it("shows one tool's input schema, annotations, risk and what a call would meet", async () => {
    const w = workspace();
    const text = await run(['tools', 'demo/echo', ...w.common]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('demo/echo');
    expect(text.stdout).toMatch(/risk (low|medium|high|critical): /);
    expect(text.stdout).toContain('readOnlyHint: true');
    expect(text.stdout).toContain('"text": {');
    expect(text.stdout).toContain('stored decisions: none');
    const json = JSON.parse((await run(['tools', 'demo/echo', '--json', ...w.common])).stdout) as {
      tool: { name: string; inputSchema: { required: string[] } };
      risk: { tier: string };
      decision: { decision: string };
      stored: unknown[];
    };
    expect(json.tool.name).toBe('demo__echo');
    expect(json.tool.inputSchema.required).toEqual(['text']);
    expect(json.decision.decision).toBe('ask');
    expect(json.stored).toEqual([]);
  });
});

describe('log warnings', () => {
  const broken = { broken: { command: '/no/such/server-binary' } };

  it('read as sentences in a terminal', async () => {
    const w = workspace(broken);
    const tty = await runInTerminal(['servers', ...w.common]);
    expect(tty.stdout).toMatch(/airlock: warning: server broken failed \(serverId=broken/);
    expect(tty.stdout).not.toContain('{"level":"warn"');
  });

  it('stay JSON lines when stderr is not a terminal', async () => {
    const w = workspace(broken);
    const piped = await run(['servers', ...w.common]);
    const warning = piped.stderr.split('\n').find((line) => line.startsWith('{"level":"warn"'));
    expect(JSON.parse(warning ?? '{}')).toMatchObject({ level: 'warn', serverId: 'broken' });
  });
});

describe('a closed pipe', () => {
  it('ends quietly when the reader stops early (airlock tools | head -1)', async () => {
    const w = workspace();
    const quoted = [process.execPath, BIN, 'tools', ...w.common].map((word) => `'${word}'`).join(' ');
    const piped = await run([], { command: 'bash', pre: ['-o', 'pipefail', '-c', `${quoted} | head -c 1`] });
    expect(piped.stderr).not.toContain('EPIPE');
    expect(piped.code).toBe(0);
  });
});

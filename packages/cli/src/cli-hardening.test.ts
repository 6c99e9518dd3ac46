import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// What the attack run found in the CLI, on the built bin as a user runs it: the config's limits are honoured and
// checked, a closed pipe ends it quietly, a workspace is an id and never a path, and a config file is read the way
// editors write it (a byte order mark) but never silently (a key written twice, an API key in the file).

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../dist/bin.js');
const DEMO = resolve(here, '../../demo-server/dist/bin.js');

const dir = mkdtempSync(join(tmpdir(), 'airlock-cli-hardening-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(args: string[], options: { closeStdout?: boolean } = {}): Promise<Run> {
  return new Promise((done) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env['AIRLOCK_STORE'];
    delete env['AIRLOCK_CONFIG'];
    const child = spawn(process.execPath, [BIN, ...args], { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    // A reader that has gone before the first line: every write the CLI makes meets a closed pipe.
    if (options.closeStdout === true) child.stdout.destroy();
    else child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

let files = 0;
/** Writes a config file (text as given, or JSON) in the test's folder and returns its path. */
function configFile(content: string | Record<string, unknown>): string {
  const path = join(dir, `config-${++files}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

const demo = { demo: { command: process.execPath, args: [DEMO] } };

describe("the CLI honours the config's limits", () => {
  it('stops a hanging call at the timeout the config sets', async () => {
    const config = configFile({ mcpServers: demo, limits: { timeoutMs: 1000 } });
    const started = performance.now();
    const result = await run(['call', 'demo/hang', '--allow', '--config', config, '--store', ':memory:']);
    expect(result.code).toBe(5);
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('refuses a negative timeout in the config or on the command line, naming it', async () => {
    const config = configFile({ mcpServers: demo, limits: { timeoutMs: -5 } });
    const fromFile = await run(['call', 'demo/echo', '--args', '{"text":"x"}', '--config', config]);
    expect(fromFile.code).not.toBe(0);
    expect(fromFile.stderr).toContain(`${config}: limits.timeoutMs must be a number > 0, not -5`);
    const perTool = configFile({ mcpServers: demo, limits: { tools: { demo__echo: { maxTotalMs: 0 } } } });
    expect((await run(['tools', '--config', perTool])).stderr).toContain(
      'limits.tools.demo__echo.maxTotalMs must be a number > 0, not 0',
    );
    const flag = await run(['call', 'demo/echo', '--timeout=-1']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--timeout must be a positive number of milliseconds, not -1');
  });
});

describe('the CLI at the edges of its input and output', () => {
  it('ends quietly when the reader of its output has gone (airlock history | head -1)', async () => {
    const store = join(dir, 'history.db');
    expect((await run(['call', 'demo/echo', '--args', '{"text":"one"}', '--allow', '--store', store])).code).toBe(0);
    const result = await run(['history', '--store', store], { closeStdout: true });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('refuses a workspace that is not an id, saying what is allowed', async () => {
    const result = await run(['history', '--workspace', '../../etc', '--store', ':memory:']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--workspace must be 1-64 letters, digits, ".", "_", "@" or "-", not "../../etc"');
  });

  it('reads a config file that starts with a UTF-8 byte order mark', async () => {
    const config = configFile(`\uFEFF${JSON.stringify({ mcpServers: demo })}`);
    const result = await run(['config', 'check', config]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('refuses a key written twice in one object, naming file:line:col of both', async () => {
    const config = configFile(
      `{\n  "mcpServers": {\n    "demo": { "command": "node" },\n    "demo": { "command": "other" }\n  }\n}\n`,
    );
    const result = await run(['config', 'check', config]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`${config}:4:5: duplicate key "demo" (first at line 3, column 5); keep one`);
  });

  it('says once, as an error, that model.apiKey does not belong in the file', async () => {
    const config = configFile(`{\n  "model": { "baseURL": "http://x", "model": "m", "apiKey": "sk-1" }\n}\n`);
    const result = await run(['config', 'check', config]);
    expect(result.code).not.toBe(0);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${config}:2:51: model.apiKey is not read from the file`);
    expect(result.stderr).not.toMatch(/ignored|warning/i);
  });
});

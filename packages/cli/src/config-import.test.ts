import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchDir } from '@airlock/core/testing';
import { describe, expect, it } from 'vitest';

// `airlock config import`: the MCP config files of Claude Desktop, VS Code and Cursor, read from a path or from where
// each host keeps them (under a scratch HOME), written as an Airlock config that the built CLI then runs.

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../dist/bin.js');
const DEMO = resolve(here, '../../demo-server/dist/bin.js');
const demo = { command: process.execPath, args: [DEMO] };

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI in `cwd` with HOME at `home` and nothing of this machine's config or XDG folders. */
function run(args: string[], cwd: string, home: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const base = { ...process.env };
  for (const key of ['XDG_CONFIG_HOME', 'AIRLOCK_CONFIG', 'AIRLOCK_STORE', 'NO_COLOR', 'FORCE_COLOR']) delete base[key];
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...base, HOME: home, NO_COLOR: '1', AIRLOCK_STORE: join(home, 'history.db'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** A home and a workspace folder inside it, both removed after the tests. */
function place(): { home: string; work: string } {
  const home = scratchDir('airlock-import-');
  const work = join(home, 'project');
  mkdirSync(work);
  return { home, work };
}

function write(file: string, content: unknown): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

/** Electron's application-data folder under `home`, where Claude Desktop and VS Code keep their files. */
function appData(home: string): string {
  return process.platform === 'darwin' ? join(home, 'Library', 'Application Support') : join(home, '.config');
}

/** The servers of a written config as `airlock servers --json` reports them: the demo server actually started. */
async function serversOf(config: string, cwd: string, home: string): Promise<{ id: string; state: string }[]> {
  const result = await run(['servers', '--config', config, '--json'], cwd, home);
  expect(result.stderr).toBe('');
  return (JSON.parse(result.stdout) as { id: string; state: string; toolCount?: number }[]).map(({ id, state }) => ({
    id,
    state,
  }));
}

describe('airlock config import', () => {
  it('carries a Claude Desktop file named on the command line, and says which of its keys it left behind', async () => {
    const { home, work } = place();
    const source = write(join(work, 'claude.json'), {
      mcpServers: { demo: { ...demo, autoApprove: ['echo'] } },
      globalShortcut: 'Ctrl+Space',
    });
    const out = join(work, 'imported.json');
    const result = await run(['config', 'import', 'claude', source, '--out', out], work, home);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`wrote ${out}: 1 server(s) from ${source}`);
    expect(result.stdout).toContain('  demo: stdio');
    expect(result.stderr).toContain('not carried: server "demo": autoApprove');
    expect(result.stderr).toContain('not carried: top level: globalShortcut');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ mcpServers: { demo } });
    expect(await serversOf(out, work, home)).toEqual([{ id: 'demo', state: 'ready' }]);
  });

  it("finds Claude Desktop's file where Claude keeps it and writes ./airlock.config.json, which a bare run reads", async () => {
    const { home, work } = place();
    const source = write(join(appData(home), 'Claude', 'claude_desktop_config.json'), {
      mcpServers: { 'Demo Server': { ...demo, disabled: false } },
    });
    const result = await run(['config', 'import', 'claude'], work, home);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`from ${source}`);
    expect(result.stdout).toContain('demo_server ("Demo Server"): stdio');
    const listed = await run(['servers', '--json'], work, home);
    expect(JSON.parse(listed.stdout)).toMatchObject([{ id: 'demo_server', state: 'ready' }]);
  });

  it("reads VS Code's workspace .vscode/mcp.json (comments, servers, inputs) and leaves out dev and sandbox", async () => {
    const { home, work } = place();
    write(
      join(work, '.vscode', 'mcp.json'),
      `// the workspace's servers
{
  "inputs": [
    { "type": "promptString", "id": "api-key", "description": "API key", "password": true },
    { "type": "command", "id": "picked", "command": "shellCommand.execute" },
  ],
  "servers": {
    "demo": {
      "type": "stdio",
      "command": ${JSON.stringify(process.execPath)},
      "args": [${JSON.stringify(DEMO)}],
      "env": { "DEMO_KEY": "\${input:api-key}", "REGION": "\${REGION:-eu}" },
      "dev": { "watch": "src/**/*.ts" },
      "sandbox": { "network": false },
    },
  },
}`,
    );
    // A user-level file too: the workspace's comes first.
    write(join(appData(home), 'Code', 'User', 'mcp.json'), { servers: { other: demo } });
    const result = await run(['config', 'import', 'vscode'], work, home);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('not carried: server "demo": dev, sandbox');
    expect(result.stderr).toContain('not carried: input "picked": type command');
    const written = JSON.parse(readFileSync(join(work, 'airlock.config.json'), 'utf8')) as Record<string, unknown>;
    expect(written).toEqual({
      mcpServers: {
        demo: { type: 'stdio', ...demo, env: { DEMO_KEY: '${input:api-key}', REGION: '${REGION:-eu}' } },
      },
      inputs: [{ type: 'promptString', id: 'api-key', description: 'API key', password: true }],
    });
    const check = await run(['config', 'check'], work, home);
    expect(check.stdout).toContain('demo: stdio, inputs: api-key');
  });

  it("falls back to VS Code's user-level mcp.json when the workspace has none", async () => {
    const { home, work } = place();
    const source = write(join(appData(home), 'Code', 'User', 'mcp.json'), {
      servers: { demo: { type: 'stdio', ...demo } },
    });
    const result = await run(['config', 'import', 'vscode', '--out', 'from-user.json'], work, home);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`from ${source}`);
    expect(await serversOf(join(work, 'from-user.json'), work, home)).toEqual([{ id: 'demo', state: 'ready' }]);
  });

  it("reads Cursor's ~/.cursor/mcp.json, carries Windsurf's serverUrl as url, and warns of secrets in clear", async () => {
    const { home, work } = place();
    write(join(home, '.cursor', 'mcp.json'), {
      mcpServers: {
        demo: {
          command: process.execPath,
          args: [DEMO, '--api-key=sk-0123'],
          env: { GITHUB_TOKEN: 'ghp_0123456789abcdef', FROM_ENV: '${env:GITHUB_TOKEN}' },
        },
        hosted: { serverUrl: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer abc123' } },
      },
    });
    const out = join(work, 'cursor.json');
    const result = await run(['config', 'import', 'cursor', '--out', out], work, home, { GITHUB_TOKEN: 'set' });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('note: server "hosted": serverUrl carried as url');
    expect(result.stderr).toContain('warning: server "demo": env.GITHUB_TOKEN is written in clear');
    expect(result.stderr).toContain('"Bearer ${input:hosted-authorization}"');
    expect(result.stderr).toContain(
      'args[1] is written in clear in the file; consider "--api-key=${input:demo-api-key}"',
    );
    expect(result.stderr).not.toContain('env.FROM_ENV');
    const written = JSON.parse(readFileSync(out, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> };
    // Secrets in clear are carried as they are (the warning says where they would be better kept).
    expect(written.mcpServers['demo']!['env']).toEqual({
      GITHUB_TOKEN: 'ghp_0123456789abcdef',
      FROM_ENV: '${env:GITHUB_TOKEN}',
    });
    expect(written.mcpServers['hosted']).toEqual({
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer abc123' },
    });
    // The hosted server is checked, not started (nothing listens at mcp.example.com).
    const check = await run(['config', 'check', out], work, home, { GITHUB_TOKEN: 'set' });
    expect(check.stdout).toContain('hosted: http, falling back to sse');
  });

  it("reads a workspace's .cursor/mcp.json when there is no ~/.cursor/mcp.json, and the demo server starts", async () => {
    const { home, work } = place();
    const source = write(join(work, '.cursor', 'mcp.json'), { mcpServers: { demo } });
    const result = await run(['config', 'import', 'cursor'], work, home);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`from ${source}`);
    expect(await serversOf(join(work, 'airlock.config.json'), work, home)).toEqual([{ id: 'demo', state: 'ready' }]);
  });

  it('never replaces an existing file without --force, and replaces it whole with it', async () => {
    const { home, work } = place();
    const source = write(join(work, 'claude.json'), { mcpServers: { demo } });
    const out = write(join(work, 'airlock.config.json'), '{"mcpServers": {}}\n');
    const refused = await run(['config', 'import', 'claude', source], work, home);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${out} already exists: nothing written (--force replaces it)`);
    expect(readFileSync(out, 'utf8')).toBe('{"mcpServers": {}}\n');
    const forced = await run(['config', 'import', 'claude', source, '--force'], work, home);
    expect(forced.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ mcpServers: { demo } });
    const onItself = await run(['config', 'import', 'claude', source, '--out', source, '--force'], work, home);
    expect(onItself.code).toBe(2);
    expect(onItself.stderr).toContain(`${source} is the file being imported`);
  });

  it('refuses a host it does not know, with the one meant', async () => {
    const { home, work } = place();
    const result = await run(['config', 'import', 'vscod'], work, home);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('config import reads claude, vscode or cursor, not vscod. Did you mean vscode?');
  });

  it('names the file, line and column of a malformed source, and writes nothing', async () => {
    const { home, work } = place();
    const source = write(
      join(work, 'mcp.json'),
      '{\n  "servers": {\n    "demo": { "command": "node" }\n    "x": {}\n}\n',
    );
    const result = await run(['config', 'import', 'vscode', source], work, home);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${source}:4:5: not valid JSON`);
    expect(existsSync(join(work, 'airlock.config.json'))).toBe(false);
  });

  it('writes nothing that would not load, and says why; nor when the host has no file where it keeps one', async () => {
    const { home, work } = place();
    const source = write(join(work, 'claude.json'), { mcpServers: { demo: { command: 'node', args: 'server.js' } } });
    const result = await run(['config', 'import', 'claude', source], work, home);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('would not load, so nothing was written');
    expect(result.stderr).toContain('args must be an array of strings');
    expect(existsSync(join(work, 'airlock.config.json'))).toBe(false);
    const missing = await run(['config', 'import', 'cursor'], work, home);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`no Cursor config found (looked for ${join(home, '.cursor', 'mcp.json')}`);
  });

  it('is offered by help and completion', async () => {
    const { home, work } = place();
    const help = await run(['help', 'config'], work, home);
    expect(help.stdout).toContain('airlock config import claude|vscode|cursor [FILE] [--out FILE] [--force]');
    const bash = await run(['completion', 'bash'], work, home);
    expect(bash.stdout).toContain('config) actions="check import"');
    expect(bash.stdout).toContain('"config import") found=(claude vscode cursor)');
  });
});

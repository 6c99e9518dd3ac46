import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/bin.js');

/** A stdio MCP server by hand: notes its start in the file its first argument names; `report` tells argv and env. */
const PROBE = `
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
appendFileSync(process.argv[2], 'started\\n');
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method, params } = JSON.parse(line);
  if (method === 'initialize') send({ id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'probe', version: '1' } } });
  else if (method === 'tools/list') send({ id, result: { tools: [{ name: 'report', inputSchema: { type: 'object' } }] } });
  else if (method === 'tools/call') {
    const env = { TOKEN: process.env.TOKEN, FROM_FILE: process.env.FROM_FILE, REGION: process.env.REGION };
    send({ id, result: { content: [{ type: 'text', text: JSON.stringify({ argv: process.argv.slice(3), env }) }] } });
  } else if (id !== undefined) send({ id, error: { code: -32601, message: 'no ' + method } });
});
`;

const dir = mkdtempSync(join(tmpdir(), 'airlock-vscode-'));
const started = { brave: join(dir, 'brave.started'), regional: join(dir, 'regional.started') };
let sse: { url: string; stop: () => Promise<void> };

/** A legacy server: the v1 SDK's SSEServerTransport on loopback (GET /sse, POST /messages). */
async function startLegacy(): Promise<typeof sse> {
  const sessions = new Map<string, SSEServerTransport>();
  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, transport);
      const server = new McpServer({ name: 'legacy', version: '1.0.0' });
      server.registerTool('hello', { description: 'Says hello' }, () => ({ content: [{ type: 'text', text: 'hi' }] }));
      void server.connect(transport);
    } else if (req.method === 'POST' && url.pathname === '/messages') {
      void sessions.get(url.searchParams.get('sessionId') ?? '')?.handlePostMessage(req, res);
    } else res.writeHead(405).end();
  });
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/sse`,
    stop: async () => {
      for (const transport of sessions.values()) await transport.close();
      http.closeAllConnections();
      await new Promise((done) => http.close(done));
    },
  };
}

beforeAll(async () => {
  sse = await startLegacy();
  writeFileSync(join(dir, 'probe.mjs'), PROBE);
  writeFileSync(join(dir, 'probe.env'), 'FROM_FILE=from-env-file\n');
  writeFileSync(
    join(dir, 'mcp.json'),
    `{
  // as VS Code writes it
  "inputs": [
    { "type": "promptString", "id": "api-key", "description": "Brave API key", "password": true },
    { "type": "pickString", "id": "region", "description": "Region", "options": ["eu", "us"] },
  ],
  "servers": {
    "Brave Search": {
      "type": "stdio",
      "command": "${process.execPath}",
      "args": ["\${workspaceFolder}\${pathSeparator}probe.mjs", "${started.brave}", "\${userHome}", "\${LEVEL:-info}", "\${env:PROBE_VAR}"],
      "envFile": "probe.env",
      "env": { "TOKEN": "Bearer \${input:api-key}" },
    },
    "regional": { "command": "${process.execPath}", "args": ["\${workspaceFolder}/probe.mjs", "${started.regional}"], "env": { "REGION": "\${input:region}" } },
    "legacy": { "type": "sse", "url": "${sse.url}" },
  },
}`,
  );
});
afterAll(async () => {
  await sse.stop();
  rmSync(dir, { recursive: true, force: true });
});

const env: NodeJS.ProcessEnv = {
  ...process.env,
  NO_COLOR: '1',
  HOME: dir,
  PROBE_VAR: 'probe-var',
  AIRLOCK_STORE: join(dir, 'airlock.db'),
};
delete env['AIRLOCK_SECRET_KEY'];
delete env['AIRLOCK_CONFIG'];

/** The CLI with stdin a pipe (no terminal), given `stdin` as its input. */
function run(args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, '--config', join(dir, 'mcp.json'), ...args], { env, cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** The CLI in a pseudo-terminal (util-linux `script`): `answer` is typed once `prompt` appears. */
function runInTerminal(args: string[], prompt: string, answer: string): Promise<string> {
  const command = [process.execPath, BIN, '--config', join(dir, 'mcp.json'), ...args].map((a) => `'${a}'`).join(' ');
  return new Promise((done) => {
    const child = spawn('script', ['-q', '-e', '-f', '-c', command, '/dev/null'], { env, cwd: dir });
    let output = '';
    let typed = false;
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      if (!typed && output.includes(prompt)) {
        typed = true;
        child.stdin.write(answer);
      }
    });
    child.on('close', () => done(output));
  });
}

function report(text: string): unknown {
  const start = text.indexOf('{"argv"');
  return JSON.parse(text.slice(start, text.indexOf('}}', start) + 2));
}

describe('a VS Code mcp.json through airlock --config', () => {
  it('with no terminal, fails each server whose input has no value, naming it, and starts no process for it', async () => {
    const listed = await run(['servers']);
    expect(listed.stdout).toContain('brave_search (Brave Search) · failed');
    expect(listed.stdout).toContain(
      'server "brave_search" needs input "api-key" (Brave API key), which has no value: no terminal to ask in; ' +
        `set it with: airlock inputs set api-key --config ${join(dir, 'mcp.json')}`,
    );
    expect(listed.stdout).toContain('server "regional" needs input "region" (Region)');
    expect(listed.stdout).toMatch(/legacy · ready · http · untrusted · 1 tools/);
    expect(existsSync(started.brave)).toBe(false);
    expect(existsSync(started.regional)).toBe(false);
  });

  it('asks for a password input in a terminal, masked, keeps it sealed, and sends the expanded values', async () => {
    const output = await runInTerminal(
      ['call', 'brave_search/report', '--allow'],
      'needs input "api-key": Brave API key',
      's3cret\r',
    );
    const asked = output.slice(0, output.indexOf('{"argv"'));
    expect(asked).toContain('******');
    expect(asked).not.toContain('s3cret');
    expect(report(output)).toEqual({
      argv: [dir, 'info', 'probe-var'],
      env: { TOKEN: 'Bearer s3cret', FROM_FILE: 'from-env-file' },
    });

    // The next run, with no terminal, uses the value kept; clearing it fails the server again.
    const again = await run(['call', 'brave_search/report', '--allow']);
    expect(report(again.stdout)).toMatchObject({ env: { TOKEN: 'Bearer s3cret' } });
    expect((await run(['inputs', 'clear', 'api-key'])).stdout).toBe('input "api-key" cleared\n');
    expect((await run(['servers'])).stdout).toContain('brave_search (Brave Search) · failed');
  });

  it('sets an input from stdin with airlock inputs set, and lists which are set', async () => {
    expect((await run(['inputs', 'set', 'region'], '2\n')).code).toBe(0);
    expect((await run(['inputs'])).stdout).toContain('region\tset\tRegion\tregional\n');
    const called = await run(['call', 'regional/report', '--allow']);
    // A pickString takes an option by its number or its text, and nothing else.
    expect(report(called.stdout)).toMatchObject({ env: { REGION: 'us' } });
    const refused = await run(['inputs', 'set', 'region'], 'mars\n');
    expect([refused.code, refused.stderr]).toEqual([
      2,
      'airlock: no value given (one of: eu, us, or its number); input "region" unchanged\n',
    ]);
  });

  it('checks the file without starting a server', async () => {
    const checked = await run(['config', 'check', join(dir, 'mcp.json')]);
    expect(checked.stdout).toBe(
      `${join(dir, 'mcp.json')}: ok, 3 server(s)\n` +
        '  brave_search ("Brave Search"): stdio, inputs: api-key\n' +
        '  regional: stdio, inputs: region\n' +
        '  legacy: sse\n',
    );
  });
});

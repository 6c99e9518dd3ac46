import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { InputResolver } from '../config/config-inputs.js';
import { readConfigFile } from '../host/config-file.js';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { SCOPE } from '../testing/demo-fixture.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';

/**
 * A real stdio MCP server, written by hand so it depends on nothing: on start it notes its argv in the file its
 * first argument names, and its one tool `report` answers with its argv, cwd and the environment variables asked for.
 */
const PROBE = `
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
appendFileSync(process.argv[2], JSON.stringify(process.argv.slice(2)) + '\\n');
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method, params } = JSON.parse(line);
  if (method === 'initialize') {
    send({ id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'probe', version: '1' } } });
  } else if (method === 'tools/list') {
    send({ id, result: { tools: [{ name: 'report', inputSchema: { type: 'object' } }] } });
  } else if (method === 'tools/call') {
    const env = Object.fromEntries(['TOKEN', 'FROM_ENV', 'FROM_FILE', 'LEVEL'].map((k) => [k, process.env[k] ?? null]));
    const report = { argv: process.argv.slice(2), cwd: process.cwd(), env };
    send({ id, result: { content: [{ type: 'text', text: JSON.stringify(report) }] } });
  } else if (id !== undefined) {
    send({ id, error: { code: -32601, message: 'no ' + method } });
  }
});
`;

const dir = mkdtempSync(join(tmpdir(), 'airlock-probe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

/** Gives `api-key` a value, and no value to `other`, as a host with no one to ask would. */
const resolver: InputResolver = {
  value: ({ input }) => Promise.resolve(input.id === 'api-key' ? 's3cret' : undefined),
  howToSet: (input) => `set it with: airlock inputs set ${input.id}`,
};

describe('a VS Code-style config started for real', () => {
  it('starts the server with every variable expanded, and refuses the one whose input has no value', async () => {
    writeFileSync(join(dir, 'probe.mjs'), PROBE);
    writeFileSync(join(dir, 'probe.env'), 'FROM_FILE=file-value\n');
    const started = join(dir, 'started.ndjson');
    const startedOther = join(dir, 'started-other.ndjson');
    const file = join(dir, 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        inputs: [
          { type: 'promptString', id: 'api-key', description: 'Probe key', password: true },
          { type: 'pickString', id: 'other', description: 'Region', options: ['eu', 'us'] },
        ],
        servers: {
          'Probe Server': {
            type: 'stdio',
            command: process.execPath,
            args: ['${workspaceFolder}${pathSeparator}probe.mjs', started, '${userHome}', '${LEVEL:-info}'],
            cwd: '${workspaceFolder}',
            envFile: 'probe.env',
            env: { TOKEN: 'Bearer ${input:api-key}', FROM_ENV: '${env:PROBE_VAR}' },
          },
          needs_other: {
            command: process.execPath,
            args: ['${workspaceFolder}/probe.mjs', startedOther],
            env: { REGION: '${input:other}' },
          },
        },
      }),
    );
    const variables = {
      env: { PROBE_VAR: 'from-env' },
      userHome: '/home/probe',
      workspaceFolder: dir,
      pathSeparator: '/',
    };
    const { servers } = readConfigFile(file, { variables });
    host = createHost({
      servers,
      inputs: resolver,
      surface: new ScriptedSurface('allow_once'),
      store: new MemoryStore(),
    });
    await host.servers.settled();

    const [probe, other] = host.servers.list();
    expect(probe).toMatchObject({ id: 'probe_server', name: 'Probe Server', state: 'ready' });
    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'user' },
      tool: 'probe_server__report',
      args: {},
    });
    // The model's text is the server's, after the host's untrusted-data label.
    const report = JSON.parse(result.text.slice(result.text.indexOf('{'))) as unknown;
    expect(report).toEqual({
      argv: [started, '/home/probe', 'info'],
      cwd: dir,
      env: { TOKEN: 'Bearer s3cret', FROM_ENV: 'from-env', FROM_FILE: 'file-value', LEVEL: null },
    });

    expect(other).toMatchObject({ id: 'needs_other', state: 'failed' });
    expect(other?.error).toContain(
      'needs input "other" (Region), which has no value: set it with: airlock inputs set other',
    );
    expect(existsSync(startedOther)).toBe(false);
  });

  it('never starts a process whose config still holds a placeholder, however the config was built', async () => {
    const marker = join(dir, 'never.ndjson');
    writeFileSync(join(dir, 'probe.mjs'), PROBE);
    host = createHost({
      servers: [
        {
          id: 'raw',
          transport: 'stdio',
          command: process.execPath,
          args: [join(dir, 'probe.mjs'), marker],
          env: { TOKEN: '${input:api-key}' },
          trusted: false,
          disabled: false,
        },
      ],
      store: new MemoryStore(),
    });
    await host.servers.settled();
    expect(host.servers.list()[0]).toMatchObject({ state: 'failed' });
    expect(host.servers.list()[0]?.error).toContain('env.TOKEN still holds a placeholder');
    expect(existsSync(marker)).toBe(false);
  });
});

import { spawn } from 'node:child_process';
import { dirname } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_BIN } from '../../../test/support/cli/run-cli.js';
import { callLog, CliGateways, loggedDemo } from '../../../test/support/gateway/cli-gateways.js';

const bench = new CliGateways();
afterEach(() => bench.end());

/** A config with the demo server (logging every call that reaches it) and the given rules, and a store beside it. */
function workspace(rules: object[] = []) {
  const w = bench.workspace('airlock-gateway-', (dir) => ({
    mcpServers: { demo: loggedDemo(dir) },
    permissions: { rules },
  }));
  return {
    args: ['gateway', '--config', w.config, '--store', w.store, '--user', 'ada'],
    store: w.store,
    config: w.config,
    /** The tools/call requests that reached the demo server, in order. */
    reached: (): string[] => callLog(w.dir).map((line) => line.tool),
  };
}

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

function textOf(result: unknown): string {
  const { content } = result as { content: { type: string; text?: string }[] };
  return content.map((block) => block.text ?? '').join('\n');
}

describe('airlock gateway over stdio', () => {
  it('asks the client before a first call, runs it once, and keeps a call a rule denies from the server', async () => {
    const w = workspace([{ effect: 'deny', server: 'demo', tool: 'delete_note' }]);
    const asked: ElicitRequestFormParams[] = [];
    const client = new Client({ name: 'test', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params as ElicitRequestFormParams);
      return Promise.resolve({ action: 'accept' as const, content: { decision: 'allow_once' } });
    });
    bench.client(client);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, ...w.args] }));

    expect(client.getServerVersion()?.name).toBe('airlock-gateway');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['demo__echo', 'demo__delete_note']));

    const echo = await client.callTool({ name: 'demo__echo', arguments: { text: 'through the gateway' } });
    expect(echo.isError).toBeUndefined();
    expect(textOf(echo)).toContain('through the gateway');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toMatch(
      /demo__echo[\s\S]*server "demo"[\s\S]*Risk: [\s\S]*"text": "through the gateway"/,
    );
    expect(asked[0]!.requestedSchema.properties['decision']).toMatchObject({
      oneOf: [
        { const: 'allow_once' },
        { const: 'allow_conversation' },
        { const: 'allow_always' },
        { const: 'deny_once' },
        { const: 'deny_always' },
      ],
    });

    const denied = await client.callTool({ name: 'demo__delete_note', arguments: { id: '1' } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/permission_denied[\s\S]*delete_note/);
    expect(asked).toHaveLength(1);
    expect(w.reached()).toEqual(['echo']);

    await client.close();
    const verified = await run(['audit', '--verify', '--store', w.store, '--config', w.config]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^audit chain intact: \d+ events/);
  });

  it('offers no allow always for a destructive tool, and runs nothing when the person declines', async () => {
    const w = workspace();
    const asked: ElicitRequestFormParams[] = [];
    const client = new Client({ name: 'test', version: '1' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params as ElicitRequestFormParams);
      return Promise.resolve({ action: 'decline' as const });
    });
    bench.client(client);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, ...w.args] }));

    const result = await client.callTool({ name: 'demo__delete_note', arguments: { id: '1' } });
    expect(result.isError).toBe(true);
    const offered = asked[0]!.requestedSchema.properties['decision'] as { oneOf: { const: string }[] };
    expect(offered.oneOf.map((option) => option.const)).toEqual([
      'allow_once',
      'allow_conversation',
      'deny_once',
      'deny_always',
    ]);
    expect(w.reached()).toEqual([]);
  });

  it("passes a server's question during a call on to the client, and the server gets the answer", async () => {
    const w = workspace([{ effect: 'allow', server: 'demo', tool: 'ask_user' }]);
    const asked: ElicitRequestFormParams[] = [];
    const client = new Client({ name: 'test', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params as ElicitRequestFormParams);
      return Promise.resolve({ action: 'accept' as const, content: { name: 'Ada', age: 36 } });
    });
    bench.client(client);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, ...w.args] }));

    const result = await client.callTool({ name: 'demo__ask_user', arguments: {} });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toMatch(
      /^Server "demo" asks \(during demo__ask_user\):\nTell the demo server who you are/,
    );
    expect(asked[0]!.requestedSchema).toMatchObject({ properties: { name: { type: 'string' } }, required: ['name'] });
    expect(textOf(result)).toMatch(/action "accept"[\s\S]*Ada/);
  });

  it('serves a v1 SDK client that cannot elicit: a call a rule allows runs, others say how to allow them', async () => {
    const w = workspace([{ effect: 'allow', server: 'demo', tool: 'echo' }]);
    const client = new V1Client({ name: 'v1', version: '1' });
    bench.client(client);
    await client.connect(new V1StdioClientTransport({ command: process.execPath, args: [CLI_BIN, ...w.args] }));

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('demo__echo');
    const echo = await client.callTool({ name: 'demo__echo', arguments: { text: 'from v1' } });
    expect(textOf(echo)).toContain('from v1');

    const refused = await client.callTool({ name: 'demo__search_notes', arguments: { query: 'x' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/declares no elicitation[\s\S]*"permissions"[\s\S]*"tool":"search_notes"/);
    expect(w.reached()).toEqual(['echo']);
  });

  it('names a history file it cannot open, and exits rather than hang on the store thread', async () => {
    const w = workspace();
    const store = dirname(w.store); // a folder: SQLite cannot open it as a file
    const result = await run(['gateway', '--config', w.config, '--store', store]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`cannot open the history file ${store}`);
    expect(result.stdout).toBe('');
  });
});

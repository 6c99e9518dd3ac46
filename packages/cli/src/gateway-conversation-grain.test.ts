// `airlock gateway` over stdio: one client's session is one conversation. "Allow for this session" lets the client's
// next calls of the tool run without a question; a new session (another client, another gateway process on the same
// history file) is asked again; and `airlock permissions` lists and revokes what was kept.
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_BIN } from '../../../test/support/cli/run-cli.js';
import { callLog, CliGateways, loggedDemo } from '../../../test/support/gateway/cli-gateways.js';

const bench = new CliGateways();
afterEach(() => bench.end());

/** A config with the demo server (logging every call that reaches it) and a history file beside it. */
function workspace() {
  const w = bench.workspace('airlock-gateway-grain-', (dir) => ({ mcpServers: { demo: loggedDemo(dir) } }));
  return {
    store: w.store,
    config: w.config,
    // The OS user, as `airlock permissions` lists that user's decisions.
    args: ['gateway', '--config', w.config, '--store', w.store],
    /** The texts echo received, in order. */
    echoed: (): string[] =>
      callLog(w.dir)
        .filter((line) => line.tool === 'echo')
        .map((line) => (line.args as { text?: string } | undefined)?.text ?? ''),
  };
}

/** A client on its own gateway process, answering each permission question with `decision` and keeping them. */
async function session(w: ReturnType<typeof workspace>, decision: string) {
  const asked: ElicitRequestFormParams[] = [];
  const client = new Client({ name: 'test', version: '1' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', (request) => {
    asked.push(request.params as ElicitRequestFormParams);
    return Promise.resolve({ action: 'accept' as const, content: { decision } });
  });
  bench.client(client);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, ...w.args] }));
  const echo = async (text: string) =>
    (await client.callTool({ name: 'demo__echo', arguments: { text } })) as { isError?: boolean };
  return { client, asked, echo };
}

function run(args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('close', (code) => done({ code, stdout }));
  });
}

describe('allow for this session, through airlock gateway', () => {
  it('runs the next calls of the session unasked, asks again in a new session, and is listed and revoked', async () => {
    const w = workspace();
    const first = await session(w, 'allow_conversation');
    expect((await first.echo('one')).isError).toBeUndefined();
    expect((await first.echo('two, other arguments')).isError).toBeUndefined();
    expect(first.asked).toHaveLength(1);
    expect(first.asked[0]!.requestedSchema.properties['decision']).toMatchObject({
      oneOf: expect.arrayContaining([{ const: 'allow_conversation', title: 'Allow for this session' }]),
    });

    // Another session of the same user, on the same history file: asked again (and denied here).
    const second = await session(w, 'deny_once');
    expect((await second.echo('three')).isError).toBe(true);
    expect(second.asked).toHaveLength(1);
    expect(w.echoed()).toEqual(['one', 'two, other arguments']);

    const scope = ['--config', w.config, '--store', w.store];
    const listed = await run(['permissions', 'list', ...scope]);
    expect(listed.stdout).toMatch(/allow in conversation gateway-[\w-]+ {2}demo\/echo {2}any arguments {2}risk medium/);
    const id = /^(\S+) {2}allow in conversation/m.exec(listed.stdout)?.[1];
    expect((await run(['permissions', 'revoke', id!, ...scope])).stdout).toBe('revoked 1 decision\n');
    expect((await run(['permissions', 'list', ...scope])).stdout).toBe('no stored decisions in this workspace\n');
  }, 60_000);
});

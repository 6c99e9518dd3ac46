import { createHash } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ElicitRequestFormParams, Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_BIN } from '../../../test/support/cli/run-cli.js';
import { callLog, CliGateways, loggedDemo } from '../../../test/support/gateway/cli-gateways.js';

const TOKEN = 'gateway-2026-token-0123456789abcdef';

const bench = new CliGateways();
afterEach(() => bench.end());

/** A config with the demo server (logging every call that reaches it), a rule denying delete_note, and a store. */
function workspace(gateway?: object) {
  const rules = [
    { effect: 'deny', server: 'demo', tool: 'delete_note' },
    { effect: 'allow', server: 'demo', tool: 'ask_user' },
    { effect: 'allow', server: 'demo', tool: 'change_definition' },
    { effect: 'allow', server: 'demo', tool: 'connect_account' },
  ];
  const w = bench.workspace('airlock-gateway-2026-', (dir) => ({
    mcpServers: { demo: loggedDemo(dir) },
    permissions: { rules },
    gateway,
  }));
  return {
    args: ['gateway', '--config', w.config, '--store', w.store, '--user', 'ada'],
    /** The tools/call requests that reached the demo server, in order. */
    reached: (): string[] => callLog(w.dir).map((line) => line.tool),
  };
}

/** Starts the HTTP gateway and answers its `/mcp` URL once it listens. */
function httpGateway(args: string[]): Promise<URL> {
  return bench.listening(args, { ...process.env, AIRLOCK_GATEWAY_TOKEN: TOKEN });
}

/** A v2 client that negotiates the era (it probes `server/discover`) and answers each question with `answer`. */
function modernClient(answer: (params: ElicitRequestFormParams) => Record<string, unknown>) {
  const asked: ElicitRequestFormParams[] = [];
  const client = new Client(
    { name: 'modern', version: '1' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
  );
  client.setRequestHandler('elicitation/create', (request) => {
    const params = request.params as ElicitRequestFormParams;
    asked.push(params);
    return Promise.resolve({ action: 'accept' as const, content: answer(params) as Record<string, string> });
  });
  bench.client(client);
  return { client, asked };
}

function textOf(result: unknown): string {
  const { content } = result as { content: { type: string; text?: string }[] };
  return content.map((block) => block.text ?? '').join('\n');
}

const transports: Record<string, (w: ReturnType<typeof workspace>) => Promise<Transport>> = {
  stdio: (w) => Promise.resolve(new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, ...w.args] })),
  HTTP: async (w) =>
    new StreamableHTTPClientTransport(await httpGateway(w.args), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
};

describe.each(Object.keys(transports))('airlock gateway to a 2026-07-28 client over %s', (name) => {
  it('is found by server/discover, asks before a first call and runs it once, and keeps a denied call from the server', async () => {
    const w = workspace();
    const { client, asked } = modernClient(() => ({ decision: 'allow_once' }));
    await client.connect(await transports[name]!(w));

    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getServerVersion()?.name).toBe('airlock-gateway');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['demo__echo', 'demo__delete_note']));

    const echo = await client.callTool({ name: 'demo__echo', arguments: { text: 'a modern hello' } });
    expect(echo.isError).toBeUndefined();
    expect(textOf(echo)).toContain('a modern hello');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toMatch(/demo__echo[\s\S]*server "demo"[\s\S]*"text": "a modern hello"/);
    expect(asked[0]!.requestedSchema.properties['decision']).toMatchObject({
      oneOf: expect.arrayContaining([{ const: 'allow_once', title: 'Allow once' }]) as unknown,
    });

    const denied = await client.callTool({ name: 'demo__delete_note', arguments: { id: '1' } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/permission_denied[\s\S]*delete_note/);
    expect(asked).toHaveLength(1);
    expect(w.reached()).toEqual(['echo']);
  });

  it("passes a server's question during a call on, and the server gets the answer", async () => {
    const w = workspace();
    const { client, asked } = modernClient(() => ({ name: 'Ada', age: 36 }));
    await client.connect(await transports[name]!(w));

    const result = await client.callTool({ name: 'demo__ask_user', arguments: {} });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toMatch(/^Server "demo" asks \(during demo__ask_user\):\nTell the demo server who/);
    expect(textOf(result)).toMatch(/action "accept"[\s\S]*Ada/);
    expect(w.reached()).toEqual(['ask_user']);
  });

  it("tells the client when a server's tool list changed", async () => {
    const w = workspace();
    let changed!: (tools: { name: string; description?: string }[]) => void;
    const heard = new Promise<{ name: string; description?: string }[]>((resolve) => (changed = resolve));
    const client = new Client(
      { name: 'modern', version: '1' },
      {
        versionNegotiation: { mode: 'auto' },
        listChanged: { tools: { debounceMs: 0, onChanged: (_error, tools) => tools !== null && changed(tools) } },
      },
    );
    bench.client(client);
    await client.connect(await transports[name]!(w));
    const before = (await client.listTools()).tools.find((tool) => tool.name === 'demo__shape_shifter');

    await client.callTool({ name: 'demo__change_definition', arguments: {} });
    const after = (await heard).find((tool) => tool.name === 'demo__shape_shifter');
    expect(after?.description).toBeDefined();
    expect(after?.description).not.toBe(before?.description);
  });

  it('relays the progress of a call asked about to the retry that waits for it', async () => {
    const w = workspace();
    const { client, asked } = modernClient(() => ({ decision: 'allow_once' }));
    await client.connect(await transports[name]!(w));

    const progress: { progress: number; total?: number; message?: string }[] = [];
    const result = await client.callTool(
      { name: 'demo__slow_task', arguments: { steps: 3, stepMs: 20 } },
      { onprogress: (value) => progress.push(value) },
    );
    expect(asked).toHaveLength(1);
    expect(textOf(result)).not.toMatch(/permission_denied/);
    // The client's own progress says when it answers a round; the server's steps come after, on the retry.
    const steps = progress.filter((value) => value.message?.startsWith('step'));
    expect(steps.map((value) => value.progress)).toEqual([1, 2, 3]);
    expect(steps[2]).toMatchObject({ total: 3, message: 'step 3 of 3' });
  });

  it("passes a server's URL question on in URL mode, and the server hears the client accepted", async () => {
    const w = workspace();
    const asked: { mode?: string; url?: string; message: string }[] = [];
    const client = new Client(
      { name: 'modern', version: '1' },
      { capabilities: { elicitation: { form: {}, url: {} } }, versionNegotiation: { mode: 'auto' } },
    );
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params);
      return Promise.resolve({ action: 'accept' as const });
    });
    bench.client(client);
    await client.connect(await transports[name]!(w));

    const result = await client.callTool({ name: 'demo__connect_account', arguments: {} });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ mode: 'url', url: expect.stringMatching(/^https:\/\/example\.com\/connect/) });
    expect(textOf(result)).toContain(`Account connected: the user accepted and opened ${asked[0]!.url}`);
  });

  it('runs nothing when the person declines', async () => {
    const w = workspace();
    const { client, asked } = modernClient(() => ({}));
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params as ElicitRequestFormParams);
      return Promise.resolve({ action: 'decline' as const });
    });
    await client.connect(await transports[name]!(w));

    const result = await client.callTool({ name: 'demo__search_notes', arguments: { query: 'x' } });
    expect(result.isError).toBe(true);
    expect(asked).toHaveLength(1);
    expect(w.reached()).toEqual([]);
  });
});

describe('airlock gateway: a 2026-07-28 call asked about, on the wire', () => {
  const GRACE = 'grace-2026-token-0123456789abcdef';
  const HOPPER = 'hopper-2026-token-0123456789abcdef';
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  const META = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  };

  /** One `tools/call` of demo__echo as a 2026-07-28 client sends it, with the retry's fields when given. */
  async function call(url: URL, token: string, retry: object = {}) {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'demo__echo',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'demo__echo', arguments: { text: 'once' }, ...retry, _meta: META },
      }),
    });
    return (await response.json()) as {
      result?: { resultType?: string; requestState?: string; inputRequests?: object; content?: unknown };
      error?: { code: number; message: string };
    };
  }

  it('continues a call only for the user who started it, and only once, and runs it once', async () => {
    const w = workspace({ users: { grace: { tokenSha256: sha256(GRACE) }, hopper: { tokenSha256: sha256(HOPPER) } } });
    const url = await httpGateway(w.args);

    const first = await call(url, GRACE);
    expect(first.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { q1: { method: 'elicitation/create' } },
    });
    const requestState = first.result!.requestState!;
    const answer = { inputResponses: { q1: { action: 'accept', content: { decision: 'allow_once' } } } };

    const stolen = await call(url, HOPPER, { ...answer, requestState });
    expect(stolen.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    const forged = await call(url, GRACE, { ...answer, requestState: 'not-a-call' });
    expect(forged.error).toMatchObject({ code: -32602 });
    expect(w.reached()).toEqual([]);

    const done = await call(url, GRACE, { ...answer, requestState });
    expect(done.result).toMatchObject({ resultType: 'complete' });
    expect(textOf(done.result)).toContain('once');
    const again = await call(url, GRACE, { ...answer, requestState });
    expect(again.error).toMatchObject({ code: -32602 });
    expect(w.reached()).toEqual(['echo']);
  });
});
